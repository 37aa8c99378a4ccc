/**
 * A race's live figures (issue 30 §4, services/console/dashboard.ts): entries by item, channel and status,
 * places left, wait lists, orders and money, and entries per day and hour in the race's time zone. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { OpenedDatabase } from '../src/db/database.ts';
import { raceDashboard } from '../src/services/console/dashboard.ts';
import { FIXTURE_RACE_ID, FIXTURE_SEED, openTestDatabase, removeTempDirs, tempDir } from './helpers.ts';

/** 2025-06-16 00:30 China time (16:30 UTC the day before). */
const T0 = Date.UTC(2025, 5, 15, 16, 30, 0);
const HOUR = 3_600_000;

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    { code: 'M', name: { zh: '马拉松', en: 'Marathon' }, capacity: 3, feeFen: 20_000, model: 'ballot' },
    { code: 'FUN', name: { zh: '欢乐跑', en: 'Fun run' }, capacity: 5, feeFen: 5_000, model: 'firstCome' },
  ],
};

const dataDir = tempDir();
let opened: OpenedDatabase;

beforeAll(async () => {
  opened = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: T0 });
  const { repos } = opened;
  const race = (await repos.races.findById(FIXTURE_RACE_ID))!;
  await repos.races.save({ ...race, signUpOpenStatus: 1, entry: ENTRY } as RaceInfo, T0);
  await repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
  // Five marathon entries over two China days (one just before midnight, China time), one fun-run entry.
  const plan: [string, 'public' | 'code', number, number, number | null][] = [
    ['M', 'public', 1, 0, null],
    ['M', 'public', 1, 1, null],
    ['M', 'public', 2, 2, 1],
    ['M', 'public', 2, 23, 2],
    ['M', 'code', 1, 24, null],
    ['FUN', 'public', 3, 25, null],
  ];
  for (const [i, [itemCode, channel, status, hours, waitRank]] of plan.entries()) {
    const userId = await repos.users.create({ phone: `1390000000${i}` }, T0);
    const { id } = await repos.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode,
      channel,
      userId,
      teamId: null,
      status: status as 0 | 1 | 2,
      holdsPlace: false,
      name: `跑者${i}`,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: `dashboard-${i}`,
      certNumber: `1101011990010${String(1000 + i)}`,
      phone: `1390000000${i}`,
      values: {},
      feeFen: 20_000,
      now: T0 + hours * HOUR,
    });
    if (status === 1 && itemCode === 'M') expect(await repos.entries.holdPlace(id)).toBe(true);
    if (waitRank !== null) await repos.entries.setWaitRank(id, waitRank, T0);
  }
});

afterAll(async () => {
  await opened?.db.close();
  removeTempDirs();
});

describe('the race dashboard', () => {
  it('counts entries by item, channel and status, places left and the wait list', async () => {
    const figures = (await raceDashboard(opened.repos, FIXTURE_RACE_ID, T0 + 26 * HOUR))!;
    expect(figures.signUpOpen).toBe(true);
    expect(figures.timeZone).toBe('Asia/Shanghai');
    const marathon = figures.items.find((i) => i.itemCode === 'M')!;
    expect(marathon.name).toEqual({ zh: '马拉松', en: 'Marathon' });
    expect(marathon.channels).toEqual({ public: { 1: 2, 2: 2 }, code: { 1: 1 } });
    expect(marathon.waiting).toBe(2);
    expect(marathon.pools.find((p) => p.pool === 'main')).toMatchObject({ capacity: 3, taken: 3, left: 0 });
    const fun = figures.items.find((i) => i.itemCode === 'FUN')!;
    expect(fun.channels).toEqual({ public: { 3: 1 } });
    expect(fun.pools[0]).toMatchObject({ capacity: 5, left: 5 });
    expect(figures.money).toEqual({ paidFen: 0, refundedFen: 0, netFen: 0 });
    expect(figures.pickup).toEqual({ booked: 0, collected: 0 });
  });

  it('gives entries per day in the race’s zone and per hour over the last 48 hours', async () => {
    const now = T0 + 26 * HOUR;
    const figures = (await raceDashboard(opened.repos, FIXTURE_RACE_ID, now))!;
    // T0 is 00:30 on 16 June in China: hours 0-2 and 23 fall on the 16th, hours 24 and 25 on the 17th.
    expect(figures.perDay).toEqual([
      { day: '2025-06-16', count: 4 },
      { day: '2025-06-17', count: 2 },
    ]);
    expect(figures.perHour).toHaveLength(48);
    expect(figures.perHour.at(-1)).toEqual({ hour: '2025-06-17 02:00', count: 0 });
    expect(figures.perHour.find((h) => h.hour === '2025-06-17 00:00')).toEqual({ hour: '2025-06-17 00:00', count: 1 });
    expect(figures.perHour.reduce((sum, h) => sum + h.count, 0)).toBe(6);
  });

  it('answers undefined for a race that does not exist', async () => {
    expect(await raceDashboard(opened.repos, 'no-such-race', T0)).toBeUndefined();
  });
});
