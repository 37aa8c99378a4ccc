/**
 * Payment of sign-up orders (issue 14 §4) and the order lifecycle: the sandbox cashier, signed and idempotent
 * notifications, the cancellation job at the deadline, the late "paid" after it, and refunds. Entries and
 * orders are made through the repositories (as the submission makes them).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntryChannel, EntrySettings, EntryStatus } from '#contract/entry';
import { poolOf } from '../src/db/entries-repository.ts';
import {
  renderCashier,
  sandboxNotification,
  sandboxSignature,
  SANDBOX_SIGNATURE_HEADER,
} from '../src/lib/payment/sandbox.ts';
import { CANCEL_DUE_EVERY_MS, SANDBOX_REPEAT_MS } from '../src/routes/entry/payment.ts';
import { refundEntries } from '../src/services/entry/order-transitions.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs } from './helpers.ts';

const MINUTE = 60_000;
const clock = fakeClock();
let app: FastifyInstance;

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    { code: 'FC', name: { zh: '全程', en: 'Marathon' }, capacity: 4, feeFen: 12800, model: 'firstCome' },
    { code: 'BL', name: { zh: '半程', en: 'Half' }, capacity: 5, feeFen: 20000, model: 'ballot' },
    { code: 'PD', name: { zh: '十公里', en: '10 km' }, capacity: 10, feeFen: 15000, model: 'payThenDraw' },
  ],
};
const FEES: Record<string, number> = { FC: 12800, BL: 20000, PD: 15000 };

interface Runner {
  id: number;
  token: string;
}
const runners: Runner[] = [];
let certCounter = 0;

async function newRunner(phone: string): Promise<Runner> {
  const id = await app.repos.users.create({ phone }, clock.now());
  const { token } = await app.repos.tokens.issue(id, 24 * 3600_000, clock.now());
  return { id, token };
}

/** An entry and its order awaiting payment, as the submission makes them. */
async function makeOrder(
  who: Runner,
  options: { item: string; channel?: EntryChannel; status?: EntryStatus; minutes?: number; holdsPlace?: boolean },
) {
  const { item, channel = 'public', status = 0, minutes = 30 } = options;
  const holdsPlace = options.holdsPlace ?? item !== 'PD';
  certCounter += 1;
  return app.repos.transaction(async (tx) => {
    if (holdsPlace) expect(await tx.entries.takePlace(FIXTURE_RACE_ID, item, poolOf(channel), 1)).toBe(true);
    const entry = await tx.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode: item,
      channel,
      userId: who.id,
      status,
      holdsPlace,
      name: `跑者${certCounter}`,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: `test-cert-hash-${certCounter}`,
      certNumber: `11010119900101${String(1000 + certCounter)}`,
      phone: '13811112222',
      values: {},
      feeFen: FEES[item]!,
      now: clock.now(),
    });
    const order = await tx.orders.create({
      raceId: FIXTURE_RACE_ID,
      userId: who.id,
      amountFen: FEES[item]!,
      deadlineAt: clock.now() + minutes * MINUTE,
      createdAt: clock.now(),
      lines: [{ entryId: entry.id, amountFen: FEES[item]! }],
    });
    return { entryId: entry.id, entryNo: entry.entryNo, orderId: order.id, orderNo: order.orderNo };
  });
}

const pay = (who: Runner, orderNo: string) =>
  app.inject({ method: 'POST', url: API_PATHS.orderPay, payload: { orderNo }, headers: { token: who.token } });

async function payOrder(who: Runner, orderNo: string) {
  const res = await pay(who, orderNo);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { paymentId: string; cashierUrl: string; orderNo: string; deadlineAt: number };
}

const notify = (rawBody: string, headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: `${API_PATHS.payNotifyPrefix}sandbox`, payload: rawBody, headers });

/** A paid notification of a payment, signed as the sandbox signs it. */
async function paidNotification(paymentId: string, amountFen?: number) {
  const payment = (await app.repos.payments.findByPaymentId(paymentId))!;
  return sandboxNotification(app.secrets.payment, {
    paymentId,
    status: 'paid',
    amountFen: amountFen ?? payment.amountFen,
    paidAt: clock.now(),
  });
}

const order = async (orderId: number) => (await app.repos.orders.findById(orderId))!;
const entry = async (entryId: number) => (await app.repos.entries.findById(entryId))!;
const steps = async (entryId: number) =>
  ((await app.repos.entries.events([entryId])).get(entryId) ?? []).map((e) => e.step);
