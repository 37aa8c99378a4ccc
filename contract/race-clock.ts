/**
 * The one clock of the site. Race times in the configuration and the race information are wall-clock
 * texts ('YYYY-MM-DD HH:mm:ss') in the race's time zone (src/lib/time-zone.ts); instants (epoch ms) are
 * shown in that zone too. Neither depends on the visitor's time zone, so a runner in London and one in
 * Qingchuan read the same start time and the same date on a notice.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { DEFAULT_RACE_TIME_ZONE } from '#contract/time-zone';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Default date-time format (spec §9). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** Document dates (spec §2 "Document pages", §9). */
export const DOCUMENT_DATE_FORMAT = 'YYYY.MM.DD';
/** Race dates on the home page: start, sign-up window. */
export const SHORT_DATE_TIME_FORMAT = 'YYYY.MM.DD HH:mm';

export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** A wall-clock text: the date, optionally with 'HH:mm' or 'HH:mm:ss' after a space or a 'T'. */
const WALL_CLOCK = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Epoch milliseconds of a race wall-clock time read in the race's zone, or null when the value is
 * missing or not a real date ('2027-02-30', '25:00').
 */
export function parseRaceTime(value: string | null | undefined, zone = DEFAULT_RACE_TIME_ZONE): number | null {
  const match = typeof value === 'string' ? WALL_CLOCK.exec(value.trim()) : null;
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  if (hour > 23 || minute > 59 || second > 59) return null;
  const check = new Date(Date.UTC(year, month - 1, day));
  // 2027-02-30 rolls over to March: not a real date.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  const text = `${year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
  return dayjs.tz(text, zone).valueOf();
}

/**
 * Formats an instant (epoch ms) or a race wall-clock text in the race's zone; '' for a missing or invalid
 * time. Other texts that carry their own offset ('2026-11-20T14:30:00Z') are read as the instant they name.
 */
export function formatRaceTime(
  time: number | string | null | undefined,
  format = DATE_TIME_FORMAT,
  zone = DEFAULT_RACE_TIME_ZONE,
): string {
  if (time === undefined || time === null || time === '') return '';
  const ms = typeof time === 'string' ? (parseRaceTime(time, zone) ?? dayjs(time).valueOf()) : time;
  if (!Number.isFinite(ms)) return '';
  return dayjs(ms).tz(zone).format(format);
}

/** 'YYYY.MM.DD' in the race's zone (document pages, news and notices). */
export const formatDocumentDate = (time: number | null | undefined, zone = DEFAULT_RACE_TIME_ZONE) =>
  formatRaceTime(time, DOCUMENT_DATE_FORMAT, zone);

/** Midnight (in the race's zone) after the day that contains `ms`. */
export function endOfRaceDay(ms: number, zone = DEFAULT_RACE_TIME_ZONE): number {
  return dayjs(ms).tz(zone).startOf('day').add(1, 'day').valueOf();
}

/**
 * The zone's offset at `ms` as the visitor's language writes it ('GMT+1'), for a race that names a zone of
 * its own; the default zone has its translated label (home.time.zone: 北京时间 / UTC+8).
 */
export function timeZoneOffsetName(ms: number, zone: string, language: string): string {
  const locale = language === 'zh' ? 'zh-CN' : 'en-GB';
  const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(ms);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? zone;
}

export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Whole days, hours, minutes and seconds left until `target` (all 0 once it has passed). */
export function remainingUntil(target: number, now: number): Remaining {
  const left = Math.max(0, Math.floor((target - now) / 1000));
  return {
    days: Math.floor(left / 86400),
    hours: Math.floor((left % 86400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  };
}
