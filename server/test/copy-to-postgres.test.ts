/**
 * `site copy-to-postgres`: an SQLite data folder copied into an empty PostgreSQL database loses nothing: every
 * row of every table is there with its ids, the keyed hashes still match (the secrets come along; the
 * ID-number secret through ID_NUMBER_SECRET, set to the folder's, never as a row of the target), tokens
 * still log in, the files are served from the database, and new rows get new ids. Needs a PostgreSQL server:
 * runs in the server-pg project (the SQLite project has no target to copy into).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { buildApp } from '../src/app.ts';
import { runSiteCli } from '../src/cli/site.ts';
import { COPIED_TABLES } from '../src/db/copy-database.ts';
import { openDatabase } from '../src/db/database.ts';
import { sql, type Db } from '../src/db/engine.ts';
import { uploadKey } from '../src/lib/file-store.ts';
import { FIXTURE_SEED, ON_POSTGRES, removeTempDirs, tempDir } from './helpers.ts';
import { testDatabaseUrl } from './pg-test-database.ts';
import { PAST_RACE_ID, seedRaceCenterFixture, ZHANG } from './race-center-fixture.ts';

afterAll(removeTempDirs);

const NOW = Date.UTC(2025, 5, 16, 2, 0, 0);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** Every row of every copied table, in id (or key) order, with bytes as hex: what must survive the copy. */
async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of COPIED_TABLES) {
    const rows = await db.all<Record<string, unknown>>(sql`SELECT * FROM ${sql.table(table)}`);
    out[table] = rows
      .map((row) =>
        Object.fromEntries(
          Object.entries(row)
            .map(([key, value]) => [key, Buffer.isBuffer(value) ? value.toString('hex') : value] as const)
            .sort(([a], [b]) => a.localeCompare(b)),
        ),
      )
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}

