/**
 * Money and the ballot, ready for real money (issue 27 §1): a pay-first draw records every loser's refund in
 * its own transaction, so a provider that fails halfway loses none (the job runner finishes them, retrying with
 * backoff); the draw closes the orders still unpaid, orderPay refuses them and a late "paid" is refunded at once
 * with the runner told; a double payment's second charge is a recorded refund like any other; the organiser sees
 * what is owed (refunds-owed) and retries one (refund-retry); entry-close lets the draw run before
 * signUpEndTime. Runs on both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntrySettings } from '#contract/entry';
import { MESSAGES } from '#contract/messages';
import type { PaymentProvider, RefundResult } from '../src/lib/payment/provider.ts';
import { sandboxNotification } from '../src/lib/payment/sandbox.ts';
import { PENDING_REFUNDS_EVERY_MS } from '../src/routes/entry/payment.ts';
import { commitBallot, drawRound } from '../src/services/entry/ballot.ts';
import { applyNotification } from '../src/services/entry/order-transitions.ts';
import { carryOutDueRefunds, refundEntries } from '../src/services/entry/refunds-owed.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, siteCli, tempDir } from './helpers.ts';

/** 2025-06-16 10:00 China time; sign-up ends 2025-06-20 20:00. */
const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
const END = Date.UTC(2025, 5, 20, 12, 0, 0);
const HOUR = 3_600_000;
const MINUTE = 60_000;

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    { code: 'P', name: { zh: '半程', en: 'Half' }, capacity: 2, feeFen: 10_000, model: 'payThenDraw' },
    { code: 'B', name: { zh: '马拉松', en: 'Marathon' }, capacity: 5, feeFen: 20_000, model: 'ballot' },
    { code: 'F', name: { zh: '欢乐跑', en: 'Fun run' }, capacity: 9, feeFen: 5_000, model: 'firstCome' },
  ],
};

const clock = fakeClock(T0);
const dataDir = tempDir();
let app: FastifyInstance;
let people = 0;

/** The organiser CLI on this file's data folder at `at`. */
const cli = (at: number, ...argv: string[]) => siteCli(dataDir, () => at)(...argv);

/** A runner (account and token) with an entry of the item and its order awaiting payment. */
async function enter(itemCode: string, deadlineAt = END + 48 * HOUR) {
  people += 1;
  const phone = `1360000${String(people).padStart(4, '0')}`;
  const userId = await app.repos.users.create({ phone }, T0);
  const { token } = await app.repos.tokens.issue(userId, 30 * 24 * HOUR, T0);
  const feeFen = ENTRY.items.find((i) => i.code === itemCode)!.feeFen;
  const entry = await app.repos.entries.insertEntry({
    raceId: FIXTURE_RACE_ID,
    itemCode,
    channel: 'public',
    userId,
    teamId: null,
    status: 0,
    holdsPlace: false,
    name: `王${people}`,
    gender: 1,
    birthday: '1990-01-01',
    certType: 1,
    certHash: `money-hash-${people}`,
    certNumber: `11010119900101${String(3000 + people)}`,
    phone,
    values: {},
    feeFen,
    now: T0,
  });
  const order = await app.repos.orders.create({
    raceId: FIXTURE_RACE_ID,
    userId,
    amountFen: feeFen,
    deadlineAt,
    createdAt: T0,
    lines: [{ entryId: entry.id, amountFen: feeFen }],
  });
  return { ...entry, userId, token, phone, orderId: order.id, orderNo: order.orderNo, feeFen };
}

/** orderPay as the runner's browser calls it. */
const orderPay = (token: string, orderNo: string) =>
  app.inject({ method: 'POST', url: API_PATHS.orderPay, payload: { orderNo }, headers: { token } });

/** The sandbox's signed "paid" notification of a payment, posted to the notify route. */
async function notifyPaid(paymentId: string, amountFen: number) {
  const n = sandboxNotification(app.secrets.payment, { paymentId, status: 'paid', amountFen, paidAt: clock.now() });
  return app.inject({
    method: 'POST',
    url: `${API_PATHS.payNotifyPrefix}sandbox`,
    payload: n.rawBody,
    headers: n.headers,
  });
}

