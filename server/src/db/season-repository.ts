/**
 * The entry season (issue 32 §1, migration 28): the parts of a race's season the organiser closed
 * (entry_closures: item '' is every item, channel '' every channel) and the codes' revocation and use (which
 * entries used each code). Opening and closing the race as a whole is race info signUpOpenStatus (races).
 */
import type { EntryClosure } from '#contract/season';
import { sql, type Db } from './engine.ts';

export function createSeasonRepository(db: Db) {
  return {
    /** The race's closed parts, items then channels. */
    async closures(raceId: string): Promise<EntryClosure[]> {
      const rows = await db.all<{ item_code: string; channel: string }>(sql`
        SELECT item_code, channel FROM entry_closures WHERE race_id = ${raceId} ORDER BY item_code, channel`);
      return rows.map((row) => ({ itemCode: row.item_code, channel: row.channel as EntryClosure['channel'] }));
    },

    /** Closes a part; false when it was closed already. */
    async close(raceId: string, closure: EntryClosure, now: number): Promise<boolean> {
      const changed = await db.run(sql`
        INSERT INTO entry_closures (race_id, item_code, channel, closed_at)
        VALUES (${raceId}, ${closure.itemCode}, ${closure.channel}, ${now})
        ON CONFLICT (race_id, item_code, channel) DO NOTHING`);
      return changed > 0;
    },

    /** Opens a closed part again; false when it was not closed. */
    async reopen(raceId: string, closure: EntryClosure): Promise<boolean> {
      const changed = await db.run(sql`
        DELETE FROM entry_closures
        WHERE race_id = ${raceId} AND item_code = ${closure.itemCode} AND channel = ${closure.channel}`);
      return changed > 0;
    },

    /** Revokes the race's code; false when there is no such code or it was revoked already. */
    async revokeCode(raceId: string, code: string, now: number): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE invitation_codes SET revoked_at = ${now}
        WHERE race_id = ${raceId} AND code = ${code} AND revoked_at IS NULL`);
      return changed > 0;
    },

    /** The entries that used the race's codes, by code, in entry order. */
    async codeEntries(raceId: string): Promise<Map<string, string[]>> {
      const rows = await db.all<{ code: string; entry_no: string }>(sql`
        SELECT c.code, e.entry_no FROM entries e JOIN invitation_codes c ON c.id = e.code_id
        WHERE c.race_id = ${raceId} ORDER BY e.id`);
      const byCode = new Map<string, string[]>();
      for (const row of rows) {
        const list = byCode.get(row.code);
        if (list) list.push(row.entry_no);
        else byCode.set(row.code, [row.entry_no]);
      }
      return byCode;
    },
  };
}

export type SeasonRepository = ReturnType<typeof createSeasonRepository>;
