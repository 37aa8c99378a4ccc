import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_SEED, openTestDatabase, removeTempDirs, tempDir } from './helpers.ts';

afterAll(() => removeTempDirs());

const NOW = Date.UTC(2025, 5, 16, 2, 0, 0);
const limit = { max: 2, windowMs: 60_000 };

describe('the rate-limit windows in the database', () => {
  it('shares one window between two processes on the same database, and forgets hits that left it', async () => {
    const dataDir = tempDir();
    const first = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: NOW });
    const second = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: NOW });
    try {
      const a = first.repos.rateHits;
      const b = second.repos.rateHits;
      expect(await a.record('login|203.0.113.7', limit, NOW)).toBeNull();
      expect(await b.record('login|203.0.113.7', limit, NOW + 10_000)).toBeNull();
      // Full: the other "worker" is refused too, until the oldest hit leaves the window.
      expect(await a.record('login|203.0.113.7', limit, NOW + 20_000)).toEqual({ retryAfterMs: 40_000 });
      expect(await b.record('login|203.0.113.8', limit, NOW + 20_000)).toBeNull();
      expect(await b.record('login|203.0.113.7', limit, NOW + 60_000)).toBeNull();
      // A sweep forgets the hits up to then, of every key: the window is empty again.
      await a.sweep(NOW + 60_000);
      expect(await b.record('login|203.0.113.7', limit, NOW + 61_000)).toBeNull();
      expect(await a.record('login|203.0.113.7', limit, NOW + 62_000)).toBeNull();
      expect(await a.record('login|203.0.113.7', limit, NOW + 63_000)).toEqual({ retryAfterMs: 58_000 });
    } finally {
      await first.db.close();
      await second.db.close();
    }
  });
});
