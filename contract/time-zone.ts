/**
 * The race's time zone: race information may name one (`timeZone`, an IANA name such as
 * 'Europe/London'); without it the race runs on China Standard Time. The one place that holds the default.
 * No imports: the reference server loads this file as it is (race-schema validates `timeZone` with it).
 */
export const DEFAULT_RACE_TIME_ZONE = 'Asia/Shanghai';

/** What is wrong with a time-zone name, or undefined when the runtime knows it as an IANA zone. */
export function timeZoneProblem(value: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return undefined;
  } catch {
    const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    return `must be an IANA time zone like "${DEFAULT_RACE_TIME_ZONE}"; got ${shown}`;
  }
}

/** The zone a race's times are in: its own valid `timeZone`, else the default. */
export function raceTimeZone(race: { timeZone?: string } | null | undefined): string {
  const zone = race?.timeZone?.trim();
  return zone && !timeZoneProblem(zone) ? zone : DEFAULT_RACE_TIME_ZONE;
}
