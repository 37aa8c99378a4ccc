/** The races a staff member may work on (all of the organiser's, or their list), for the console's race picker. */
import type { ConsoleRace } from '#contract/staff';
import { raceTimeZone } from '#contract/time-zone';
import type { Repositories } from '../../db/repositories.ts';

export type { ConsoleRace };

export async function consoleRaces(repos: Repositories, allowed: string[] | null): Promise<ConsoleRace[]> {
  const races = await repos.races.list();
  return races
    .filter((race) => allowed === null || allowed.includes(race.raceId))
    .map((race) => ({
      raceId: race.raceId,
      raceName: { zh: race.raceName, en: race.raceNameEn || race.raceName },
      startTime: race.startTime ?? null,
      timeZone: raceTimeZone(race),
    }));
}
