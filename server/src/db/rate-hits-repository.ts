import { sql, type Db } from './engine.ts';

export interface HitWindow {
  /** Hits allowed in one window. */
  max: number;
  windowMs: number;
}

/**
 * The per-IP rate-limit windows of the `rate_hits` table, shared by every process and instance on the same
 * database (plugins/rate-limit.ts counts in it). `record` checks a key's window and records the hit in one
 * transaction holding the key's lock, so parallel requests (or instances) cannot together go past the limit.
 */
export function createRateHitsRepository(db: Db) {
  return {
    /**
     * Records a hit of `key` at `at` when its window (the last `windowMs`) has fewer than `max` hits; otherwise
     * records nothing and tells how long until the oldest hit of the window leaves it.
     */
    record: (key: string, limit: HitWindow, at: number): Promise<{ retryAfterMs: number } | null> =>
      db.transaction(async (tx) => {
        await tx.lock(`rate:${key}`);
        const from = at - limit.windowMs;
        await tx.run(sql`DELETE FROM rate_hits WHERE bucket_key = ${key} AND at <= ${from}`);
        const window = await tx.get<{ n: number; first: number | null }>(
          sql`SELECT COUNT(*) AS n, MIN(at) AS first FROM rate_hits WHERE bucket_key = ${key} AND at > ${from}`,
        );
        const { n = 0, first = null } = window ?? {};
        if (n >= limit.max) return { retryAfterMs: (first ?? at) + limit.windowMs - at };
        await tx.run(sql`INSERT INTO rate_hits (bucket_key, at) VALUES (${key}, ${at})`);
        return null;
      }),

    /** Forgets every hit at or before `before` (of every key). */
    sweep: async (before: number): Promise<void> => {
      await db.run(sql`DELETE FROM rate_hits WHERE at <= ${before}`);
    },
  };
}

export type RateHitsRepository = ReturnType<typeof createRateHitsRepository>;
