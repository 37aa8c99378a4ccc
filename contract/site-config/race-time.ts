/**
 * The one rule for race times in the race information and the site configuration: 'YYYY-MM-DD HH:mm:ss',
 * on the race's own clock (its timeZone, China Standard Time by default), a real date. A value that breaks
 * it (e.g. "soon") would make the countdown or the sign-up window silently disappear, so `site add-race`
 * and `site validate` refuse it. The clock that reads these times is src/lib/race-clock.ts.
 * No imports: the reference server loads this file as it is.
 */
export const RACE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

const PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** What is wrong with a race time, or undefined when it is a real 'YYYY-MM-DD HH:mm:ss' time. */
export function raceTimeProblem(value: string): string | undefined {
  const match = PATTERN.exec(value);
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (!match) return `must be a time like "2027-04-18 07:30:00" (${RACE_TIME_FORMAT}, China time); got ${shown}`;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  const realDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!realDay || hour > 23 || minute > 59 || second > 59) return `is not a real date and time: ${shown}`;
  return undefined;
}