/** An entry paid through the cashier (orderPay, then the provider's notification). */
async function enterPaid(itemCode: string) {
  const entry = await enter(itemCode);
  const paid = await orderPay(entry.token, entry.orderNo);
  expect(paid.json().code, paid.body).toBe(0);
  const paymentId = (paid.json().data as { paymentId: string }).paymentId;
  expect((await notifyPaid(paymentId, entry.feeFen)).json().code).toBe(0);
  return { ...entry, paymentId };
}

/** A provider that refunds through the app's sandbox, except as `decide` says (throw, or answer otherwise). */
function scriptedProvider(decide: (call: number) => 'ok' | 'throw' | RefundResult): PaymentProvider {
  const base = app.paymentProvider;
  let calls = 0;
  return {
    ...base,
    name: base.name,
    async refund(input) {
      calls += 1;
      const decision = decide(calls);
      if (decision === 'throw') throw new Error('connect ECONNRESET api.provider.example');
      if (decision !== 'ok') return decision;
      return base.refund(input);
    },
  };
}

const refundRows = (orderIds: number[]) =>
  Promise.all(orderIds.map((id) => app.repos.payments.refundsOf(id))).then((rows) => rows.flat());

beforeAll(async () => {
  app = await buildTestApp({ dataDir, now: clock.now, env: { RATE_LIMITS: 'off', JOBS: 'off' } });
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save(
    {
      ...race,
      signUpOpenStatus: 1,
      signUpStartTime: '2025-06-01 00:00:00',
      signUpEndTime: '2025-06-20 20:00:00',
      entry: ENTRY,
    },
    T0,
  );
  await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('a pay-first draw and the money it owes', () => {
  const paid: Awaited<ReturnType<typeof enterPaid>>[] = [];
  let unpaid: Awaited<ReturnType<typeof enter>>;
  let unpaidPaymentId = '';
  let lapsed: Awaited<ReturnType<typeof enter>>;
  let lapsedPaymentId = '';

  it('records every loser’s refund with the draw when the provider fails halfway, and the job finishes them', async () => {
    for (let i = 0; i < 6; i += 1) paid.push(await enterPaid('P'));
    // Still unpaid at the draw, its payment window spanning it: the cashier opened, nothing paid yet.
    unpaid = await enter('P');
    unpaidPaymentId = ((await orderPay(unpaid.token, unpaid.orderNo)).json().data as { paymentId: string }).paymentId;
    // Cancelled at its deadline before the draw; its payment still open at the provider.
    lapsed = await enter('P', T0 + 30 * MINUTE);
    lapsedPaymentId = ((await orderPay(lapsed.token, lapsed.orderNo)).json().data as { paymentId: string }).paymentId;
    clock.advance(HOUR);
    await app.jobs.runDue();
    expect((await app.repos.orders.findById(lapsed.orderId))?.status).toBe(4);

    expect((await commitBallot(app.repos, { raceId: FIXTURE_RACE_ID, itemCode: 'P', now: clock.now() })).ok).toBe(true);
    clock.advance(END + HOUR - clock.now());
    // The provider confirms one refund, then its connection breaks.
    const failing = scriptedProvider((call) => (call === 1 ? 'ok' : 'throw'));
    const drawn = await drawRound(app.repos, { raceId: FIXTURE_RACE_ID, itemCode: 'P', now: clock.now() }, failing);
    expect(drawn.ok && drawn.value).toMatchObject({ entries: 6, places: 2, refundsOwed: 4, refunded: 1, closed: 1 });
    if (!drawn.ok) return;
    // The draw is recorded once; every refund it owes is on record.
    expect((await app.repos.ballots.latest(FIXTURE_RACE_ID, 'P'))?.drawnAt).toBe(clock.now());
    const again = await drawRound(app.repos, { raceId: FIXTURE_RACE_ID, itemCode: 'P', now: clock.now() }, failing);
    expect(again).toMatchObject({ ok: false, problem: expect.stringMatching(/drawn already/) });
    const losers = paid.filter((p) => drawn.value.waitList.includes(p.entryNo));
    expect(losers).toHaveLength(4);
    let rows = await refundRows(losers.map((l) => l.orderId));
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.reason === 'notWon' && r.amountFen === 10_000)).toBe(true);
    expect(rows.filter((r) => r.status === 'done')).toHaveLength(1);
    const failed = rows.find((r) => r.attempts === 1)!;
    expect(failed).toMatchObject({ status: 'pending', nextAt: clock.now() + 30_000 });
    expect(failed.lastError).toMatch(/ECONNRESET/);

    // The organiser sees what is still owed.
    const owed = await cli(clock.now(), 'refunds-owed', '--race', FIXTURE_RACE_ID);
    expect(owed.code, owed.err).toBe(0);
    expect(owed.out).toMatch(/3 refunds owed in fixture-race-2025 \(300\.00 yuan\), 1 of them failing/);
    expect(owed.out).toContain(failed.refundNo);
    expect(owed.out).toMatch(/ECONNRESET/);

    // The job runner's sweep carries the rest out.
    clock.advance(PENDING_REFUNDS_EVERY_MS);
    await app.jobs.runDue();
    rows = await refundRows(losers.map((l) => l.orderId));
    expect(rows.map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
    for (const loser of losers) {
      expect(await app.repos.orders.findById(loser.orderId)).toMatchObject({ status: 5, refundedFen: 10_000 });
      const steps = (await app.repos.entries.events([loser.id])).get(loser.id)!.map((s) => s.step);
      expect(steps.filter((s) => s === 'refunded')).toHaveLength(1);
    }
    expect((await cli(clock.now(), 'refunds-owed', '--race', FIXTURE_RACE_ID)).out).toMatch(/No refund owed/);
  });

  it('closes the orders still unpaid at the draw: orderPay refuses them, and a late payment is refunded at once', async () => {
    const order = (await app.repos.orders.findById(unpaid.orderId))!;
    expect(order.status).toBe(4);
    expect((await app.repos.entries.findById(unpaid.id))?.status).toBe(3);
    expect((await app.repos.payments.findByPaymentId(unpaidPaymentId))?.status).toBe('closed');
    // The public list of the draw does not hold it.
    const record = (await app.repos.ballots.latest(FIXTURE_RACE_ID, 'P'))!;
    expect(record.entries!.map((e) => e.entryNo)).not.toContain(unpaid.entryNo);
    const told = (await app.repos.outbox.latest(50)).find((m) => m.destination === unpaid.phone);
    expect(told?.body).toMatch(/未完成支付/);
    expect(told?.body).toMatch(/not paid before the draw/);

    for (const runner of [unpaid, lapsed]) {
      const refused = await orderPay(runner.token, runner.orderNo);
      expect(refused.statusCode).toBe(200);
      expect(refused.json()).toMatchObject({ code: 409, msgCode: 'orderBallotDrawn', msg: MESSAGES.orderBallotDrawn });
    }

    // The provider still delivers a "paid" for each open payment: both are refunded at once, never drawn.
    for (const [runner, paymentId] of [
      [unpaid, unpaidPaymentId],
      [lapsed, lapsedPaymentId],
    ] as const) {
      expect((await notifyPaid(paymentId, runner.feeFen)).json().code).toBe(0);
      expect(await app.repos.orders.findById(runner.orderId)).toMatchObject({
        status: 5,
        paidFen: 10_000,
        refundedFen: 10_000,
      });
      expect(await app.repos.payments.refundsOf(runner.orderId)).toMatchObject([
        { entryId: runner.id, amountFen: 10_000, reason: 'latePayment', status: 'done' },
      ]);
      expect((await app.repos.entries.findById(runner.id))?.status).toBe(3);
      const message = (await app.repos.outbox.latest(50)).find(
        (m) => m.destination === runner.phone && m.body.includes('arrived after the draw'),
      );
      expect(message?.body).toMatch(/抽签之后才到账/);
    }
  });
});

describe('refunds the provider does not confirm', () => {
  it('keeps a refund the provider refuses owed and visible, retried after its backoff until confirmed', async () => {
    const entry = await enterPaid('F');
    const refusing = scriptedProvider(() => ({
      status: 'failed',
      refundTradeNo: '',
      reason: 'merchant balance too low',
    }));
    const request = { orderId: entry.orderId, entryIds: [entry.id], reason: 'request:test', now: clock.now };
    expect(await refundEntries(app.repos, refusing, request)).toEqual({ refundedFen: 0, pending: 1 });
    const [refund] = await app.repos.payments.refundsOf(entry.orderId);
    expect(refund).toMatchObject({ status: 'pending', attempts: 1, nextAt: clock.now() + 30_000 });
    expect(refund!.lastError).toMatch(/merchant balance too low/);

    // Not tried again before its backoff; then again, waiting twice as long.
    clock.advance(10_000);
    expect(await carryOutDueRefunds({ repos: app.repos, provider: refusing, now: clock.now })).toEqual({
      done: 0,
      pending: 0,
    });
    clock.advance(20_000);
    expect(await carryOutDueRefunds({ repos: app.repos, provider: refusing, now: clock.now })).toEqual({
      done: 0,
      pending: 1,
    });
    expect((await app.repos.payments.findRefund(refund!.refundNo))?.nextAt).toBe(clock.now() + 60_000);

    const owed = await cli(clock.now(), 'refunds-owed');
    expect(owed.out).toMatch(
      new RegExp(
        `${refund!.refundNo}\\s+${entry.orderNo}\\s+${entry.entryNo}\\s+50\\.00\\s+request:test\\s+2\\s+the provider refused it: merchant balance too low`,
      ),
    );

    // The organiser retries it now: the sandbox confirms.
    const retried = await cli(clock.now(), 'refund-retry', '--refund', refund!.refundNo);
    expect(retried.code, retried.err).toBe(0);
    expect(retried.out).toMatch(/confirmed by the provider now/);
    expect(await app.repos.orders.findById(entry.orderId)).toMatchObject({ status: 5, refundedFen: 5_000 });
    expect((await cli(clock.now(), 'refund-retry', '--refund', refund!.refundNo)).code).toBe(1);
  });

  it('records a double payment’s second charge as a refund, retried until the provider confirms it', async () => {
    const entry = await enterPaid('F');
    const second = await app.repos.payments.create({
      orderId: entry.orderId,
      provider: 'sandbox',
      amountFen: entry.feeFen,
      now: clock.now(),
    });
    const down = scriptedProvider(() => 'throw');
    const result = await applyNotification(
      { repos: app.repos, provider: down, now: clock.now },
      {
        notificationId: 'N-DOUBLE-1',
        paymentId: second.paymentId,
        status: 'paid',
        tradeNo: 'T-DOUBLE-2',
        amountFen: entry.feeFen,
        paidAt: clock.now(),
      },
    );
    expect(result).toMatchObject({ accepted: true, outcome: 'duplicatePayment' });
    const refund = (await app.repos.payments.findRefund(`DUP${second.paymentId}`))!;
    expect(refund).toMatchObject({
      orderId: entry.orderId,
      entryId: null,
      paymentId: second.paymentId,
      amountFen: 5_000,
      reason: 'duplicatePayment',
      status: 'pending',
      attempts: 1,
    });
    expect((await cli(clock.now(), 'refunds-owed', '--race', FIXTURE_RACE_ID)).out).toContain(refund.refundNo);

    clock.advance(30_000);
    await carryOutDueRefunds({ repos: app.repos, provider: app.paymentProvider, now: clock.now });
    expect((await app.repos.payments.findRefund(refund.refundNo))?.status).toBe('done');
    // The order keeps its one payment: the second charge was never part of it.
    expect(await app.repos.orders.findById(entry.orderId)).toMatchObject({ status: 3, paidFen: 5_000, refundedFen: 0 });
  });
});

describe('drawing once entry is closed', () => {
  it('draws before signUpEndTime once the organiser closed entry, and not while it is open', async () => {
    const at = T0 + 2 * HOUR;
    for (let i = 0; i < 3; i += 1) await enter('B');
    expect((await cli(T0, 'ballot-commit', FIXTURE_RACE_ID, 'B')).code).toBe(0);
    const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
    await app.repos.races.save({ ...race, signUpOpenStatus: 1 }, at);
    const open = await cli(at, 'ballot-draw', FIXTURE_RACE_ID, 'B');
    expect(open.code).toBe(1);
    expect(open.err).toMatch(/still open until 2025-06-20 20:00:00.*entry-close/);

    expect((await cli(at, 'entry-close', FIXTURE_RACE_ID)).code).toBe(0);
    const drawn = await cli(at, 'ballot-draw', FIXTURE_RACE_ID, 'B');
    expect(drawn.code, drawn.err).toBe(0);
    expect(drawn.out).toMatch(/3 entries, 5 places/);
  });
});
