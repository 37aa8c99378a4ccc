/**
 * Several payment providers at once (issue 31 §3): PAYMENT_PROVIDER lists them (the first the default), the
 * runner chooses one on the order page (orderPay's method), and the money goes back through the provider that
 * took it (a refund, a double payment, closing an open payment), even once that provider is switched off. The
 * second provider is a fake of the interface in this file ("fakepay", its notifications signed with a key from
 * the environment, its calls recorded), given to buildApp like an organiser's own provider.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntrySettings, OrderPayAnswer, OrderView, PaySite } from '#contract/entry';
import { poolOf } from '../src/db/entries-repository.ts';
import type { CreatePaymentInput, PaymentProviderFactory, RefundInput } from '../src/lib/payment/provider.ts';
import { sandboxNotification } from '../src/lib/payment/sandbox.ts';
import { cancelDue, refundEntries } from '../src/services/entry/order-transitions.ts';
import { carryOutDueRefunds } from '../src/services/entry/refunds-owed.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, tempDir } from './helpers.ts';

const MINUTE = 60_000;
const clock = fakeClock();
const FEE = 12_800;
const ENTRY: EntrySettings = {
  allowMultiple: true,
  items: [{ code: 'FC', name: { zh: '全程', en: 'Marathon' }, capacity: 50, feeFen: FEE, model: 'firstCome' }],
};

/** What the fake provider was asked. */
const calls = {
  refunds: [] as RefundInput[],
  closes: [] as string[],
  made: 0,
  created: [] as CreatePaymentInput[],
  /** createPayment throws (the provider down) while set. */
  down: false,
};

/** A provider of the interface: its key from FAKEPAY_KEY (missing: it cannot be made), a QR code to scan. */
const fakepay: PaymentProviderFactory = (context) => {
  const key = context.env.FAKEPAY_KEY;
  if (!key) throw new Error('FAKEPAY_KEY is not set');
  calls.made += 1;
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('hex');
  return {
    name: 'fakepay',
    async createPayment(input) {
      if (calls.down) throw new Error('connect ECONNREFUSED fakepay');
      calls.created.push(input);
      return { cashierUrl: '', qrContent: `fakepay://pay/${input.paymentId}`, display: 'qr' };
    },
    async verifyNotification(headers, rawBody) {
      if (headers['x-fake-signature'] !== sign(rawBody)) return { ok: false, reason: 'signature' };
      return { ok: true, notification: JSON.parse(rawBody) };
    },
    query: async () => ({ status: 'unknown', tradeNo: null, amountFen: null, paidAt: null }),
    async refund(input) {
      calls.refunds.push(input);
      return { status: 'done', refundTradeNo: `FPR${input.refundNo}` };
    },
    async close(paymentId) {
      calls.closes.push(paymentId);
    },
    notifyAnswer: (accepted) => ({
      statusCode: accepted ? 200 : 400,
      contentType: 'text/plain',
      body: accepted ? 'OK' : 'NO',
    }),
  };
};
const FAKE_KEY = 'fake-key-of-the-test';
const fakeNotification = (paymentId: string, amountFen: number) => {
  const rawBody = JSON.stringify({
    notificationId: `FN${randomUUID().replaceAll('-', '')}`,
    paymentId,
    status: 'paid',
    tradeNo: `FPT${paymentId}`,
    amountFen,
    paidAt: clock.now(),
  });
  const signature = createHmac('sha256', FAKE_KEY).update(rawBody).digest('hex');
  return { rawBody, headers: { 'content-type': 'application/json', 'x-fake-signature': signature } };
};

const dataDir = tempDir();
let app: FastifyInstance;
let people = 0;

const build = (env: Record<string, string>) =>
  buildTestApp({
    dataDir,
    env: { RATE_LIMITS: 'off', JOBS: 'off', ...env },
    now: clock.now,
    paymentProviders: { fakepay },
  });