const taken = async (item: string) =>
  (await app.repos.entries.places(FIXTURE_RACE_ID)).find((p) => p.itemCode === item && p.pool === 'main')!.taken;

/** Runs the job runner's due work after moving the clock. */
async function runJobs(advanceMs: number) {
  clock.advance(advanceMs);
  await app.jobs.runDue();
}

beforeAll(async () => {
  app = await buildTestApp({ env: { RATE_LIMITS: 'off', JOBS: 'off' }, now: clock.now });
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save({ ...race, entry: ENTRY }, clock.now());
  await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
  for (let i = 0; i < 8; i += 1) runners.push(await newRunner(`1390013900${i}`));
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('paying through the sandbox cashier', () => {
  it('shows the cashier page with the amount and registers the entry once paid', async () => {
    const made = await makeOrder(runners[0]!, { item: 'FC' });
    const first = await payOrder(runners[0]!, made.orderNo);
    // One open payment per order, reused.
    expect((await payOrder(runners[0]!, made.orderNo)).paymentId).toBe(first.paymentId);
    expect(first.cashierUrl).toBe(`${API_PATHS.sandboxCashier}?paymentId=${first.paymentId}`);

    const page = await app.inject({ method: 'GET', url: first.cashierUrl });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(page.body).toContain('¥128.00');
    expect(page.body).toContain('沙箱');
    expect(page.body).toContain(made.orderNo);
    expect(page.body).toContain('<dd>2025 测试马拉松</dd>');
    const english = await app.inject({ method: 'GET', url: first.cashierUrl, headers: { cookie: 'language=en' } });
    expect(english.body).toContain('Sandbox');
    // The race's English name in English, not its Chinese one.
    expect(english.body).toContain('<dd>2025 Fixture Marathon</dd>');
    expect(english.body).not.toContain('测试马拉松');
    expect(english.body).toContain('>Pay</button>');
    const token = /name="token" value="([^"]+)"/.exec(page.body)![1]!;

    // A wrong token is refused and changes nothing.
    const forged = await app.inject({
      method: 'POST',
      url: API_PATHS.sandboxDecide,
      payload: `paymentId=${first.paymentId}&token=${'0'.repeat(32)}&decision=pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.statusCode).toBe(403);
    expect((await order(made.orderId)).status).toBe(1);

    const decided = await app.inject({
      method: 'POST',
      url: API_PATHS.sandboxDecide,
      payload: `paymentId=${first.paymentId}&token=${token}&decision=pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(decided.statusCode).toBe(303);
    expect(decided.headers.location).toBe(`/reg/#/my/order/${made.orderNo}?paid=1`);
    const paid = await order(made.orderId);
    expect(paid).toMatchObject({ status: 3, paidFen: 12800 });
    expect(paid.serialNo).toMatch(/^SBT/);
    expect((await entry(made.entryId)).status).toBe(1);
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);

    // The sandbox repeats the notification later, like a real provider: nothing changes the second time.
    await runJobs(SANDBOX_REPEAT_MS + 1000);
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);
    expect((await app.repos.payments.notificationsOf(first.paymentId)).map((n) => n.outcome)).toEqual(['paid']);

    // The order is paid: no second payment, and the cashier page says it has ended.
    expect((await pay(runners[0]!, made.orderNo)).json()).toMatchObject({ code: 409, msgCode: 'orderNotPayable' });
    const ended = await app.inject({ method: 'GET', url: first.cashierUrl });
    expect(ended.body).not.toContain('name="decision"');
  });

  it('sends a runner paying from the mobile site back to the mobile site, in either language', async () => {
    // Pay-then-draw: the order holds no place, so the place counts of the tests below stay as they are.
    const made = await makeOrder(runners[0]!, { item: 'PD' });
    const res = await app.inject({
      method: 'POST',
      url: API_PATHS.orderPay,
      payload: { orderNo: made.orderNo, site: 'mobile' },
      headers: { token: runners[0]!.token },
    });
    const { paymentId, cashierUrl } = res.json().data as { paymentId: string; cashierUrl: string };
    expect(cashierUrl).toBe(`${API_PATHS.sandboxCashier}?paymentId=${paymentId}&site=mobile`);
    const page = await app.inject({ method: 'GET', url: cashierUrl });
    expect(page.body).toContain('name="site" value="mobile"');
    // The language link keeps the site.
    expect(page.body).toContain(`?paymentId=${paymentId}&#38;site=mobile&#38;lang=en`);
    const token = /name="token" value="([^"]+)"/.exec(page.body)![1]!;
    const decided = await app.inject({
      method: 'POST',
      url: API_PATHS.sandboxDecide,
      payload: `paymentId=${paymentId}&token=${token}&decision=pay&site=mobile`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(decided.statusCode).toBe(303);
    expect(decided.headers.location).toBe(`/m/#/my/order/${made.orderNo}?paid=1`);
    // The ended cashier page's way back leads to the mobile site too (in English here).
    const ended = await app.inject({ method: 'GET', url: `${cashierUrl}&lang=en` });
    expect(ended.body).toContain(`href="/m/#/my/order/${made.orderNo}?paid=1"`);
    expect(ended.body).toContain('lang="en"');
  });

  it('refuses a site it does not know, with the field named', async () => {
    const res = await app.inject({
      method: 'POST',
      url: API_PATHS.orderPay,
      payload: { orderNo: 'RS1', site: 'https://evil.example/' },
      headers: { token: runners[0]!.token },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400 });
    expect(res.json().msg).toContain('site');
    const cashier = await app.inject({ method: 'GET', url: `${API_PATHS.sandboxCashier}?paymentId=X&site=elsewhere` });
    expect(cashier.statusCode).toBe(400);
  });

  it('refuses orderPay without login, for another account and after the deadline', async () => {
    const made = await makeOrder(runners[1]!, { item: 'PD', minutes: 15 });
    const anonymous = await app.inject({ method: 'POST', url: API_PATHS.orderPay, payload: { orderNo: made.orderNo } });
    expect(anonymous.json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
    expect((await pay(runners[2]!, made.orderNo)).json()).toMatchObject({ code: 404, msgCode: 'orderNotFound' });
    clock.advance(16 * MINUTE);
    expect((await pay(runners[1]!, made.orderNo)).json()).toMatchObject({ code: 409, msgCode: 'orderPayExpired' });
    await runJobs(CANCEL_DUE_EVERY_MS);
    expect((await order(made.orderId)).status).toBe(4);
  });

  it('keeps a pay-then-draw entry submitted once paid, and a failed payment changes nothing', async () => {
    const made = await makeOrder(runners[1]!, { item: 'PD' });
    const { paymentId, cashierUrl } = await payOrder(runners[1]!, made.orderNo);
    const page = await app.inject({ method: 'GET', url: cashierUrl });
    const token = /name="token" value="([^"]+)"/.exec(page.body)![1]!;
    const failed = await app.inject({
      method: 'POST',
      url: API_PATHS.sandboxDecide,
      payload: { paymentId, token, decision: 'fail' },
    });
    expect(failed.headers.location).toBe(`/reg/#/my/order/${made.orderNo}?paid=0`);
    expect((await order(made.orderId)).status).toBe(1);
    expect((await app.repos.payments.findByPaymentId(paymentId))!.status).toBe('failed');
    // The order as its runner reads it says the payment failed (the order page offers paying again).
    const shown = async () =>
      (
        await app.inject({
          method: 'GET',
          url: `${API_PATHS.orderGet}?orderNo=${made.orderNo}`,
          headers: { token: runners[1]!.token },
        })
      ).json().data;
    expect((await shown()).paymentFailed).toBe(true);
    // A new attempt, then paid.
    const again = await payOrder(runners[1]!, made.orderNo);
    expect((await shown()).paymentFailed).toBeUndefined();
    expect(again.paymentId).not.toBe(paymentId);
    const n = await paidNotification(again.paymentId);
    expect((await notify(n.rawBody, n.headers)).json()).toMatchObject({ code: 0 });
    expect((await order(made.orderId)).status).toBe(3);
    expect((await entry(made.entryId)).status).toBe(0);
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);
  });
});

