/**
 * The one clock of the site. Race times in the configuration and the race information are wall-clock
 * texts ('YYYY-MM-DD HH:mm:ss') in the race's time zone (src/lib/time-zone.ts); instants (epoch ms) are
 * shown in that zone too. Neither depends on the visitor's time zone, so a runner in London and one in
 * Qingchuan read the same start time and the same date on a notice.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { DEFAULT_RACE_TIME_ZONE } from '#contract/time-zone';

dayjs.extend(utc);

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

/**
 * One formatter per zone, made once: building an Intl.DateTimeFormat is slow (dayjs's timezone plugin made
 * one per call, about 1 ms each on a phone: the home page's race band spent 200 ms in them).
 */
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

function zoneFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormatters.set(zone, formatter);
  }
  return formatter;
}

/** China has kept UTC+8 all year since 1992 (no summer time after 1991). */
const CHINA_STANDARD_SINCE = Date.UTC(1992, 0, 1);

/** The zone's offset from UTC at the instant, in minutes (480 for China Standard Time). */
function offsetMinutes(ms: number, zone: string): number {
  // The default zone needs no formatter: the first one with a time zone loads the zone data (about 50 ms on a
  // throttled phone, in the home page's first render).
  if (zone === 'Asia/Shanghai' && ms >= CHINA_STANDARD_SINCE) return 480;
  const parts: Record<string, number> = {};
  for (const part of zoneFormatter(zone).formatToParts(ms)) parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour % 24, parts.minute, parts.second);
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / MINUTE_MS);
}

/**
 * The instant of a wall-clock time (given as if it were UTC) in the zone. A time the clocks skip (spring
 * forward) is read with the offset before the change (02:30 becomes 03:30); a time that happens twice (fall
 * back) is the first of the two.
 */
function wallClockInstant(wall: number, zone: string): number {
  const before = offsetMinutes(wall - DAY_MS, zone);
  const after = offsetMinutes(wall + DAY_MS, zone);
  const fits = [before, after]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => offsetMinutes(instant, zone) * MINUTE_MS === wall - instant);
  return fits.length ? Math.min(...fits) : wall - before * MINUTE_MS;
}

/**
 * Day.js showing the zone's wall clock at the instant: the wall clock as if it were UTC (Day.js's utcOffset()
 * goes through the visitor's own zone and was an hour off near the visitor's summer-time change). Formats
 * of dates and times only: an offset token (Z) would read +00:00.
 */
const inZone = (ms: number, zone: string) => dayjs.utc(ms + offsetMinutes(ms, zone) * MINUTE_MS);

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
  return wallClockInstant(Date.UTC(year, month - 1, day, hour, minute, second), zone);
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
  return inZone(ms, zone).format(format);
}

/** 'YYYY.MM.DD' in the race's zone (document pages, news and notices). */
export const formatDocumentDate = (time: number | null | undefined, zone = DEFAULT_RACE_TIME_ZONE) =>
  formatRaceTime(time, DOCUMENT_DATE_FORMAT, zone);

/** Midnight (in the race's zone) after the day that contains `ms`. */
export function endOfRaceDay(ms: number, zone = DEFAULT_RACE_TIME_ZONE): number {
  const wall = ms + offsetMinutes(ms, zone) * MINUTE_MS;
  return wallClockInstant(Math.floor(wall / DAY_MS) * DAY_MS + DAY_MS, zone);
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
