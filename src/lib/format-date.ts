import dayjs from 'dayjs';

/** Default date-time format (spec §9). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** Document dates (spec §2 "Document pages", §9). */
export const DOCUMENT_DATE_FORMAT = 'YYYY.MM.DD';
/** The race's own time zone: China Standard Time, UTC+8, no daylight saving. */
export const RACE_UTC_OFFSET_MINUTES = 480;

/**
 * Formats an instant in the race's time zone, so every visitor sees the date the organiser published
 * (a notice of 22:00 in Qingchuan is not "yesterday" in London). '' for a missing or invalid time.
 */
export function formatDate(time: number | string | undefined | null, format = DATE_TIME_FORMAT): string {
  if (time === undefined || time === null || time === '') return '';
  const instant = dayjs(time);
  if (!instant.isValid()) return '';
  // Shift the instant so that the local fields read the race's wall clock.
  const shifted = instant.add(RACE_UTC_OFFSET_MINUTES - instant.utcOffset(), 'minute');
  return shifted.format(format);
}

export const formatDocumentDate = (time: number | undefined | null) => formatDate(time, DOCUMENT_DATE_FORMAT);