describe('the cashier page', () => {
  it('escapes what it shows and answers 404 for an unknown payment', async () => {
    const html = renderCashier(
      'en',
      {
        paymentId: 'PAY1',
        orderNo: 'RS1',
        subject: { zh: '比赛', en: '<script>alert(1)</script> & "race"' },
        amountFen: 1,
        expiresAt: 0,
        payable: true,
        token: 't',
        returnUrl: '/reg/',
      },
      'PAY1',
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;race&#34;');
    expect(html).toContain('¥0.01');
    const missing = await app.inject({ method: 'GET', url: `${API_PATHS.sandboxCashier}?paymentId=PAY0%3Cb%3E` });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(missing.body).not.toContain('<b>');
    expect(missing.body).toContain('找不到此支付');
  });
});

describe('notifications', () => {
  it('refuses a bad signature with a 400 envelope and changes nothing', async () => {
    const made = await makeOrder(runners[2]!, { item: 'BL', status: 1 });
    const { paymentId } = await payOrder(runners[2]!, made.orderNo);
    const n = await paidNotification(paymentId);
    const cases: [string, Record<string, string>][] = [
      [n.rawBody, { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: 'f'.repeat(64) }],
      [n.rawBody, { 'content-type': 'application/json' }],
      [n.rawBody.replace('"paid"', '"paid" '), n.headers],
      ['not json', { 'content-type': 'text/plain', [SANDBOX_SIGNATURE_HEADER]: sandboxSignature('wrong', 'not json') }],
      [
        'not json',
        { 'content-type': 'text/plain', [SANDBOX_SIGNATURE_HEADER]: sandboxSignature(app.secrets.payment, 'not json') },
      ],
    ];
    // No content type at all is read as the raw body too.
    const bare = await app.inject({ method: 'POST', url: `${API_PATHS.payNotifyPrefix}sandbox`, payload: n.rawBody });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ code: 400, msgCode: 'verificationFailed' });
    for (const [body, headers] of cases) {
      const res = await notify(body, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 400, msgCode: 'verificationFailed', data: null });
    }
    expect((await order(made.orderId)).status).toBe(1);
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([]);
  });

  it('acts on the same notification once when it comes twice', async () => {
    const made = await makeOrder(runners[2]!, { item: 'BL', status: 1 });
    const { paymentId } = await payOrder(runners[2]!, made.orderNo);
    const n = await paidNotification(paymentId);
    const first = await notify(n.rawBody, n.headers);
    const second = await notify(n.rawBody, n.headers);
    expect(first.json()).toMatchObject({ code: 0 });
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.body).toBe(first.body);
    // A ballot winner stays won; the timeline gets one 'paid'.
    expect((await entry(made.entryId)).status).toBe(1);
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);
    expect(await app.repos.payments.notificationsOf(paymentId)).toHaveLength(1);
  });

  it('acts once on 5 parallel deliveries of one notification', async () => {
    const made = await makeOrder(runners[3]!, { item: 'FC' });
    const { paymentId } = await payOrder(runners[3]!, made.orderNo);
    const n = await paidNotification(paymentId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => notify(n.rawBody, n.headers)));
    for (const res of answers) expect(res.json()).toMatchObject({ code: 0 });
    expect(await order(made.orderId)).toMatchObject({ status: 3, paidFen: 12800 });
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([
      { notificationId: JSON.parse(n.rawBody).notificationId, outcome: 'paid' },
    ]);
  });

  it('refuses a notification whose amount differs from the payment', async () => {
    const made = await makeOrder(runners[4]!, { item: 'PD' });
    const { paymentId } = await payOrder(runners[4]!, made.orderNo);
    const n = await paidNotification(paymentId, 1);
    const res = await notify(n.rawBody, n.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, msgCode: 'verificationFailed' });
    expect((await order(made.orderId)).status).toBe(1);
    expect((await app.repos.payments.findByPaymentId(paymentId))!.status).toBe('created');
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([]);
  });
});

