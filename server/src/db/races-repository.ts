import type { RaceInfo } from '#contract/site-config/race-types';
import { sql, type Db } from './engine.ts';

interface RaceRow {
  race_id: string;
  race_name: string;
  info_json: string;
}

export function createRacesRepository(db: Db) {
  const byId = (raceId: string) =>
    db.get<RaceRow>(sql`SELECT race_id, race_name, info_json FROM races WHERE race_id = ${raceId}`);

  return {
    async findById(raceId: string): Promise<RaceInfo | undefined> {
      const row = await byId(raceId);
      return row ? (JSON.parse(row.info_json) as RaceInfo) : undefined;
    },

    async list(): Promise<RaceInfo[]> {
      const rows = await db.all<RaceRow>(sql`SELECT race_id, race_name, info_json FROM races ORDER BY race_id`);
      return rows.map((row) => JSON.parse(row.info_json) as RaceInfo);
    },

    async count(): Promise<number> {
      return (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM races`))?.n ?? 0;
    },

    /** The race's version (raised by every save), or undefined when there is no such race. */
    async version(raceId: string): Promise<number | undefined> {
      const row = await db.get<{ version: number }>(sql`SELECT version FROM races WHERE race_id = ${raceId}`);
      return row ? Number(row.version) : undefined;
    },

    /** Inserts a new race; false (nothing changed) when its id is taken. */
    async insertNew(race: RaceInfo, now: number): Promise<boolean> {
      const inserted = await db.run(sql`
        INSERT INTO races (race_id, race_name, info_json, created_at, updated_at)
        VALUES (${race.raceId}, ${race.raceName}, ${JSON.stringify(race)}, ${now}, ${now})
        ON CONFLICT (race_id) DO NOTHING`);
      return inserted > 0;
    },

    /** Inserts the race or replaces its information. */
    async save(race: RaceInfo, now: number): Promise<'inserted' | 'updated'> {
      const existed = (await byId(race.raceId)) !== undefined;
      await db.run(sql`
        INSERT INTO races (race_id, race_name, info_json, created_at, updated_at)
        VALUES (${race.raceId}, ${race.raceName}, ${JSON.stringify(race)}, ${now}, ${now})
        ON CONFLICT (race_id) DO UPDATE SET race_name = excluded.race_name, info_json = excluded.info_json,
          updated_at = excluded.updated_at, version = races.version + 1
      `);
      return existed ? 'updated' : 'inserted';
    },
  };
}

export type RacesRepository = ReturnType<typeof createRacesRepository>;
