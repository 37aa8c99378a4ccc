import { sql, type Db } from './engine.ts';

/** Hits of one bucket key in one second, as one instance adds them. */
export interface RateCount {
  key: string;
  /** Epoch second. */
  second: number;
  n: number;
}

/** Keys per statement (bound parameters stay far below SQLite's and PostgreSQL's limits). */
const BATCH = 300;

/**
 * Per-second hit counts of the race-day lookup limits (`rate_counts`), added to by every instance on the same
 * database and read back as sums over a window (plugins/rate-limit.ts SyncedWindowLimiter). Counts are added
 * with one upsert per batch, so instances adding to the same key and second never lose a hit.
 */
export function createRateCountsRepository(db: Db) {
  return {
    /** Adds the counts (several instances may add to the same key and second). */
    add: async (counts: readonly RateCount[]): Promise<void> => {
      for (let i = 0; i < counts.length; i += BATCH) {
        const rows = counts.slice(i, i + BATCH).map((c) => sql`(${c.key}, ${c.second}, ${c.n})`);
        await db.run(sql`
          INSERT INTO rate_counts (bucket_key, second, n) VALUES ${sql.join(rows)}
          ON CONFLICT (bucket_key, second) DO UPDATE SET n = rate_counts.n + excluded.n`);
      }
    },

    /** Each key's hits (of every instance) in the seconds after `fromSecond`; keys with none are absent. */
    sums: async (keys: readonly string[], fromSecond: number): Promise<Map<string, number>> => {
      const out = new Map<string, number>();
      for (let i = 0; i < keys.length; i += BATCH) {
        const rows = await db.all<{ bucket_key: string; n: number }>(sql`
          SELECT bucket_key, SUM(n) AS n FROM rate_counts
          WHERE bucket_key IN (${sql.join(keys.slice(i, i + BATCH))}) AND second > ${fromSecond}
          GROUP BY bucket_key`);
        for (const row of rows) out.set(row.bucket_key, Number(row.n));
      }
      return out;
    },

    /** Forgets the counts of every second at or before `second`. */
    sweep: async (second: number): Promise<void> => {
      await db.run(sql`DELETE FROM rate_counts WHERE second <= ${second}`);
    },
  };
}

export type RateCountsRepository = ReturnType<typeof createRateCountsRepository>;
