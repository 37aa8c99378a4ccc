import type { Database } from 'better-sqlite3';

export interface HitWindow {
  /** Hits allowed in one window. */
  max: number;
  windowMs: number;
}

/**
 * The per-IP rate-limit windows of the `rate_hits` table, shared by every worker process on the same
 * database (plugins/rate-limit.ts counts in it). `record` checks a key's window and records the hit in one
 * transaction, so parallel requests (or workers) cannot together go past the limit.
 */
export function createRateHitsRepository(db: Database) {
  const window = db.prepare<[string, number], { n: number; first: number | null }>(
    'SELECT COUNT(*) AS n, MIN(at) AS first FROM rate_hits WHERE bucket_key = ? AND at > ?',
  );
  const insert = db.prepare<[string, number]>('INSERT INTO rate_hits (bucket_key, at) VALUES (?, ?)');
  const sweepKey = db.prepare<[string, number]>('DELETE FROM rate_hits WHERE bucket_key = ? AND at <= ?');
  const sweepAll = db.prepare<[number]>('DELETE FROM rate_hits WHERE at <= ?');

  const recordTx = db.transaction((key: string, limit: HitWindow, at: number): { retryAfterMs: number } | null => {
    const from = at - limit.windowMs;
    sweepKey.run(key, from);
    const { n = 0, first = null } = window.get(key, from) ?? {};
    if (n >= limit.max) return { retryAfterMs: (first ?? at) + limit.windowMs - at };
    insert.run(key, at);
    return null;
  });

  return {
    /**
     * Records a hit of `key` at `at` when its window (the last `windowMs`) has fewer than `max` hits; otherwise
     * records nothing and tells how long until the oldest hit of the window leaves it.
     */
    record: (key: string, limit: HitWindow, at: number): { retryAfterMs: number } | null =>
      recordTx.immediate(key, limit, at),

    /** Forgets every hit at or before `before` (of every key). */
    sweep: (before: number): void => {
      sweepAll.run(before);
    },
  };
}

export type RateHitsRepository = ReturnType<typeof createRateHitsRepository>;
