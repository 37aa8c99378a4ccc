/**
 * A race's live figures (issue 30 §4, services/console/dashboard.ts): entries by item, channel and status,
 * places left, wait lists, orders and money (refunds owed among it), letters signed, pick-up, the race's sums,
 * entries per day (up to today) and per hour in the race's time zone, and the short cache the console's
 * polling reads through. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { OpenedDatabase } from '../src/db/database.ts';
import { dashboardCache, raceDashboard } from '../src/services/console/dashboard.ts';
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
/** The entries' ids, in the plan's order. */
const ids: number[] = [];
const users: number[] = [];

async function addEntry(i: number, itemCode: string, channel: 'public' | 'code', status: number, at: number) {
  const { repos } = opened;
  const userId = await repos.users.create({ phone: `1390000${String(1000 + i)}` }, T0);
  users[i] = userId;
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
    phone: `1390000${String(1000 + i)}`,
    values: {},
    feeFen: 20_000,
    now: at,
  });
  ids[i] = id;
  return id;
}

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
    const id = await addEntry(i, itemCode, channel, status, T0 + hours * HOUR);
    if (status === 1 && itemCode === 'M') expect(await repos.entries.holdPlace(id)).toBe(true);
    if (waitRank !== null) await repos.entries.setWaitRank(id, waitRank, T0);
  }
  // Orders: entry 0 paid; entry 1 paid, 50 yuan refunded and 30 more owed (recorded, not yet confirmed);
  // entry 4 awaiting payment; entry 5 cancelled.
  const order = async (i: number) =>
    (
      await repos.orders.create({
        raceId: FIXTURE_RACE_ID,
        userId: users[i]!,
        amountFen: 20_000,
        deadlineAt: null,
        createdAt: T0,
        lines: [{ entryId: ids[i]!, amountFen: 20_000 }],
      })
    ).id;
  const paid = { paidFen: 20_000, paidAt: T0, serialNo: null };
  expect(await repos.orders.markPaid(await order(0), paid)).toBe(true);
  const refunded = await order(1);
  expect(await repos.orders.markPaid(refunded, paid)).toBe(true);
  expect(await repos.orders.markRefunded(refunded, 5_000, T0)).toBe(true);
  expect(
    await repos.payments.addRefund({ orderId: refunded, entryId: ids[1]!, amountFen: 3_000, reason: 'owed', now: T0 }),
  ).toBe(true);
  await order(4);
  expect(await repos.orders.cancel(await order(5), T0)).toBe(true);
  // Letters: entry 0 signed two versions (one runner), entry 2 (not won) signed too, which does not count.
  const sign = (i: number, versionHash: string) =>
    repos.letters.insertSignature({
      raceId: FIXTURE_RACE_ID,
      entryId: ids[i]!,
      userId: users[i]!,
      versionHash,
      signerName: `跑者${i}`,
      accepted: [],
      guardian: null,
      relative: null,
      ip: '127.0.0.1',
      userAgent: 'test',
      signedAt: T0,
    });
  await sign(0, 'v1');
  await sign(0, 'v2');
  await sign(2, 'v1');
  // Pick-up: entries 0 and 1 booked, entry 0 collected.
  for (const i of [0, 1]) {
    await repos.pickup.insertBooking({
      raceId: FIXTURE_RACE_ID,
      entryId: ids[i]!,
      slotId: 's1',
      passCode: `P${i}`,
      now: T0,
    });
  }
  expect(await repos.pickup.collect(FIXTURE_RACE_ID, 'P0', T0, 'test')).toBeDefined();
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
    expect(fun.pools.map((p) => p.pool)).toEqual(['main']);
    expect(marathon.pools.find((p) => p.pool === 'main')!.entries).toEqual({ 1: 3, 2: 2 });
    expect(marathon.total).toBe(5);
  });

  it('counts orders by status, money received, refunded and still owed, letters signed and pick-up', async () => {
    const figures = (await raceDashboard(opened.repos, FIXTURE_RACE_ID, T0 + 26 * HOUR))!;
    expect(figures.orders).toEqual({ 1: 1, 3: 2, 4: 1 });
    expect(figures.money).toEqual({
      paidFen: 40_000,
      refundedFen: 5_000,
      netFen: 35_000,
      owedRefunds: 1,
      owedRefundFen: 3_000,
    });
    // Entry 0 signed twice and counts once; entry 2 (not won) holds no place and does not count.
    expect(figures.items.find((i) => i.itemCode === 'M')!.lettersSigned).toBe(1);
    expect(figures.pickup).toEqual({ booked: 2, collected: 1 });
  });

  it('sums the race over its items', async () => {
    const figures = (await raceDashboard(opened.repos, FIXTURE_RACE_ID, T0 + 26 * HOUR))!;
    expect(figures.totals).toEqual({
      entries: 6,
      byStatus: { 1: 3, 2: 2, 3: 1 },
      byChannel: { public: 5, code: 1 },
      capacity: 8,
      left: 5,
      waiting: 2,
      lettersSigned: 1,
    });
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

  it('gives every day up to today, days without entries included', async () => {
    // Four days after T0: 20 June, 00:30 in China; nothing came in after the 17th.
    const figures = (await raceDashboard(opened.repos, FIXTURE_RACE_ID, T0 + 4 * 24 * HOUR))!;
    expect(figures.perDay).toEqual([
      { day: '2025-06-16', count: 4 },
      { day: '2025-06-17', count: 2 },
      { day: '2025-06-18', count: 0 },
      { day: '2025-06-19', count: 0 },
      { day: '2025-06-20', count: 0 },
    ]);
    expect(figures.perHour.every((h) => h.count === 0)).toBe(true);
  });

  it('gives today alone, at nought, before any entry', async () => {
    const race = (await opened.repos.races.findById(FIXTURE_RACE_ID))!;
    await opened.repos.races.save({ ...race, raceId: 'dashboard-empty', entry: ENTRY } as RaceInfo, T0);
    const figures = (await raceDashboard(opened.repos, 'dashboard-empty', T0))!;
    expect(figures.perDay).toEqual([{ day: '2025-06-16', count: 0 }]);
    expect(figures.totals).toMatchObject({ entries: 0, capacity: 8, left: 8 });
  });

  it('answers undefined for a race that does not exist', async () => {
    expect(await raceDashboard(opened.repos, 'no-such-race', T0)).toBeUndefined();
  });
});

describe('the figures cache the console polls through', () => {
  it('gives every caller within the window the one computation, and the live state after it', async () => {
    const figures = dashboardCache(2_000);
    const at = T0 + 30 * HOUR;
    const first = figures(opened.repos, FIXTURE_RACE_ID, at);
    // Fifty staff asking at once share one computation.
    const together = Array.from({ length: 50 }, () => figures(opened.repos, FIXTURE_RACE_ID, at));
    for (const other of together) expect(other).toBe(first);
    const before = (await first)!.totals.entries;
    await addEntry(6, 'FUN', 'public', 1, at + 500);
    expect(figures(opened.repos, FIXTURE_RACE_ID, at + 1_999)).toBe(first);
    const after = (await figures(opened.repos, FIXTURE_RACE_ID, at + 2_000))!;
    expect(after.totals.entries).toBe(before + 1);
    expect(after.asOf).toBe(at + 2_000);
  });
});