/** A runner with an entry and its order awaiting payment. */
async function makeOrder(target = app) {
  people += 1;
  const userId = await target.repos.users.create({ phone: `1370000${String(people).padStart(4, '0')}` }, clock.now());
  const { token } = await target.repos.tokens.issue(userId, 24 * 3600_000, clock.now());
  const made = await target.repos.transaction(async (tx) => {
    expect(await tx.entries.takePlace(FIXTURE_RACE_ID, 'FC', poolOf('public'), 1)).toBe(true);
    const entry = await tx.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode: 'FC',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: true,
      name: `跑者${people}`,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: `providers-hash-${people}`,
      certNumber: `11010119900101${String(2000 + people)}`,
      phone: '13811112222',
      values: {},
      feeFen: FEE,
      now: clock.now(),
    });
    const order = await tx.orders.create({
      raceId: FIXTURE_RACE_ID,
      userId,
      amountFen: FEE,
      deadlineAt: clock.now() + 30 * MINUTE,
      createdAt: clock.now(),
      lines: [{ entryId: entry.id, amountFen: FEE }],
    });
    return { entryId: entry.id, orderId: order.id, orderNo: order.orderNo };
  });
  return { ...made, token };
}

const payWith = (target: FastifyInstance, token: string, orderNo: string, method?: string, site?: PaySite) =>
  target.inject({
    method: 'POST',
    url: API_PATHS.orderPay,
    payload: { orderNo, ...(method === undefined ? {} : { method }), ...(site === undefined ? {} : { site }) },
    headers: { token, host: 'race.example.com' },
  });

/** Pays an order with fakepay: orderPay with the method, then fakepay's signed notification. */
async function payByFake(target: FastifyInstance, made: { token: string; orderNo: string }) {
  const answer = (await payWith(target, made.token, made.orderNo, 'fakepay')).json().data as OrderPayAnswer;
  const n = fakeNotification(answer.paymentId, FEE);
  const res = await target.inject({
    method: 'POST',
    url: `${API_PATHS.payNotifyPrefix}fakepay`,
    payload: n.rawBody,
    headers: n.headers,
  });
  expect(res.body).toBe('OK');
  return answer;
}

