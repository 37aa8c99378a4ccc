/**
 * The counts of a race's live figures (the console's dashboard, services/console/dashboard.ts) beyond what
 * entry-admin-repository.ts poolFigures gives: entries by item, channel and status with the hour they came
 * in, wait lists, letters signed, pick-up booked and collected. Each is one grouped query over the race's
 * rows, so the dashboard stays fast at 100,000 entries.
 */
import { sql, type Db } from './engine.ts';

const num = (value: unknown) => Number(value ?? 0);

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

    /** Live entries holding a place (registered) that have signed the letter, by item. */
    async lettersSigned(raceId: string): Promise<Map<string, number>> {
      const rows = await db.all<{ item_code: string; n: unknown }>(sql`
        SELECT e.item_code, count(DISTINCT s.entry_id) AS n FROM letter_signatures s JOIN entries e ON e.id = s.entry_id
        WHERE s.race_id = ${raceId} AND e.status = 1 GROUP BY e.item_code`);
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
  };
}

export type RaceFiguresRepository = ReturnType<typeof createRaceFiguresRepository>;
