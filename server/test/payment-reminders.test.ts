/**
 * Payment reminders (issue 31 §4): an order still unpaid a day before its deadline is reminded once, in
 * Chinese and English, with its SMS template and variables; an order given minutes to pay, a paid order and
 * one already reminded are not.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntrySettings } from '#contract/entry';
import { poolOf } from '../src/db/entries-repository.ts';
import { sql } from '../src/db/engine.ts';
import { remindUnpaid, REMIND_BEFORE_MS } from '../src/services/entry/payment-reminders.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs } from './helpers.ts';

const HOUR = 3600_000;
const clock = fakeClock();
const FEE = 20_000;
const ENTRY: EntrySettings = {
  allowMultiple: true,
  items: [{ code: 'FM', name: { zh: '全程', en: 'Marathon' }, capacity: 50, feeFen: FEE, model: 'firstCome' }],
};

let app: FastifyInstance;
let people = 0;

/** A runner (by phone) with an entry and its order, to pay within `windowMs`. */
async function makeOrder(windowMs: number) {
  people += 1;
  const phone = `1390000${String(people).padStart(4, '0')}`;
  const userId = await app.repos.users.create({ phone }, clock.now());
  const order = await app.repos.transaction(async (tx) => {
    expect(await tx.entries.takePlace(FIXTURE_RACE_ID, 'FM', poolOf('public'), 1)).toBe(true);
    const entry = await tx.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode: 'FM',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: true,
      name: `跑者${people}`,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: `reminder-hash-${people}`,
      certNumber: `11010119900101${String(3000 + people)}`,
      phone,
      values: {},
      feeFen: FEE,
      now: clock.now(),
    });
    return tx.orders.create({
      raceId: FIXTURE_RACE_ID,
      userId,
      amountFen: FEE,
      deadlineAt: clock.now() + windowMs,
      createdAt: clock.now(),
      lines: [{ entryId: entry.id, amountFen: FEE }],
    });
  });
  return { phone, order };
}

const messagesTo = (phone: string) =>
  app.db.all<{ subject: string; body: string; kind: string | null; params: string | null; dedupe_key: string }>(
    sql`SELECT subject, body, kind, params, dedupe_key FROM outbox WHERE destination = ${phone} ORDER BY id`,
  );

beforeAll(async () => {
  app = await buildTestApp({ env: { RATE_LIMITS: 'off', JOBS: 'off' }, now: clock.now });
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save({ ...race, entry: ENTRY }, clock.now());
  await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('payment reminders', () => {
  it('reminds an order unpaid a day before its deadline once, in both languages, with its template', async () => {
    const week = await makeOrder(7 * 24 * HOUR);
    const minutes = await makeOrder(30 * 60_000);
    const paid = await makeOrder(7 * 24 * HOUR);
    await app.repos.orders.markPaid(paid.order.id, { paidFen: FEE, paidAt: clock.now(), serialNo: 'T1' });

    // Not yet: more than a day is left (the minutes order is left alone).
    expect(await remindUnpaid(app.repos, clock.now())).toBe(0);
    clock.advance(7 * 24 * HOUR - REMIND_BEFORE_MS - 60_000);
    expect(await remindUnpaid(app.repos, clock.now())).toBe(0);
    clock.advance(2 * 60_000);
    expect(await remindUnpaid(app.repos, clock.now())).toBe(1);
    // Once: the next sweeps find nothing more.
    expect(await remindUnpaid(app.repos, clock.now())).toBe(0);
    clock.advance(HOUR);
    expect(await remindUnpaid(app.repos, clock.now())).toBe(0);

    const sent = await messagesTo(week.phone);
    const reminder = sent.filter((m) => m.kind === 'paymentReminder');
    expect(reminder).toHaveLength(1);
    expect(reminder[0]!.dedupe_key).toBe(`paymentReminder:${week.order.orderNo}:${FIXTURE_RACE_ID}`);
    expect(reminder[0]!.subject).toContain('支付提醒 Payment reminder');
    expect(reminder[0]!.body).toContain(`订单 ${week.order.orderNo}`);
    expect(reminder[0]!.body).toContain(`order ${week.order.orderNo}`);
    expect(reminder[0]!.body).toContain('¥200.00');
    expect(JSON.parse(reminder[0]!.params!)).toMatchObject({ orderNo: week.order.orderNo, amount: '200.00' });
    expect((await messagesTo(minutes.phone)).filter((m) => m.kind === 'paymentReminder')).toEqual([]);
    expect((await messagesTo(paid.phone)).filter((m) => m.kind === 'paymentReminder')).toEqual([]);
  });

  it('does not remind an order past its deadline', async () => {
    const late = await makeOrder(3 * 24 * HOUR);
    clock.advance(3 * 24 * HOUR + 1);
    expect(await remindUnpaid(app.repos, clock.now())).toBe(0);
    expect((await messagesTo(late.phone)).filter((m) => m.kind === 'paymentReminder')).toEqual([]);
  });
});
