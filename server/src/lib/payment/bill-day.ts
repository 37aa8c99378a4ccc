/**
 * The day of a provider's bill (issue 31 §3): both Alipay and WeChat Pay cut their daily bills in China time
 * (Asia/Shanghai, UTC+8 all year, no summer time), so a bill day is a YYYY-MM-DD there, from 00:00 to 24:00.
 */
const CHINA_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 24 * 3_600_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The China day (YYYY-MM-DD) an instant falls in. */
export const chinaDayOf = (at: number): string => new Date(at + CHINA_OFFSET_MS).toISOString().slice(0, 10);

/** The instants [from, to) of a China day, or undefined when `day` is not a real YYYY-MM-DD date. */
export function chinaDayRange(day: string): { from: number; to: number } | undefined {
  const match = DAY.exec(day);
  if (!match) return undefined;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const midnight = Date.UTC(y, m - 1, d);
  if (chinaDayOf(midnight) !== day) return undefined;
  return { from: midnight - CHINA_OFFSET_MS, to: midnight - CHINA_OFFSET_MS + DAY_MS };
}

/** The China day before the one `at` falls in (the bill a provider publishes on the morning of `at`). */
export const previousChinaDay = (at: number): string => chinaDayOf(at - DAY_MS);

/** The hour (0-23) in China of an instant. */
export const chinaHourOf = (at: number): number => new Date(at + CHINA_OFFSET_MS).getUTCHours();
