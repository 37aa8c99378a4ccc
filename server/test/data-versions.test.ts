/**
 * Watching the races' data versions (services/race-center/data-versions.ts): another instance's write that
 * lands while this instance reads back its own write still drops the cache (CI once saw it folded in unseen on
 * PostgreSQL: the cached lookup kept the old name).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from '../src/db/engine.ts';
import { watchDataVersions } from '../src/services/race-center/data-versions.ts';
import { buildTestApp, removeTempDirs } from './helpers.ts';
import { PAST_RACE_ID, seedRaceCenterFixture } from './race-center-fixture.ts';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  removeTempDirs();
});

describe('watching the data versions', () => {
  it("drops the cache for another instance's write that the reading after an own write holds", async () => {
    app = await buildTestApp({ env: { RATE_LIMITS: 'off', CERT_SECRET: 'test-secret' } });
    await seedRaceCenterFixture(app);
    const { repos, db } = app;
    // The reading asked for after the own write is answered only once the other write has committed.
    let release: () => void = () => undefined;
    let holdNext = false;
    const raceCenter = {
      ...repos.raceCenter,
      dataVersions: async () => {
        if (holdNext) {
          holdNext = false;
          await new Promise<void>((resolve) => (release = resolve));
        }
        return repos.raceCenter.dataVersions();
      },
    };
    let drops = 0;
    // No poll within the test: only the own write's reading can see the other write.
    const stop = await watchDataVersions({ ...repos, raceCenter }, 3_600_000, () => (drops += 1));
    try {
      holdNext = true;
      const row = await repos.raceCenter.resultByBib(PAST_RACE_ID, 'A00001');
      await repos.raceCenter.upsertResult({ ...row!, name: '张伟' });
      expect(drops).toBe(1);
      // Another instance (or the CLI) writes: the race's data version goes up in the database.
      await db.run(sql`UPDATE race_data_versions SET version = version + 1 WHERE race_id = ${PAST_RACE_ID}`);
      release();
      await expect.poll(() => drops, { timeout: 30_000, interval: 5 }).toBe(2);
    } finally {
      stop();
    }
  });
});
