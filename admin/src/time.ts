/**
 * Instants as the console shows them: in a race's time zone (ConsoleRace.timeZone), or the organiser's default
 * (contract/time-zone.ts) for what belongs to no race; and a chosen day's start in such a zone, for filters.
 */
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import type { ConsoleRace } from '#contract/staff';
import { DEFAULT_RACE_TIME_ZONE } from '#contract/time-zone';

dayjs.extend(utc);
dayjs.extend(timezone);

/** '2027-03-01 08:05:09' in `zone`. */
export function formatInstant(ms: number, zone: string = DEFAULT_RACE_TIME_ZONE): string {
  return dayjs(ms).tz(zone).format('YYYY-MM-DD HH:mm:ss');
}

/** The zone of a race in the list, else the organiser's. */
export function zoneOfRace(raceId: string | null | undefined, races: readonly ConsoleRace[]): string {
  return races.find((race) => race.raceId === raceId)?.timeZone ?? DEFAULT_RACE_TIME_ZONE;
}

/** The instant (epoch ms) a calendar day starts in `zone`. */
export function startOfDayIn(day: Dayjs, zone: string): number {
  return dayjs.tz(day.format('YYYY-MM-DD'), zone).valueOf();
}
