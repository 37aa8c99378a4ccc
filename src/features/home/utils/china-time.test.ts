import { endOfChinaDay, formatChinaTime, parseChinaTime, remainingUntil } from './china-time';

describe('China-time dates', () => {
  it('reads race times as UTC+8 whatever the visitor time zone is', () => {
    expect(parseChinaTime('2027-04-18 07:30:00')).toBe(Date.UTC(2027, 3, 17, 23, 30, 0));
    expect(parseChinaTime('2027-04-18T07:30')).toBe(Date.UTC(2027, 3, 17, 23, 30, 0));
    expect(parseChinaTime('2027-04-18')).toBe(Date.UTC(2027, 3, 17, 16, 0, 0));
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
      expect(parseChinaTime(bad)).toBeNull();
    }
  });

  it('formats in China time and finds the end of the race day', () => {
    const start = parseChinaTime('2027-04-18 07:30:00')!;
    expect(formatChinaTime(start)).toBe('2027.04.18 07:30');
    expect(formatChinaTime(start, false)).toBe('2027.04.18');
    expect(endOfChinaDay(start)).toBe(parseChinaTime('2027-04-19 00:00:00'));
  });

  it('splits the time left into days, hours, minutes and seconds', () => {
    const start = parseChinaTime('2027-04-18 07:30:00')!;
    const now = parseChinaTime('2027-04-16 05:28:55')!;
    expect(remainingUntil(start, now)).toEqual({ days: 2, hours: 2, minutes: 1, seconds: 5 });
    expect(remainingUntil(start, start + 1000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });
});
