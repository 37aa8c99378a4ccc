/**
 * Race times in the configuration and the race information are 'YYYY-MM-DD HH:mm:ss' in China Standard
 * Time (UTC+8, no daylight saving). They are read as +08:00 whatever the visitor's time zone is, and shown
 * in China time too, so a runner in London and one in Qingchuan see the same start time.
 */
const CHINA_OFFSET_MS = 8 * 60 * 60 * 1000;
const PATTERN = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Epoch milliseconds of a China-time date, or null when the value is missing or not a real date. */
export function parseChinaTime(value: string | null | undefined): number | null {
  const match = typeof value === 'string' ? PATTERN.exec(value.trim()) : null;
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  if (hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utc);
  // 2027-02-30 rolls over to March: not a real date.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return utc - CHINA_OFFSET_MS;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY.MM.DD HH:mm' (or 'YYYY.MM.DD' without the time) in China time. */
export function formatChinaTime(ms: number, withTime = true): string {
  const d = new Date(ms + CHINA_OFFSET_MS);
  const date = `${d.getUTCFullYear()}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCDate())}`;
  return withTime ? `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` : date;
}

/** Midnight (China time) after the day that contains `ms`. */
export function endOfChinaDay(ms: number): number {
  const shifted = ms + CHINA_OFFSET_MS;
  return shifted - (((shifted % DAY_MS) + DAY_MS) % DAY_MS) + DAY_MS - CHINA_OFFSET_MS;
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
