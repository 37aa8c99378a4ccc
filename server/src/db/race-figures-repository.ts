/**
 * The counts of a race's live figures (the console's dashboard, services/console/dashboard.ts) beside the
 * orders by status and their money (entry-admin-repository.ts orderTotals): places, entries by item, channel
 * and status, entries per hour, wait lists, refunds still owed, letters signed, pick-up booked and collected. Each is one grouped
 * query over an index of the race's rows (migration 24), none per entry, and none joins a race's orders to its
 * entries (the per-item orders and money of entry-admin-repository.ts poolFigures, which the CLI prints, do:
 * about a third of a second more at 100,000 entries), so the dashboard stays within its 300 ms at 100,000
 * entries (scripts/bench-console.ts).
 */
import { sql, type Db } from './engine.ts';

const num = (value: unknown) => Number(value ?? 0);

export interface PlaceRow {
  itemCode: string;
  pool: 'main' | 'charity';
  capacity: number;
  taken: number;
}

export interface EntryCountRow {
  itemCode: string;
  channel: string;
  status: number;
  count: number;
}

export interface HourCountRow {
  /** The hour's start (epoch ms, UTC hours: the service moves them into the race's time zone). */
  hour: number;
  count: number;
}

export function createRaceFiguresRepository(db: Db) {
  return {
    /** The places of each item and pool, as the sign-up keeps them. */
    async places(raceId: string): Promise<PlaceRow[]> {
      const rows = await db.all<{ item_code: string; pool: string; capacity: unknown; taken: unknown }>(
        sql`SELECT item_code, pool, capacity, taken FROM entry_places WHERE race_id = ${raceId}`,
      );
      return rows.map((r) => ({
        itemCode: r.item_code,
        pool: r.pool === 'charity' ? 'charity' : 'main',
        capacity: num(r.capacity),
        taken: num(r.taken),
      }));
    },

    async entryCounts(raceId: string): Promise<EntryCountRow[]> {
      const rows = await db.all<{ item_code: string; channel: string; status: unknown; n: unknown }>(sql`
        SELECT item_code, channel, status, count(*) AS n FROM entries WHERE race_id = ${raceId}
        GROUP BY item_code, channel, status`);
      return rows.map((r) => ({ itemCode: r.item_code, channel: r.channel, status: num(r.status), count: num(r.n) }));
    },

    /** Entries submitted per hour (every status: what came in). */
    async entriesPerHour(raceId: string): Promise<HourCountRow[]> {
      const rows = await db.all<{ hour: unknown; n: unknown }>(sql`
        SELECT (created_at / 3600000) AS hour, count(*) AS n FROM entries WHERE race_id = ${raceId}
        GROUP BY (created_at / 3600000) ORDER BY 1`);
      return rows.map((r) => ({ hour: Math.trunc(num(r.hour)) * 3_600_000, count: num(r.n) }));
    },

    /** Entries waiting on each item's wait list. */
    async waiting(raceId: string): Promise<Map<string, number>> {
      const rows = await db.all<{ item_code: string; n: unknown }>(sql`
        SELECT item_code, count(*) AS n FROM entries
        WHERE race_id = ${raceId} AND status = 2 AND wait_rank IS NOT NULL GROUP BY item_code`);
      return new Map(rows.map((r) => [r.item_code, num(r.n)]));
    },

    /** Live entries holding a place (registered) that have signed the letter (any version), by item. */
    async lettersSigned(raceId: string): Promise<Map<string, number>> {
      const rows = await db.all<{ item_code: string; n: unknown }>(sql`
        SELECT e.item_code, count(*) AS n FROM entries e
        WHERE e.race_id = ${raceId} AND e.status = 1
          AND EXISTS (SELECT 1 FROM letter_signatures s WHERE s.race_id = e.race_id AND s.entry_id = e.id)
        GROUP BY e.item_code`);
      return new Map(rows.map((r) => [r.item_code, num(r.n)]));
    },

    /** Pick-up bookings by status ('booked', 'collected'; cancelled ones are not counted). */
    async pickup(raceId: string): Promise<{ booked: number; collected: number }> {
      const rows = await db.all<{ status: string; n: unknown }>(sql`
        SELECT status, count(*) AS n FROM pickup_bookings
        WHERE race_id = ${raceId} AND status IN ('booked', 'collected') GROUP BY status`);
      const of = (status: string) => num(rows.find((r) => r.status === status)?.n);
      return { booked: of('booked') + of('collected'), collected: of('collected') };
    },

    /**
     * Refunds of the race's orders still owed: recorded, not yet confirmed by the provider, and retried until
     * they are (status 'pending', services/entry/refunds-owed.ts): how many and how much.
     */
    async refundsUnderway(raceId: string): Promise<{ count: number; amountFen: number }> {
      const row = await db.get<{ n: unknown; amount: unknown }>(sql`
        SELECT count(*) AS n, sum(r.amount_fen) AS amount FROM refunds r
        WHERE r.status = 'pending' AND EXISTS (SELECT 1 FROM orders o WHERE o.id = r.order_id AND o.race_id = ${raceId})`);
      return { count: num(row?.n), amountFen: num(row?.amount) };
    },
  };
}

export type RaceFiguresRepository = ReturnType<typeof createRaceFiguresRepository>;
