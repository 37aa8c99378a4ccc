/**
 * What the tests of issue 15 (after entry) share: an app on the test fixtures that also holds the demo race
 * (server/seed/race.json `race`: its letter, pick-up days and refund terms) with the clock inside its sign-up
 * window, runners, and "a runner with a won, paid 10K entry": the entry and its order made through the
 * repositories as the submission makes them, then paid through the sandbox cashier (orderPay, sandboxDecide),
 * so the entry is won (1) with the timeline 'submitted', 'paid'.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { RaceInfo } from '#contract/site-config/race-types';
import { idCard } from '../src/db/seed-runners.ts';
import { DEFAULT_SEED_DIR } from '../src/lib/paths.ts';
import { buildTestApp, fakeClock } from './helpers.ts';

export const DEMO_RACE_ID = 'qc-marathon-2027';
/** The demo race as the seed has it (race day 2027-04-18; sign-up 2026-11-16 … 2027-01-24). */
export const demoRace = (): RaceInfo =>
  (JSON.parse(readFileSync(path.join(DEFAULT_SEED_DIR, 'race.json'), 'utf8')) as { race: RaceInfo }).race;

/** 2026-12-01 10:00 China time: the demo race's sign-up is open, its letter and refunds too. */
export const afterEntryClock = () => fakeClock(Date.UTC(2026, 11, 1, 2, 0, 0));

/** A test app (fixture seed) holding the demo race too; jobs and rate limits off unless `env` says otherwise. */
export async function demoRaceApp(
  clock: { now: () => number },
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<FastifyInstance> {
  const app = await buildTestApp({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    env: { RATE_LIMITS: 'off', JOBS: 'off', ...options.env },
    now: clock.now,
  });
  await saveDemoRace(app, clock.now());
  return app;
}

/** Saves the demo race (with changes) and its places, as `site add-race` does. */
export async function saveDemoRace(app: FastifyInstance, now: number, changes: Partial<RaceInfo> = {}) {
  const race = { ...demoRace(), ...changes };
  await app.repos.races.save(race, now);
  expect(await app.repos.entries.syncPlaces(race.raceId, race.entry)).toEqual({ ok: true });
  return race;
}

export interface TestRunner {
  id: number;
  token: string;
  phone: string;
}

let runnerSeq = 0;
let personSeq = 0;

/** A new account with a login token. */
export async function newRunner(app: FastifyInstance, now: number): Promise<TestRunner> {
  runnerSeq += 1;
  const phone = `137${String(process.pid % 1000).padStart(3, '0')}${String(runnerSeq).padStart(5, '0')}`;
  const id = await app.repos.users.create({ phone }, now);
  const { token } = await app.repos.tokens.issue(id, 24 * 3_600_000, now);
  return { id, token, phone };
}

export interface TestEntry {
  entryId: number;
  entryNo: string;
  orderNo: string;
  name: string;
  birthday: string;
  certNumber: string;
  phone: string;
  feeFen: number;
}

/** An entry of the demo race awaiting payment (status submitted, its place taken), as the submission makes it. */
export async function unpaidEntry(
  app: FastifyInstance,
  runner: TestRunner,
  now: number,
  options: { itemCode?: string; birthday?: string; name?: string } = {},
): Promise<TestEntry> {
  const { itemCode = '10K', birthday = '1990-05-20' } = options;
  personSeq += 1;
  const name = options.name ?? `跑者${personSeq}`;
  const certNumber = idCard(`320102${birthday.replaceAll('-', '')}${String(personSeq % 1000).padStart(3, '0')}`);
  const phone = `1380013${String(personSeq % 10_000).padStart(4, '0')}`;
  const item = demoRace().entry!.items.find((i) => i.code === itemCode)!;
  return app.repos.transaction(async (tx) => {
    expect(await tx.entries.takePlace(DEMO_RACE_ID, itemCode, 'main', 1)).toBe(true);
    const entry = await tx.entries.insertEntry({
      raceId: DEMO_RACE_ID,
      itemCode,
      channel: 'public',
      userId: runner.id,
      status: 0,
      holdsPlace: true,
      name,
      gender: 1,
      birthday,
      certType: 1,
      certHash: tx.raceCenter.certHash(certNumber),
      certNumber,
      phone,
      values: {},
      feeFen: item.feeFen,
      now,
    });
    const order = await tx.orders.create({
      raceId: DEMO_RACE_ID,
      userId: runner.id,
      amountFen: item.feeFen,
      deadlineAt: now + 30 * 60_000,
      createdAt: now,
      lines: [{ entryId: entry.id, amountFen: item.feeFen }],
    });
    return {
      entryId: entry.id,
      entryNo: entry.entryNo,
      orderNo: order.orderNo,
      name,
      birthday,
      certNumber,
      phone,
      feeFen: item.feeFen,
    };
  });
}

/** Pays an order through the sandbox cashier, as a runner's browser does. */
export async function payInSandbox(app: FastifyInstance, runner: TestRunner, orderNo: string): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: API_PATHS.orderPay,
    payload: { orderNo },
    headers: { token: runner.token },
  });
  expect(res.json().code, res.body).toBe(0);
  const { cashierUrl, paymentId } = res.json().data as { cashierUrl: string; paymentId: string };
  const page = await app.inject({ method: 'GET', url: cashierUrl });
  const token = /name="token" value="([^"]+)"/.exec(page.body)![1]!;
  const decided = await app.inject({
    method: 'POST',
    url: API_PATHS.sandboxDecide,
    payload: `paymentId=${paymentId}&token=${token}&decision=pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(decided.statusCode, decided.body).toBe(303);
}

/** A won (1), paid entry of the demo race (10K unless told), born `birthday` (default 1990-05-20). */
export async function wonPaidEntry(
  app: FastifyInstance,
  runner: TestRunner,
  now: number,
  options: { itemCode?: string; birthday?: string; name?: string } = {},
): Promise<TestEntry> {
  const entry = await unpaidEntry(app, runner, now, options);
  await payInSandbox(app, runner, entry.orderNo);
  expect((await app.repos.entries.findById(entry.entryId))!.status).toBe(1);
  return entry;
}