describe('the cancellation job and late payments', () => {
  it('cancels an unpaid order at its deadline and gives its place back', async () => {
    // The orders of the tests above that were left unpaid are cancelled first.
    await runJobs(31 * MINUTE);
    const before = await taken('BL');
    const made = await makeOrder(runners[5]!, { item: 'BL', status: 1, minutes: 60 });
    expect(await taken('BL')).toBe(before + 1);
    await runJobs(59 * MINUTE);
    expect((await order(made.orderId)).status).toBe(1);
    await runJobs(2 * MINUTE);
    expect((await order(made.orderId)).status).toBe(4);
    expect((await entry(made.entryId)).status).toBe(3);
    expect((await entry(made.entryId)).holdsPlace).toBe(false);
    expect(await steps(made.entryId)).toEqual(['submitted', 'cancelled']);
    expect(await taken('BL')).toBe(before);
    // A second run changes nothing.
    await runJobs(CANCEL_DUE_EVERY_MS);
    expect(await steps(made.entryId)).toEqual(['submitted', 'cancelled']);
    expect(await taken('BL')).toBe(before);
  });

  it('reinstates a late payment while a place is free', async () => {
    const before = await taken('FC');
    const made = await makeOrder(runners[6]!, { item: 'FC', minutes: 30 });
    const { paymentId } = await payOrder(runners[6]!, made.orderNo);
    await runJobs(31 * MINUTE);
    expect((await order(made.orderId)).status).toBe(4);
    expect(await taken('FC')).toBe(before);
    expect((await app.repos.payments.findByPaymentId(paymentId))!.status).toBe('closed');

    const n = await paidNotification(paymentId);
    expect((await notify(n.rawBody, n.headers)).json()).toMatchObject({ code: 0 });
    expect(await order(made.orderId)).toMatchObject({ status: 3, paidFen: 12800 });
    expect((await entry(made.entryId)).status).toBe(1);
    expect((await entry(made.entryId)).holdsPlace).toBe(true);
    expect(await taken('FC')).toBe(before + 1);
    expect(await steps(made.entryId)).toEqual(['submitted', 'cancelled', 'paid']);
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([
      { notificationId: JSON.parse(n.rawBody).notificationId, outcome: 'reinstated' },
    ]);
    // Told it was cancelled, the runner is told it stands again: paid.
    const told = (await app.repos.outbox.latest(50)).filter((m) => m.body.includes(made.orderNo));
    expect(told.some((m) => m.body.includes(`order ${made.orderNo} is paid`))).toBe(true);
  });

  it('refunds a late payment when the places are gone, and the entry stays cancelled', async () => {
    // FC (capacity 4) holds three paid entries from the tests above: this one takes the last place.
    const made = await makeOrder(runners[7]!, { item: 'FC', minutes: 30 });
    expect(await taken('FC')).toBe(4);
    const { paymentId } = await payOrder(runners[7]!, made.orderNo);
    await runJobs(31 * MINUTE);
    expect((await order(made.orderId)).status).toBe(4);
    // Someone else takes the place given back.
    const other = await makeOrder(runners[5]!, { item: 'FC' });
    expect(await taken('FC')).toBe(4);

    const n = await paidNotification(paymentId);
    expect((await notify(n.rawBody, n.headers)).json()).toMatchObject({ code: 0 });
    expect(await order(made.orderId)).toMatchObject({ status: 5, paidFen: 12800, refundedFen: 12800 });
    expect((await entry(made.entryId)).status).toBe(3);
    expect(await steps(made.entryId)).toEqual(['submitted', 'cancelled', 'refunded']);
    expect(await taken('FC')).toBe(4);
    const refunds = await app.repos.payments.refundsOf(made.orderId);
    expect(refunds).toMatchObject([{ entryId: made.entryId, amountFen: 12800, reason: 'latePayment', status: 'done' }]);
    expect((await order(other.orderId)).status).toBe(1);
  });
});

