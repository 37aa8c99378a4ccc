import type { Database } from 'better-sqlite3';
import type { RaceInfo } from '#contract/site-config/race-types';

interface RaceRow {
  race_id: string;
  race_name: string;
  info_json: string;
}

export function createRacesRepository(db: Database) {
  const byId = db.prepare<[string], RaceRow>('SELECT race_id, race_name, info_json FROM races WHERE race_id = ?');
  const all = db.prepare<[], RaceRow>('SELECT race_id, race_name, info_json FROM races ORDER BY race_id');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM races');
  const upsert = db.prepare<[string, string, string, number, number]>(`
    INSERT INTO races (race_id, race_name, info_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (race_id) DO UPDATE SET race_name = excluded.race_name, info_json = excluded.info_json,
      updated_at = excluded.updated_at
  `);

  return {
    findById(raceId: string): RaceInfo | undefined {
      const row = byId.get(raceId);
      return row ? (JSON.parse(row.info_json) as RaceInfo) : undefined;
    },

    list(): RaceInfo[] {
      return all.all().map((row) => JSON.parse(row.info_json) as RaceInfo);
    },

    count(): number {
      return count.get()?.n ?? 0;
    },

    /** Inserts the race or replaces its information. */
    save(race: RaceInfo, now: number): 'inserted' | 'updated' {
      const existed = byId.get(race.raceId) !== undefined;
      upsert.run(race.raceId, race.raceName, JSON.stringify(race), now, now);
      return existed ? 'updated' : 'inserted';
    },
  };
}

export type RacesRepository = ReturnType<typeof createRacesRepository>;
