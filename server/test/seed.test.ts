import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { advisoryLockNumber, sql } from '../src/db/engine.ts';
import { spawnSync } from 'node:child_process';
import { DEMO_ACCOUNT } from '../src/plugins/accounts.ts';
import { buildTestApp, FIXTURE_SEED, ON_POSTGRES, removeTempDirs, tempDir, testEnv } from './helpers.ts';
import { testDatabaseUrl } from './pg-test-database.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('the demo seed', () => {
  it('passes the seed check: schema, images, routes, partners, translations', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/seed/check-seed.ts'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.stderr + result.stdout).toContain('seed check passed');
    expect(result.status).toBe(0);
  });
});

describe('the demo runner account (its password is in the README)', () => {
  /** Whether a server started on a fresh database with `seedDir` has the demo account. */
  async function hasDemoAccount(seedDir: string): Promise<boolean> {
    const app = await buildTestApp({ seedDir });
    try {
      return (
        (await app.repos.users.findByPhone(DEMO_ACCOUNT.phone)) !== undefined ||
        (await app.repos.users.findByEmail(DEMO_ACCOUNT.email)) !== undefined
      );
    } finally {
      await app.close();
    }
  }

  it('is created with the demo seed only: not with the organiser’s own seed, nor with none', async () => {
    try {
      expect(await hasDemoAccount(FIXTURE_SEED)).toBe(true);

      // The organiser's own event: the same kind of seed without "demoAccount".
      const own = tempDir();
      cpSync(FIXTURE_SEED, own, { recursive: true });
      const raceFile = path.join(own, 'race.json');
      const doc = JSON.parse(readFileSync(raceFile, 'utf8')) as { demoAccount?: boolean };
      delete doc.demoAccount;
      writeFileSync(raceFile, JSON.stringify(doc));
      expect(await hasDemoAccount(own)).toBe(false);

      // No seed at all (an empty SEED_DIR).
      expect(await hasDemoAccount(tempDir())).toBe(false);
    } finally {
      removeTempDirs();
    }
  }, 60_000);
});

describe('the first start on an empty PostgreSQL database', () => {
  it.skipIf(!ON_POSTGRES)(
    'seeds outside the plugin timeout: a seed slower than Fastify’s 10 s per plugin still starts the server',
    async () => {
      const url = (await testDatabaseUrl())!;
      // Another instance holds the seed lock: this start waits for it inside its seed, as long as that takes.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      await holder.query(`SELECT pg_advisory_lock(${advisoryLockNumber('seed')})`);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let started: Promise<Awaited<ReturnType<typeof buildApp>>> | undefined;
      try {
        started = buildApp({ dataDir: tempDir(), seedDir: FIXTURE_SEED, env: await testEnv({}, url) }).then(
          async (app) => {
            await app.ready();
            return app;
          },
        );
        started.catch(() => undefined);
        // Until the start waits for the seed lock (a condition, not a time)…
        for (;;) {
          const waiting = await holder.query(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          );
          if (waiting.rows[0].n > 0) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        // …then Fastify's plugin clock passes its 10 s: a plugin seeding now would fail the start.
        vi.advanceTimersByTime(11_000);
      } finally {
        vi.useRealTimers();
        await holder.query(`SELECT pg_advisory_unlock(${advisoryLockNumber('seed')})`);
        await holder.end();
      }
      const app = await started!;
      try {
        const races = await app.db.all<{ race_id: string }>(sql`SELECT race_id FROM races`);
        expect(races.map((r) => r.race_id)).toContain('fixture-race-2025');
      } finally {
        await app.close();
      }
    },
    60_000,
  );
});
