/**
 * The race-day lookup limits (plugins/rate-limit.ts SyncedWindowLimiter) are shared by every instance on one
 * database: each decides in memory, and the per-second counts synced every second (rate_counts) carry each
 * instance's hits to the others. Two apps on one data folder are two instances on one database (SQLite: one
 * file; PostgreSQL: one database, databaseFor).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { sql } from '../src/db/engine.ts';
import { buildTestApp, fakeClock, ON_POSTGRES, removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const lookup = (app: FastifyInstance, remoteAddress = '203.0.113.7') =>
  app.inject({
    method: 'POST',
    url: API_PATHS.searchScore,
    payload: { raceId: 'x', bib: '1' },
    remoteAddress,
  });

async function statuses(app: FastifyInstance, n: number, remoteAddress?: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await lookup(app, remoteAddress)).statusCode);
  return out;
}

/** Two instances on one database (one data folder), on one fake clock. */
async function twoInstances() {
  const dataDir = tempDir();
  const clock = fakeClock();
  const a = await buildTestApp({ dataDir, now: clock.now });
  const b = await buildTestApp({ dataDir, now: clock.now });
  return { a, b, clock };
}

/** The visitor's 40 lookups on A, synced. */
async function fortyOnA(a: FastifyInstance) {
  expect(await statuses(a, 40)).toEqual(Array(40).fill(200));
  await a.rateLimitSync();
}

/** B, having heard of A's 40 and its own first: 19 more pass, the 60th of the minute is refused. */
async function nineteenMoreOnB(b: FastifyInstance) {
  const onB = await statuses(b, 20);
  expect(onB.slice(0, 19)).toEqual(Array(19).fill(200));
  expect(onB[19]).toBe(429);
}

describe('race-day lookup limits shared by instances', () => {
  it('counts one visitor against one window on every instance, and forgets the window after it', async () => {
    const { a, b, clock } = await twoInstances();
    try {
      // B meets the visitor (a visitor new to an instance counts from its own hits until its next sync, at
      // most a second later) and hears of A's 40 at its sync: 41 of the minute's 60 are taken.
      await fortyOnA(a);
      expect((await lookup(b)).statusCode).toBe(200);
      await b.rateLimitSync();
      await nineteenMoreOnB(b);
      const refused = await lookup(b);
      expect(refused.json()).toMatchObject({ code: 429, msgCode: 'tooManyRequestsWait' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // And A hears of B's 20 at its next sync: 40 + 20 = 60, so A refuses too.
      await b.rateLimitSync();
      await a.rateLimitSync();
      expect((await lookup(a)).statusCode).toBe(429);
      // Another visitor is not affected.
      expect((await lookup(b, '198.51.100.9')).statusCode).toBe(200);
      // A minute later the window is empty everywhere.
      clock.advance(61_000);
      await a.rateLimitSync();
      await b.rateLimitSync();
      expect((await lookup(a)).statusCode).toBe(200);
      expect((await lookup(b)).statusCode).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });

  // PostgreSQL, where an instance's queries run on several connections at once: a second sync (the timer's and
  // one asked for) must not read the sums while the first one's hits are still being added, or it would count
  // them as this instance's but not find them in the sums, and leave the other instances' hits short.
  it.runIf(ON_POSTGRES)('starts a sync only once the one under way is done', async () => {
    const { a, b } = await twoInstances();
    try {
      await fortyOnA(a);
      let secondDone = false;
      const [first, second] = await a.db.transaction(async (tx) => {
        // Adding to the counts waits for this lock; reading them does not. The visitor's first lookup on B comes
        // after it, so that whichever sync adds it (this one, or B's timer's) waits.
        await tx.run(sql`LOCK TABLE rate_counts IN EXCLUSIVE MODE`);
        expect((await lookup(b)).statusCode).toBe(200);
        const first = b.rateLimitSync();
        const addWaits = async () => {
          const waiting = await b.db.get<{ n: number }>(sql`
            SELECT COUNT(*) AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE '%INSERT INTO rate_counts%'`);
          return Number(waiting?.n) >= 1;
        };
        while (!(await addWaits())) await new Promise((resolve) => setTimeout(resolve, 20));
        const second = b.rateLimitSync().then(() => {
          secondDone = true;
        });
        // Time for the second to read the sums and be done, were it not waiting for the first.
        for (let i = 0; i < 5; i++) await b.db.all(sql`SELECT bucket_key, n FROM rate_counts`);
        expect(secondDone).toBe(false);
        return [first, second];
      });
      await Promise.all([first, second]);
      await nineteenMoreOnB(b);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('adds the counts of instances syncing the same second without losing any', async () => {
    const dataDir = tempDir();
    const clock = fakeClock();
    const apps = [
      await buildTestApp({ dataDir, now: clock.now }),
      await buildTestApp({ dataDir, now: clock.now }),
      await buildTestApp({ dataDir, now: clock.now }),
    ];
    try {
      for (const app of apps) expect(await statuses(app, 15)).toEqual(Array(15).fill(200));
      await Promise.all(apps.map((app) => app.rateLimitSync()));
      const rows = await apps[0]!.db.all<{ n: number }>(sql`SELECT n FROM rate_counts`);
      expect(rows.reduce((sum, row) => sum + Number(row.n), 0)).toBe(45);
      await Promise.all(apps.map((app) => app.rateLimitSync()));
      // 45 of 60 taken: 15 more on any one instance, then 429.
      const more = await statuses(apps[1]!, 16);
      expect(more.filter((s) => s === 200)).toHaveLength(15);
      expect(more[15]).toBe(429);
    } finally {
      for (const app of apps) await app.close();
    }
  });

  it('sweeps counts older than an hour', async () => {
    const dataDir = tempDir();
    const clock = fakeClock();
    const app = await buildTestApp({ dataDir, now: clock.now });
    try {
      await statuses(app, 3);
      await app.rateLimitSync();
      clock.advance(3_700_000);
      await statuses(app, 1);
      for (let i = 0; i < 60; i++) await app.rateLimitSync();
      const seconds = await app.db.all<{ second: number }>(sql`SELECT second FROM rate_counts`);
      expect(seconds.map((r) => Number(r.second))).toEqual([Math.floor(clock.now() / 1000)]);
    } finally {
      await app.close();
    }
  });
});
