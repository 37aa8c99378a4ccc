import { DATE_TIME_FORMAT, formatRaceTime } from '#contract/race-clock';
import { raceTimeZone } from '#contract/time-zone';
import { useSiteStore } from '@/stores/site-store';

/** Formats instants and race wall-clock texts in the race's time zone ('YYYY-MM-DD HH:mm:ss'). */
export function useRaceTime(): (time: number | string | undefined, format?: string) => string {
  const race = useSiteStore((s) => s.race);
  const zone = raceTimeZone(race);
  return (time, format = DATE_TIME_FORMAT) => formatRaceTime(time, format, zone);
}
