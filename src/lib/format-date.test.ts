import { formatDate, formatDocumentDate } from './format-date';

describe('dates', () => {
  it('formats documents as YYYY.MM.DD in the race time zone, whatever the visitor’s zone', () => {
    // 2026-11-20 22:30 in China is 14:30 UTC.
    const t = Date.UTC(2026, 10, 20, 14, 30);
    expect(formatDocumentDate(t)).toBe('2026.11.20');
    expect(formatDate(t)).toBe('2026-11-20 22:30:00');
  });

  it('gives an empty string for a missing or invalid time', () => {
    expect(formatDocumentDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(null)).toBe('');
  });
});