beforeAll(async () => {
  app = await build({ PAYMENT_PROVIDER: 'sandbox, fakepay', FAKEPAY_KEY: FAKE_KEY });
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save({ ...race, entry: ENTRY }, clock.now());
  await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('several payment providers, the runner choosing', () => {
  it('lists the enabled methods on the order, the first the default', async () => {
    const made = await makeOrder();
    const res = await app.inject({
      method: 'GET',
      url: API_PATHS.orderGet,
      query: { orderNo: made.orderNo },
      headers: { token: made.token },
    });
    expect((res.json().data as OrderView).payMethods).toEqual(['sandbox', 'fakepay']);
    expect(app.payments.default.name).toBe('sandbox');
  });

  it("pays with the method chosen (the sandbox's page, or fakepay's QR code), refuses one not enabled", async () => {
    const made = await makeOrder();
    const byDefault = (await payWith(app, made.token, made.orderNo)).json().data as OrderPayAnswer;
    expect(byDefault).toMatchObject({ method: 'sandbox', display: 'redirect', amountFen: FEE });
    expect(byDefault.cashierUrl).toContain(API_PATHS.sandboxCashier);
    const byFake = (await payWith(app, made.token, made.orderNo, 'fakepay')).json().data as OrderPayAnswer;
    expect(byFake).toMatchObject({ method: 'fakepay', display: 'qr', qrContent: `fakepay://pay/${byFake.paymentId}` });
    expect(byFake.paymentId).not.toBe(byDefault.paymentId);
    expect((await app.repos.payments.findByPaymentId(byFake.paymentId))?.provider).toBe('fakepay');
    for (const method of ['alipay', 'Bad Name!']) {
      const refused = (await payWith(app, made.token, made.orderNo, method)).json();
      expect(refused.code, method).toBe(400);
    }
    expect((await payWith(app, made.token, made.orderNo, 'alipay')).json().msgCode).toBe('payMethodUnavailable');
  });

  it('refunds a payment taken by fakepay through fakepay while the sandbox is the default', async () => {
    const made = await makeOrder();
    const paid = await payByFake(app, made);
    expect((await app.repos.orders.findById(made.orderId))?.status).toBe(3);
    const result = await refundEntries(app.repos, app.payments, {
      orderId: made.orderId,
      entryIds: [made.entryId],
      reason: 'organiser',
      now: clock.now,
    });
    expect(result).toEqual({ refundedFen: FEE, pending: 0 });
    expect(calls.refunds.at(-1)).toMatchObject({
      paymentId: paid.paymentId,
      tradeNo: `FPT${paid.paymentId}`,
      amountFen: FEE,
    });
  });

  it('refunds a double payment through the provider of the second charge, and closes each open payment at its own', async () => {
    const made = await makeOrder();
    const bySandbox = (await payWith(app, made.token, made.orderNo)).json().data as OrderPayAnswer;
    const byFake = (await payWith(app, made.token, made.orderNo, 'fakepay')).json().data as OrderPayAnswer;
    const n = sandboxNotification(app.secrets.payment, {
      paymentId: bySandbox.paymentId,
      status: 'paid',
      amountFen: FEE,
      paidAt: clock.now(),
    });
    await app.inject({
      method: 'POST',
      url: `${API_PATHS.payNotifyPrefix}sandbox`,
      payload: n.rawBody,
      headers: n.headers,
    });
    const before = calls.refunds.length;
    const second = fakeNotification(byFake.paymentId, FEE);
    const res = await app.inject({
      method: 'POST',
      url: `${API_PATHS.payNotifyPrefix}fakepay`,
      payload: second.rawBody,
      headers: second.headers,
    });
    expect(res.body).toBe('OK');
    expect(calls.refunds.slice(before)).toMatchObject([
      { refundNo: `DUP${byFake.paymentId}`, paymentId: byFake.paymentId },
    ]);

    // An unpaid order with an open attempt at each: at the deadline each is closed at its own provider.
    const unpaid = await makeOrder();
    await payWith(app, unpaid.token, unpaid.orderNo);
    const open = (await payWith(app, unpaid.token, unpaid.orderNo, 'fakepay')).json().data as OrderPayAnswer;
    clock.advance(31 * MINUTE);
    expect(await cancelDue({ repos: app.repos, provider: app.payments, now: clock.now })).toBeGreaterThanOrEqual(1);
    expect(calls.closes).toContain(open.paymentId);
  });

  it('asks the provider once for a due refund when two sweeps run in parallel', async () => {
    const made = await makeOrder();
    const paid = await payByFake(app, made);
    await app.repos.transaction((tx) =>
      tx.payments.addRefund({
        orderId: made.orderId,
        entryId: made.entryId,
        amountFen: FEE,
        reason: 'organiser',
        paymentId: paid.paymentId,
        now: clock.now(),
      }),
    );
    const before = calls.refunds.length;
    const deps = { repos: app.repos, provider: app.payments, now: clock.now };
    const [a, b] = await Promise.all([carryOutDueRefunds(deps), carryOutDueRefunds(deps)]);
    expect(a.done + b.done).toBe(1);
    expect(calls.refunds.slice(before).map((r) => r.paymentId)).toEqual([paid.paymentId]);
  });

  it("answers a notification only on an enabled (or former) provider's path", async () => {
    const res = await app.inject({ method: 'POST', url: `${API_PATHS.payNotifyPrefix}nosuch`, payload: '{}' });
    expect(res.statusCode).toBe(404);
  });
});

describe("the provider's side of paying", () => {
  it('opens one attempt per site: the desktop and a phone each get their own, each reused from its site', async () => {
    const made = await makeOrder();
    const pay = async (site?: PaySite) =>
      ((await payWith(app, made.token, made.orderNo, 'fakepay', site)).json().data as OrderPayAnswer).paymentId;
    const desktop = await pay();
    const phone = await pay('mobile');
    expect(phone).not.toBe(desktop);
    expect(await pay('desktop')).toBe(desktop);
    expect(await pay('mobile')).toBe(phone);
    expect(calls.created.at(-1)).toMatchObject({ paymentId: phone, site: 'mobile' });
  });

  it("gives the provider absolute URLs on the runner's origin, the return without '#', which leads to the order page", async () => {
    const made = await makeOrder();
    await payWith(app, made.token, made.orderNo, 'fakepay', 'mobile');
    const input = calls.created.at(-1)!;
    expect(input.notifyUrl).toBe(`http://race.example.com${API_PATHS.payNotifyPrefix}fakepay`);
    expect(input.returnUrl).toBe(
      `http://race.example.com${API_PATHS.payReturn}?orderNo=${made.orderNo}&site=mobile&paid=1`,
    );
    expect(input.returnUrl).not.toContain('#');
    const back = await app.inject({ method: 'GET', url: input.returnUrl.replace('http://race.example.com', '') });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/m/#/my/order/${made.orderNo}?paid=1`);
    const bad = await app.inject({ method: 'GET', url: `${API_PATHS.payReturn}?orderNo=${encodeURIComponent('<x>')}` });
    expect(bad.statusCode).toBe(400);
  });

  it("answers 502 in the runner's words when the provider does not answer, and the next try goes through", async () => {
    const made = await makeOrder();
    calls.down = true;
    try {
      const refused = await payWith(app, made.token, made.orderNo, 'fakepay');
      expect(refused.statusCode).toBe(200);
      expect(refused.json()).toMatchObject({ code: 502, msgCode: 'payProviderUnreachable' });
    } finally {
      calls.down = false;
    }
    const answer = (await payWith(app, made.token, made.orderNo, 'fakepay')).json();
    expect(answer).toMatchObject({ code: 0, data: { method: 'fakepay' } });
    expect((await app.repos.orders.findById(made.orderId))?.status).toBe(1);
  });
});

describe('a provider switched off since', () => {
  it('still refunds what it took while its keys are set; otherwise the refund stays owed, saying why', async () => {
    const made = await makeOrder();
    const paid = await payByFake(app, made);
    await app.close();

    // fakepay no longer enabled, its key still set: the refund goes to it.
    app = await build({ PAYMENT_PROVIDER: 'sandbox', FAKEPAY_KEY: FAKE_KEY });
    expect(app.payments.enabled.map((p) => p.name)).toEqual(['sandbox']);
    const before = calls.refunds.length;
    const first = await refundEntries(app.repos, app.payments, {
      orderId: made.orderId,
      entryIds: [made.entryId],
      reason: 'organiser',
      now: clock.now,
    });
    expect(first).toEqual({ refundedFen: FEE, pending: 0 });
    expect(calls.refunds.slice(before)).toMatchObject([{ paymentId: paid.paymentId }]);
    await app.close();

    // Its key gone: the refund is recorded, stays owed, and its last error says why.
    app = await build({ PAYMENT_PROVIDER: 'sandbox' });
    const other = await makeOrder();
    const otherPaid = await app.repos.transaction(async (tx) => {
      const payment = await tx.payments.create({
        orderId: other.orderId,
        provider: 'fakepay',
        amountFen: FEE,
        now: clock.now(),
      });
      await tx.payments.markPaid(payment.paymentId, `FPT${payment.paymentId}`, clock.now());
      await tx.orders.markPaid(other.orderId, {
        paidFen: FEE,
        paidAt: clock.now(),
        serialNo: `FPT${payment.paymentId}`,
      });
      return payment;
    });
    const owed = await refundEntries(app.repos, app.payments, {
      orderId: other.orderId,
      entryIds: [other.entryId],
      reason: 'organiser',
      now: clock.now,
    });
    expect(owed).toEqual({ refundedFen: 0, pending: 1 });
    const [refund] = (await app.repos.payments.refundsOf(other.orderId)).filter(
      (r) => r.paymentId === otherPaid.paymentId,
    );
    expect(refund?.status).toBe('pending');
    expect(refund?.lastError).toMatch(/fakepay.*not enabled.*FAKEPAY_KEY is not set/);
    // The sweep keeps it owed (not lost) until the provider can be made again.
    clock.advance(2 * MINUTE);
    expect(await carryOutDueRefunds({ repos: app.repos, provider: app.payments, now: clock.now })).toEqual({
      done: 0,
      pending: 1,
    });
  });

  it('refuses to start on an unknown or repeated name, naming it', async () => {
    await expect(build({ PAYMENT_PROVIDER: 'sandbox,nosuch' })).rejects.toThrow(/nosuch/);
    await expect(build({ PAYMENT_PROVIDER: 'sandbox,sandbox' })).rejects.toThrow(/PAYMENT_PROVIDER/);
    await expect(build({ PAYMENT_PROVIDER: 'sandbox,fakepay' })).rejects.toThrow(/FAKEPAY_KEY/);
  });
});
