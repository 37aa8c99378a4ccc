import { describe, expect, it } from 'vitest';
import {
  endOfRaceDay,
  formatDocumentDate,
  formatRaceTime,
  parseRaceTime,
  remainingUntil,
  SHORT_DATE_TIME_FORMAT,
  timeZoneOffsetName,
} from '#contract/race-clock';
import { DEFAULT_RACE_TIME_ZONE, raceTimeZone, timeZoneProblem } from '#contract/time-zone';

/**
 * vitest.config.ts runs this file twice, with TZ=Europe/London and TZ=America/New_York: a visitor's clock
 * that is not the race's. The offsets below (on the race day, 2027-04-18) prove that the run really has
 * the zone it names, so no assertion here can pass because the process happens to be in China time.
 */
const VISITOR_OFFSET_MINUTES: Record<string, number> = { 'Europe/London': -60, 'America/New_York': 240 };

describe('the race clock', () => {
  it('runs in a visitor time zone that is not the race’s', () => {
    const zone = process.env.TZ ?? '';
    expect(Object.keys(VISITOR_OFFSET_MINUTES)).toContain(zone);
    expect(new Date(2027, 3, 18, 12).getTimezoneOffset()).toBe(VISITOR_OFFSET_MINUTES[zone]);
  });

  it('shows a race time as the race’s wall clock, whatever the visitor’s zone (07:30 stays 07:30)', () => {
    expect(formatRaceTime('2027-04-18 07:30:00')).toBe('2027-04-18 07:30:00');
    expect(formatRaceTime('2027-04-18 07:30:00', 'HH:mm')).toBe('07:30');
    expect(formatRaceTime('2027-04-18 07:30:00', 'YYYY.MM.DD')).toBe('2027.04.18');
  });

  it('reads race times as UTC+8 whatever the visitor time zone is', () => {
    expect(parseRaceTime('2027-04-18 07:30:00')).toBe(Date.UTC(2027, 3, 17, 23, 30, 0));
    expect(parseRaceTime('2027-04-18T07:30')).toBe(Date.UTC(2027, 3, 17, 23, 30, 0));
    expect(parseRaceTime('2027-04-18')).toBe(Date.UTC(2027, 3, 17, 16, 0, 0));
  });

  it('reads and shows race times in the zone the race names', () => {
    // London is on summer time (UTC+1) on 18 April.
    const start = parseRaceTime('2027-04-18 07:30:00', 'Europe/London');
    expect(start).toBe(Date.UTC(2027, 3, 18, 6, 30, 0));
    expect(formatRaceTime(start, SHORT_DATE_TIME_FORMAT, 'Europe/London')).toBe('2027.04.18 07:30');
    expect(formatRaceTime('2027-04-18 07:30:00', 'HH:mm', 'America/New_York')).toBe('07:30');
    expect(endOfRaceDay(start!, 'Europe/London')).toBe(Date.UTC(2027, 3, 18, 23, 0, 0));
    expect(timeZoneOffsetName(start!, 'Europe/London', 'en')).toBe('GMT+1');
    expect(timeZoneOffsetName(start!, 'America/New_York', 'zh')).toBe('GMT-4');
  });

  it('reads the hours a clock change skips or repeats one way, and ends a race day at the next midnight', () => {
    // New York springs forward at 02:00 on 14 March 2027 (02:30 does not happen) and falls back at 02:00 on
    // 7 November (01:30 happens twice).
    expect(parseRaceTime('2027-03-14 02:30:00', 'America/New_York')).toBe(Date.UTC(2027, 2, 14, 7, 30));
    expect(formatRaceTime(Date.UTC(2027, 2, 14, 7, 30), 'HH:mm', 'America/New_York')).toBe('03:30');
    expect(parseRaceTime('2027-11-07 01:30:00', 'America/New_York')).toBe(Date.UTC(2027, 10, 7, 5, 30));
    expect(formatRaceTime(Date.UTC(2027, 10, 7, 6, 30), 'HH:mm', 'America/New_York')).toBe('01:30');
    // The day of the change is 23 and 25 hours long.
    expect(endOfRaceDay(Date.UTC(2027, 2, 14, 15), 'America/New_York')).toBe(Date.UTC(2027, 2, 15, 4));
    expect(endOfRaceDay(Date.UTC(2027, 10, 7, 15), 'America/New_York')).toBe(Date.UTC(2027, 10, 8, 5));
    // A zone half an hour off the hour.
    expect(parseRaceTime('2027-04-18 07:30:00', 'Asia/Kolkata')).toBe(Date.UTC(2027, 3, 18, 2, 0));
    expect(formatRaceTime(Date.UTC(2027, 3, 18, 2, 0), 'HH:mm', 'Asia/Kolkata')).toBe('07:30');
  });

  it('reads China Standard Time without the zone data as the zone data does, summer time of 1986-1991 too', () => {
    const zoneData = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Asia/Shanghai',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    const asZoneData = (ms: number) => zoneData.format(ms).replace(', ', ' ');
    for (let ms = Date.UTC(1985, 0, 1); ms < Date.UTC(2100, 0, 1); ms += 7 * 86_400_000 + 3_600_123) {
      expect(formatRaceTime(ms, 'YYYY-MM-DD HH:mm:ss', 'Asia/Shanghai')).toBe(asZoneData(ms));
    }
    expect(formatRaceTime(Date.UTC(1990, 6, 1, 0, 0), 'HH:mm', 'Asia/Shanghai')).toBe('09:00');
  });

  it('shows the race’s clock right through the hour the visitor’s own clock changes', () => {
    // 1:00-2:00 UTC on 28 March 2027: London springs forward; New York does on 14 March, 7:00-8:00 UTC.
    for (const start of [Date.UTC(2027, 2, 28, 0, 30), Date.UTC(2027, 2, 14, 6, 30)]) {
      for (let ms = start; ms < start + 2 * 3_600_000; ms += 5 * 60_000) {
        const wall = new Date(ms + 8 * 3_600_000);
        const expected = `${String(wall.getUTCHours()).padStart(2, '0')}:${String(wall.getUTCMinutes()).padStart(2, '0')}`;
        expect(formatRaceTime(ms, 'HH:mm')).toBe(expected);
      }
    }
  });

  it('refuses missing, malformed and impossible dates', () => {
    for (const bad of [
      undefined,
      null,
      '',
      'soon',
      '2027/04/18 07:30:00',
      '2027-02-30 10:00:00',
      '2027-04-18 25:00:00',
      '2027-13-01 00:00:00',
    ]) {
      expect(parseRaceTime(bad)).toBeNull();
    }
  });

  it('formats in China time and finds the end of the race day', () => {
    const start = parseRaceTime('2027-04-18 07:30:00')!;
    expect(formatRaceTime(start, SHORT_DATE_TIME_FORMAT)).toBe('2027.04.18 07:30');
    expect(formatDocumentDate(start)).toBe('2027.04.18');
    expect(endOfRaceDay(start)).toBe(parseRaceTime('2027-04-19 00:00:00'));
  });

  it('splits the time left into days, hours, minutes and seconds', () => {
    const start = parseRaceTime('2027-04-18 07:30:00')!;
    const now = parseRaceTime('2027-04-16 05:28:55')!;
    expect(remainingUntil(start, now)).toEqual({ days: 2, hours: 2, minutes: 1, seconds: 5 });
    expect(remainingUntil(start, start + 1000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });
});

describe('dates', () => {
  it('formats documents as YYYY.MM.DD in the race time zone, whatever the visitor’s zone', () => {
    // 2026-11-20 22:30 in China is 14:30 UTC.
    const t = Date.UTC(2026, 10, 20, 14, 30);
    expect(formatDocumentDate(t)).toBe('2026.11.20');
    expect(formatRaceTime(t)).toBe('2026-11-20 22:30:00');
    // A text with its own offset names an instant.
    expect(formatRaceTime('2026-11-20T14:30:00Z')).toBe('2026-11-20 22:30:00');
  });

  it('gives an empty string for a missing or invalid time', () => {
    expect(formatDocumentDate(undefined)).toBe('');
    expect(formatRaceTime('not a date')).toBe('');
    expect(formatRaceTime(null)).toBe('');
  });
});

describe('the race time zone', () => {
  it('is the race’s own IANA zone, else China Standard Time', () => {
    expect(DEFAULT_RACE_TIME_ZONE).toBe('Asia/Shanghai');
    expect(raceTimeZone({ timeZone: 'Europe/London' })).toBe('Europe/London');
    expect(raceTimeZone({})).toBe('Asia/Shanghai');
    expect(raceTimeZone(null)).toBe('Asia/Shanghai');
    expect(raceTimeZone({ timeZone: 'Mars/Olympus_Mons' })).toBe('Asia/Shanghai');
  });

  it('refuses a name that is not an IANA zone', () => {
    expect(timeZoneProblem('Asia/Shanghai')).toBeUndefined();
    expect(timeZoneProblem('Mars/Olympus_Mons')).toMatch(/IANA time zone/);
    expect(timeZoneProblem('')).toMatch(/IANA time zone/);
  });
});