describe('refunds', () => {
  it('refunds an entry once however often it is asked', async () => {
    const made = await makeOrder(runners[4]!, { item: 'PD' });
    const { paymentId } = await payOrder(runners[4]!, made.orderNo);
    const n = await paidNotification(paymentId);
    expect((await notify(n.rawBody, n.headers)).json()).toMatchObject({ code: 0 });
    // A pay-then-draw loser.
    expect(await app.repos.entries.setStatus(made.entryId, [0], 2, 'notWon', clock.now())).toBe(true);
    const request = { orderId: made.orderId, entryIds: [made.entryId], reason: 'notWon', now: clock.now };
    const [a, b] = await Promise.all([
      refundEntries(app.repos, app.paymentProvider, request),
      refundEntries(app.repos, app.paymentProvider, request),
    ]);
    expect(a.refundedFen + b.refundedFen).toBe(15000);
    const c = await refundEntries(app.repos, app.paymentProvider, request);
    expect(c).toEqual({ refundedFen: 0, pending: 0 });
    expect(await order(made.orderId)).toMatchObject({ status: 5, refundedFen: 15000 });
    expect(await app.repos.payments.refundsOf(made.orderId)).toHaveLength(1);
    expect((await entry(made.entryId)).status).toBe(2);
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid', 'notWon', 'refunded']);
  });

  it('moves an entry under refund review to refunded', async () => {
    const made = await makeOrder(runners[3]!, { item: 'BL', status: 1 });
    const { paymentId } = await payOrder(runners[3]!, made.orderNo);
    const n = await paidNotification(paymentId);
    await notify(n.rawBody, n.headers);
    expect(await app.repos.entries.setStatus(made.entryId, [1], 4, 'refundRequested', clock.now())).toBe(true);
    const request = { orderId: made.orderId, entryIds: [made.entryId], reason: 'requested', now: clock.now };
    expect(await refundEntries(app.repos, app.paymentProvider, request)).toEqual({ refundedFen: 20000, pending: 0 });
    expect(await refundEntries(app.repos, app.paymentProvider, request)).toEqual({ refundedFen: 0, pending: 0 });
    expect((await entry(made.entryId)).status).toBe(5);
    expect(await order(made.orderId)).toMatchObject({ status: 5, refundedFen: 20000 });
  });
});
