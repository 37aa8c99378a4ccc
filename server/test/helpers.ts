import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { runSiteCli } from '../src/cli/site.ts';
import type { Env } from '../src/lib/env.ts';
import type { SliderPass } from '../src/plugins/captcha.ts';
import { testDatabaseUrl } from './pg-test-database.ts';

export const FIXTURES = path.join(import.meta.dirname, 'fixtures');
export const FIXTURE_SEED = path.join(FIXTURES, 'seed');
export const FIXTURE_RACE_ID = 'fixture-race-2025';

const made: string[] = [];

export function tempDir(prefix = 'race-site-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Which engine this test run is on: the server-pg project sets TEST_DB=postgres (vitest.config.ts). */
export const ON_POSTGRES = process.env.TEST_DB === 'postgres';

/** The ID-number secret of the test apps on PostgreSQL, which takes it from the environment only (lib/secrets.ts). */
export const TEST_ID_NUMBER_SECRET = 'test-id-number-secret-0123456789';

/**
 * The environment of a test app or CLI run: `env` (default process.env) with DATABASE_URL set to a fresh
 * database of this run on PostgreSQL, and unset on SQLite (a developer's DATABASE_URL never leaks in); on
 * PostgreSQL with ID_NUMBER_SECRET (TEST_ID_NUMBER_SECRET unless `env` gives one; `env` may unset it with
 * ID_NUMBER_SECRET: undefined).
 */
export async function testEnv(env: Env = process.env, databaseUrl?: string): Promise<Env> {
  return postgresEnv({ ...env, DATABASE_URL: databaseUrl ?? (await testDatabaseUrl()) });
}

/** `env` with ID_NUMBER_SECRET when it names a PostgreSQL database (TEST_ID_NUMBER_SECRET unless given or unset). */
export function postgresEnv(env: Env): Env {
  if (env.DATABASE_URL === undefined || 'ID_NUMBER_SECRET' in env) return env;
  return { ...env, ID_NUMBER_SECRET: TEST_ID_NUMBER_SECRET };
}

const databases = new Map<string, Promise<string | undefined>>();

/**
 * The database that goes with a data folder in this test file: on PostgreSQL one fresh database per folder
 * (so an app and the CLI on the same folder share it), undefined on SQLite (the folder holds it). `empty`: on
 * PostgreSQL a database without the migrations, when the folder's first use is a test migrating from an older
 * state (testDatabaseUrl).
 */
export function databaseFor(dataDir: string, { empty = false }: { empty?: boolean } = {}): Promise<string | undefined> {
  let url = databases.get(dataDir);
  if (url === undefined) {
    url = testDatabaseUrl({ empty });
    databases.set(dataDir, url);
  }
  return url;
}

/** A fresh app on a new temporary data directory (and, on PostgreSQL, a new database), seeded from the test fixtures. */
export async function buildTestApp(options: BuildAppOptions & { databaseUrl?: string } = {}) {
  const { databaseUrl, ...rest } = options;
  const dataDir = options.dataDir ?? tempDir();
  const env = await testEnv(options.env, databaseUrl ?? (await databaseFor(dataDir)));
  const app = await buildApp({ seedDir: FIXTURE_SEED, ...rest, dataDir, env });
  await app.ready();
  return app;
}

/** openDatabase on a data folder and, on PostgreSQL, the folder's database (databaseFor). */
export async function openTestDatabase(options: { dataDir: string; seedDir: string; now: number; env?: Env }) {
  return openDatabase({ ...options, env: await testEnv(options.env ?? {}, await databaseFor(options.dataDir)) });
}

/** A controllable clock. */
export function fakeClock(start = Date.UTC(2025, 5, 16, 2, 0, 0)) {
  let current = start;
  return {
    now: () => current,
    advance: (ms: number) => {
      current += ms;
    },
  };
}

/**
 * The organiser CLI in-process on a data folder (fixture seed; the clock `now`, by default a fixed time) and,
 * on PostgreSQL, on the folder's database (databaseFor): run(...argv) → exit code and output.
 */
export function siteCli(dataDir: string, now: () => number = () => Date.UTC(2025, 5, 16, 2, 0, 0)) {
  return async (...argv: string[]) => {
    const databaseUrl = await databaseFor(dataDir);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runSiteCli(argv, {
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
      env: postgresEnv({ DATA_DIR: dataDir, SEED_DIR: FIXTURE_SEED, DATABASE_URL: databaseUrl }),
      cwd: FIXTURES,
      now,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}

/** A multipart/form-data body of one file (in the form field `field`), as the upload calls take it. */
export function multipart(filename: string, content: Buffer, field = 'file') {
  const boundary = '----race-site-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * A passed slider check of the app's provider (the built-in one), got as a browser gets it: a challenge, then a
 * drag onto its target. What entrySubmit and the code sends redeem once.
 */
export async function passedSlider(app: FastifyInstance): Promise<SliderPass> {
  const challenge = await app.captcha.issue();
  const x = Number(challenge.targetX);
  const trail: [number, number][] = [0, 0.25, 0.5, 0.75, 1].map((share, k) => [k * 70, Math.round(x * share)]);
  const pass = await app.captcha.verify({ sessionId: String(challenge.sessionId), x, trail });
  if (!pass) throw new Error('the slider check was not passed');
  return pass;
}