async function cli(dataDir: string, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSiteCli(argv, {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    env: { DATA_DIR: dataDir, SEED_DIR: FIXTURE_SEED },
    cwd: dataDir,
    now: () => NOW,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('site copy-to-postgres', () => {
  it.runIf(ON_POSTGRES)('copies an SQLite data folder into PostgreSQL and loses nothing', async () => {
    // An SQLite data folder with something in every kind of table.
    const dataDir = tempDir();
    const sqliteEnv = { DATABASE_URL: undefined, RATE_LIMITS: 'off', JOBS: 'off' };
    const source = await buildApp({ dataDir, seedDir: FIXTURE_SEED, env: sqliteEnv, now: () => NOW });
    await source.ready();
    await seedRaceCenterFixture(source);
    const userId = await source.repos.users.create({ phone: '13900000077', email: 'copy@example.com' }, NOW);
    const { token } = await source.repos.tokens.issue(userId, 3_600_000, NOW);
    await source.repos.codes.issue({
      requestToken: 'request-token',
      purpose: 'login',
      channel: 'sms',
      destination: '13900000077',
      code: '123456',
      ip: '203.0.113.9',
      now: NOW,
      ttlMs: 300_000,
    });
    await source.repos.outbox.add({
      channel: 'sms',
      destination: '13900000077',
      subject: 's',
      body: 'b',
      createdAt: NOW,
    });
    await source.repos.captcha.create('session-1', 120, NOW, 3_600_000);
    await source.files.put(uploadKey('uploads/copied.png'), PNG);
    await source.repos.uploads.reserve(
      {
        userId,
        storedName: 'copied.png',
        originalName: 'mine.png',
        kind: 'image',
        bytes: PNG.length,
        sha256: 'x'.repeat(64),
        ip: '203.0.113.9',
        createdAt: NOW,
      },
      { files: 50, bytes: 1e9, windowMs: 86_400_000 },
    );
    await source.repos.jobs.enqueue({ kind: 'test', payload: { a: 1 }, runAt: NOW + 1000, now: NOW });
    const secrets = source.secrets;
    await source.close();

    const url = (await testDatabaseUrl())!;
    const copied = await cli(dataDir, 'copy-to-postgres', url);
    expect(copied.err).toBe('');
    expect(copied.code).toBe(0);
    expect(copied.out).toMatch(/copied races 2, .*users 2/); // the fixture race and the past race; the demo account and ours
    expect(copied.out).toMatch(/copied \d+ files/);
    // The ID-number secret stays out of the database: the organiser is told where it is, never shown it.
    expect(copied.out).toContain(`ID_NUMBER_SECRET set to the contents of the file ${dataDir}/id-number-secret`);
    expect(copied.out).not.toContain(secrets.idNumber);

    // Row for row, the same.
    const before = await openDatabase({ dataDir, seedDir: FIXTURE_SEED, now: NOW, env: sqliteEnv, seed: false });
    const after = await openDatabase({
      dataDir: tempDir(),
      seedDir: FIXTURE_SEED,
      now: NOW,
      env: { DATABASE_URL: url, ID_NUMBER_SECRET: secrets.idNumber },
      seed: false,
    });
    try {
      const [a, b] = [await snapshot(before.db), await snapshot(after.db)];
      for (const table of COPIED_TABLES) {
        // The target holds the folder's keys as rows (checked below) and the folder's files (published
        // configs, their brotli copies, the upload) in stored_files.
        if (table === 'server_secrets' || table === 'stored_files') continue;
        expect(b[table], table).toEqual(a[table]);
      }
      const filesCopied = Number(/copied (\d+) files/.exec(copied.out)?.[1]);
      expect(b.stored_files).toHaveLength(a.stored_files!.length + filesCopied);
      expect(filesCopied).toBe(5);
      expect(a.results!.length).toBeGreaterThan(50);
      expect(after.secrets).toEqual(secrets);
      // The other keys are rows of the target; the ID-number secret is not.
      expect(b.server_secrets!.map((row) => (row as { name: string }).name).sort()).toEqual([
        'cert-secret',
        'code-secret',
        'payment-secret',
      ]);
    } finally {
      await before.db.close();
      await after.db.close();
    }

    // An instance on PostgreSQL, with an empty data folder, serves it all.
    const target = await buildApp({
      dataDir: tempDir(),
      seedDir: tempDir('race-site-no-seed-'),
      env: { DATABASE_URL: url, ID_NUMBER_SECRET: secrets.idNumber, RATE_LIMITS: 'off', JOBS: 'off' },
      now: () => NOW,
    });
    try {
      await target.ready();
      const score = await target.inject({
        method: 'POST',
        url: API_PATHS.searchScore,
        payload: { raceId: PAST_RACE_ID, name: ZHANG.name, certificateNumber: ZHANG.certNo },
      });
      expect(score.json().code).toBe(0);
      const me = await target.inject({ method: 'POST', url: API_PATHS.commonInfo, headers: { token }, payload: {} });
      expect(me.json()).toMatchObject({ code: 0, data: { userId } });
      const file = await target.inject({
        method: 'GET',
        url: `${API_PATHS.filesPrefix}uploads/copied.png`,
        headers: { token },
      });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(PNG)).toBe(true);
      const lookup = await target.inject({
        method: 'GET',
        url: `${API_PATHS.siteConfigLookup}?domainName=localhost`,
      });
      const document = await target.inject({ method: 'GET', url: lookup.json().data.uri });
      expect(document.statusCode).toBe(200);
      // New rows get ids after the copied ones.
      const next = await target.repos.users.create({ phone: '13900000078' }, NOW);
      expect(next).toBeGreaterThan(userId);
    } finally {
      await target.close();
    }

    // A second copy into the same database is refused, and changes nothing.
    const again = await cli(dataDir, 'copy-to-postgres', url);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/not empty/);
  });

  it('refuses a URL that is not PostgreSQL, and a folder without a database', async () => {
    const bad = await cli(tempDir(), 'copy-to-postgres', 'mysql://localhost/db');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('is not a postgres:// or postgresql:// URL');
    const empty = await cli(tempDir(), 'copy-to-postgres', 'postgres://localhost/db');
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/No database in/);
  });
});
