import dayjs from 'dayjs';

/** Default date-time format (spec §9). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** Document dates (spec §2 "Document pages", §9). */
export const DOCUMENT_DATE_FORMAT = 'YYYY.MM.DD';

/** '' for a missing or invalid time. */
export function formatDate(time: number | string | undefined | null, format = DATE_TIME_FORMAT): string {
  if (time === undefined || time === null || time === '') return '';
  const d = dayjs(time);
  return d.isValid() ? d.format(format) : '';
}

export const formatDocumentDate = (time: number | undefined | null) => formatDate(time, DOCUMENT_DATE_FORMAT);
