/**
 * Alipay as the payment provider (issue 31 §1, §3): the whole flow through buildApp with PAYMENT_PROVIDER=alipay
 * against a fake Alipay gateway (test/fakes/alipay-fake.ts: a local HTTP server that checks our RSA2 signatures
 * and signs with keys generated here). The same outcomes the sandbox guarantees (entry-payment.test.ts): a
 * notification acted on once, a forged one or one of the wrong amount refused and nothing recorded, a late one
 * reinstated or refunded, every refund carried out once under its number. Then the keys at start, and the bill.
 */
import { generateKeyPairSync } from 'node:crypto';
import { crc32 as crc32Of } from 'node:zlib';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntryChannel, EntrySettings, EntryStatus, PaySite } from '#contract/entry';
import { poolOf } from '../src/db/entries-repository.ts';
import { alipaySettings, createAlipayProvider } from '../src/lib/payment/alipay.ts';
import { chinaTime, fenToYuan, parseChinaTime, yuanToFen } from '../src/lib/payment/china-format.ts';
import { BillFormatError, BillNotReadyError, type BillLine } from '../src/lib/payment/provider.ts';
import { unzip, UnzipError } from '../src/lib/unzip.ts';
import { zip } from '../src/lib/xlsx.ts';
import { PENDING_REFUNDS_EVERY_MS } from '../src/routes/entry/payment.ts';
import { refundEntries } from '../src/services/entry/order-transitions.ts';
import { refundRetryMs } from '../src/services/entry/refunds-owed.ts';
import { startAlipayFake, type AlipayFake } from './fakes/alipay-fake.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, FIXTURES, removeTempDirs, tempDir } from './helpers.ts';

const MINUTE = 60_000;
const DAY = 24 * 3600_000;
const clock = fakeClock();
let app: FastifyInstance;
let fake: AlipayFake;

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    { code: 'FC', name: { zh: '全程', en: 'Marathon' }, capacity: 3, feeFen: 12800, model: 'firstCome' },
    { code: 'PD', name: { zh: '十公里', en: '10 km' }, capacity: 20, feeFen: 15050, model: 'payThenDraw' },
  ],
};
const FEES: Record<string, number> = { FC: 12800, PD: 15050 };

interface Runner {
  id: number;
  token: string;
}
const runners: Runner[] = [];
let certCounter = 0;

/** An entry and its order awaiting payment, as the submission makes them. */
async function makeOrder(who: Runner, options: { item: string; status?: EntryStatus; minutes?: number }) {
  const { item, status = 0, minutes = 30 } = options;
  const channel: EntryChannel = 'public';
  const holdsPlace = item !== 'PD';
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
      certHash: `alipay-cert-hash-${certCounter}`,
      certNumber: `11010119900101${String(2000 + certCounter)}`,
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
    return { entryId: entry.id, orderId: order.id, orderNo: order.orderNo, deadlineAt: clock.now() + minutes * MINUTE };
  });
}

async function payOrder(who: Runner, orderNo: string, site: PaySite = 'desktop') {
  const res = await app.inject({
    method: 'POST',
    url: API_PATHS.orderPay,
    payload: { orderNo, site },
    headers: { token: who.token },
  });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { paymentId: string; cashierUrl: string; qrContent: string; deadlineAt: number };
}

/** The cashier URL's parameters and its biz_content. */
function cashierParams(cashierUrl: string) {
  const params = Object.fromEntries(new URL(cashierUrl).searchParams);
  return { params, biz: JSON.parse(params.biz_content!) as Record<string, string> };
}

/** The runner's browser opens the cashier (the fake checks our signature and makes the trade). */
async function openCashier(cashierUrl: string) {
  const page = await fetch(cashierUrl);
  return { status: page.status, html: await page.text() };
}

/** A notification posted as Alipay posts it (a form), answered in text. */
const notify = async (body: string) =>
  (
    await app.inject({
      method: 'POST',
      url: `${API_PATHS.payNotifyPrefix}alipay`,
      payload: body,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    })
  ).body;

/** China time as Alipay writes it, computed here on its own. */
const chinaText = (at: number) => new Date(at + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

const order = async (orderId: number) => (await app.repos.orders.findById(orderId))!;
const payment = async (paymentId: string) => (await app.repos.payments.findByPaymentId(paymentId))!;
const steps = async (entryId: number) =>
  ((await app.repos.entries.events([entryId])).get(entryId) ?? []).map((e) => e.step);

async function runJobs(advanceMs: number) {
  clock.advance(advanceMs);
  await app.jobs.runDue();
}

/** An order paid through the fake cashier. */
async function paidOrder(who: Runner, item: string) {
  const made = await makeOrder(who, { item });
  const { paymentId, cashierUrl } = await payOrder(who, made.orderNo);
  await openCashier(cashierUrl);
  await fake.decide(paymentId, 'pay');
  expect((await order(made.orderId)).status).toBe(3);
  return { ...made, paymentId };
}

beforeAll(async () => {
  fake = await startAlipayFake({ now: clock.now });
  app = await buildTestApp({
    env: { RATE_LIMITS: 'off', JOBS: 'off', PAYMENT_PROVIDER: 'alipay', ...fake.env },
    now: clock.now,
  });
  fake.deliverWith(async (url, body) => {
    expect(new URL(url).pathname).toBe(`${API_PATHS.payNotifyPrefix}alipay`);
    return notify(body);
  });
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save({ ...race, entry: ENTRY }, clock.now());
  await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
  for (let i = 0; i < 8; i += 1) {
    const id = await app.repos.users.create({ phone: `1370013700${i}` }, clock.now());
    const { token } = await app.repos.tokens.issue(id, 30 * DAY, clock.now());
    runners.push({ id, token });
  }
});

afterAll(async () => {
  await app.close();
  await fake.close();
  removeTempDirs();
});

describe('paying through Alipay', () => {
  it('sends a desktop runner to 电脑网站支付, its time limit the deadline, and registers the entry once paid', async () => {
    const made = await makeOrder(runners[0]!, { item: 'FC' });
    const pay = await payOrder(runners[0]!, made.orderNo);
    expect(pay.cashierUrl.startsWith(`${fake.gateway}?`)).toBe(true);
    expect(pay.qrContent).toBe(pay.cashierUrl);
    const { params, biz } = cashierParams(pay.cashierUrl);
    expect(params).toMatchObject({ method: 'alipay.trade.page.pay', app_id: fake.appId, sign_type: 'RSA2' });
    expect(params.notify_url).toMatch(/^http:\/\/localhost(:80)?\/pay\/notify\/alipay$/);
    expect(params.return_url).toMatch(new RegExp(`/pay/return\\?orderNo=${made.orderNo}&site=desktop&paid=1$`));
    expect(biz).toMatchObject({
      out_trade_no: pay.paymentId,
      total_amount: '128.00',
      product_code: 'FAST_INSTANT_TRADE_PAY',
      time_expire: chinaText(made.deadlineAt),
    });
    expect(biz.time_expire).toBe('2025-06-16 10:30:00');
    // Nothing at Alipay until the runner opens the cashier: nothing taken.
    expect(await app.paymentProvider.query(pay.paymentId)).toEqual({
      status: 'created',
      tradeNo: null,
      amountFen: null,
      paidAt: null,
    });
    // The fake checked our signature: the cashier opens; a tampered amount does not.
    const page = await openCashier(pay.cashierUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain('¥128.00');
    const tampered = pay.cashierUrl.replace(encodeURIComponent('"128.00"'), encodeURIComponent('"1.00"'));
    expect(tampered).not.toBe(pay.cashierUrl);
    expect((await openCashier(tampered)).status).toBe(400);
    expect((await app.paymentProvider.query(pay.paymentId)).status).toBe('created');

    const decided = await fake.decide(pay.paymentId, 'pay');
    expect(decided.location.startsWith(params.return_url!)).toBe(true);
    expect(fake.deliveries.map((d) => d.answer)).toEqual(['success']);
    const trade = fake.trades.get(pay.paymentId)!;
    expect(await order(made.orderId)).toMatchObject({ status: 3, paidFen: 12800, serialNo: trade.tradeNo });
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);
    const notifyId = new URLSearchParams(fake.deliveries[0]!.body).get('notify_id');
    expect(await app.repos.payments.notificationsOf(pay.paymentId)).toEqual([
      { notificationId: notifyId, outcome: 'paid' },
    ]);
    // Alipay repeats it: answered success again, nothing changes.
    expect(await fake.deliver(fake.deliveries[0]!.body)).toBe('success');
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);
    expect(await app.repos.payments.notificationsOf(pay.paymentId)).toHaveLength(1);
    expect(fake.pending).toEqual([]);
    expect(await app.paymentProvider.query(pay.paymentId)).toEqual({
      status: 'paid',
      tradeNo: trade.tradeNo,
      amountFen: 12800,
      paidAt: clock.now() - (clock.now() % 1000),
    });
  });

  it('sends a phone runner to 手机网站支付 and back to the phone site; giving up there changes nothing', async () => {
    const made = await makeOrder(runners[1]!, { item: 'PD' });
    const pay = await payOrder(runners[1]!, made.orderNo, 'mobile');
    const { params, biz } = cashierParams(pay.cashierUrl);
    expect(params.method).toBe('alipay.trade.wap.pay');
    expect(params.return_url).toMatch(new RegExp(`/pay/return\\?orderNo=${made.orderNo}&site=mobile&paid=1$`));
    expect(biz).toMatchObject({ product_code: 'QUICK_WAP_WAY', total_amount: '150.50' });
    expect(biz.quit_url).toMatch(new RegExp(`/pay/return\\?orderNo=${made.orderNo}&site=mobile&paid=0$`));
    // The runner gives up on the cashier page (its form, as a browser posts it).
    const cashierPage = await openCashier(pay.cashierUrl);
    const action = /<form method="post" action="([^"]+)"/.exec(cashierPage.html)![1]!;
    const gaveUp = await fetch(new URL(action, fake.gateway), {
      method: 'POST',
      body: new URLSearchParams({ out_trade_no: pay.paymentId, decision: 'fail' }),
      redirect: 'manual',
    });
    expect(gaveUp.status).toBe(303);
    expect(gaveUp.headers.get('location')).toBe(biz.quit_url);
    expect(fake.deliveries.at(-1)!.answer).toBe('success');
    expect((await payment(pay.paymentId)).status).toBe('failed');
    expect((await order(made.orderId)).status).toBe(1);
    // A new attempt, paid.
    const again = await payOrder(runners[1]!, made.orderNo, 'mobile');
    expect(again.paymentId).not.toBe(pay.paymentId);
    await openCashier(again.cashierUrl);
    await fake.decide(again.paymentId, 'pay');
    expect(await order(made.orderId)).toMatchObject({ status: 3, paidFen: 15050 });
  });
});

describe('Alipay notifications', () => {
  it('refuses a forged notification with fail and records nothing', async () => {
    const made = await makeOrder(runners[2]!, { item: 'PD' });
    const { paymentId, cashierUrl } = await payOrder(runners[2]!, made.orderNo);
    await openCashier(cashierUrl);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const paid = { trade_status: 'TRADE_SUCCESS', gmt_payment: chinaText(clock.now()) };
    const genuine = fake.notification(paymentId, paid);
    const tamperedAmount = genuine.replace('total_amount=150.50', 'total_amount=1.50');
    expect(tamperedAmount).not.toBe(genuine);
    const forged = [
      fake.notification(paymentId, paid, other),
      tamperedAmount,
      genuine.replace(/&sign=[^&]*/, ''),
      fake.notification(paymentId, { ...paid, app_id: '2021009999999999' }),
      'not a form at all',
      '',
    ];
    for (const body of forged) expect(await notify(body)).toBe('fail');
    expect((await order(made.orderId)).status).toBe(1);
    expect((await payment(paymentId)).status).toBe('created');
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([]);
    // The genuine one still pays.
    expect(await notify(genuine)).toBe('success');
    expect((await order(made.orderId)).status).toBe(3);
  });

  it('refuses a notification whose amount differs from the payment, as the sandbox does', async () => {
    const made = await makeOrder(runners[3]!, { item: 'PD' });
    const { paymentId, cashierUrl } = await payOrder(runners[3]!, made.orderNo);
    await openCashier(cashierUrl);
    const wrong = fake.notification(paymentId, {
      trade_status: 'TRADE_SUCCESS',
      gmt_payment: chinaText(clock.now()),
      total_amount: '150.49',
    });
    expect(await notify(wrong)).toBe('fail');
    expect((await order(made.orderId)).status).toBe(1);
    expect((await payment(paymentId)).status).toBe('created');
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([]);
  });

  it('acknowledges WAIT_BUYER_PAY (not final) without acting, and acts once on 5 parallel deliveries', async () => {
    const made = await makeOrder(runners[4]!, { item: 'PD' });
    const { paymentId, cashierUrl } = await payOrder(runners[4]!, made.orderNo);
    await openCashier(cashierUrl);
    expect(await notify(fake.notification(paymentId))).toBe('success');
    expect((await payment(paymentId)).status).toBe('created');
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([]);

    const body = fake.notification(paymentId, { trade_status: 'TRADE_SUCCESS', gmt_payment: chinaText(clock.now()) });
    const answers = await Promise.all(Array.from({ length: 5 }, () => notify(body)));
    expect(answers).toEqual(Array(5).fill('success'));
    expect(await order(made.orderId)).toMatchObject({ status: 3, paidFen: 15050 });
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([
      { notificationId: new URLSearchParams(body).get('notify_id'), outcome: 'paid' },
    ]);
  });
});

describe("Alipay's own published example", () => {
  it('verifies the notification Alipay signed, and nothing once a field is changed', async () => {
    const example = JSON.parse(readFileSync(path.join(FIXTURES, 'alipay-notification-example.json'), 'utf8')) as {
      alipayPublicKey: string;
      notification: Record<string, string>;
    };
    const provider = createAlipayProvider({
      env: {
        ALIPAY_APP_ID: example.notification.app_id,
        ALIPAY_PRIVATE_KEY: fake.env.ALIPAY_PRIVATE_KEY,
        ALIPAY_PUBLIC_KEY: example.alipayPublicKey,
      },
      secret: 'unused-secret-0123456789',
      now: clock.now,
      state: async () => ({ status: 'created', tradeNo: null, amountFen: null, paidAt: null }),
    });
    const body = new URLSearchParams(example.notification).toString();
    expect(await provider.verifyNotification({}, body)).toEqual({
      ok: true,
      notification: {
        notificationId: '2019081500222155624068450559358070',
        paymentId: '20190815155618536-564-57',
        status: 'paid',
        tradeNo: '2019081522001468450512505578',
        amountFen: 10,
        paidAt: Date.UTC(2019, 7, 15, 7, 56, 24),
      },
    });
    const changed = new URLSearchParams({ ...example.notification, total_amount: '0.01' }).toString();
    expect(await provider.verifyNotification({}, changed)).toEqual({ ok: false, reason: 'signature' });
    expect(provider.notifyAnswer(true)).toEqual({
      statusCode: 200,
      contentType: 'text/plain; charset=utf-8',
      body: 'success',
    });
  });
});

describe('the deadline and late payments through Alipay', () => {
  it('closes the trade at Alipay when the order is cancelled at its deadline (opened or not)', async () => {
    const opened = await makeOrder(runners[5]!, { item: 'PD' });
    const openedPay = await payOrder(runners[5]!, opened.orderNo);
    await openCashier(openedPay.cashierUrl);
    const never = await makeOrder(runners[6]!, { item: 'PD' });
    const neverPay = await payOrder(runners[6]!, never.orderNo);
    await runJobs(31 * MINUTE);
    expect((await order(opened.orderId)).status).toBe(4);
    expect((await order(never.orderId)).status).toBe(4);
    expect((await payment(openedPay.paymentId)).status).toBe('closed');
    expect((await payment(neverPay.paymentId)).status).toBe('closed');
    const closes = fake.calls.filter((c) => c.method === 'alipay.trade.close').map((c) => c.biz.out_trade_no);
    expect(closes).toEqual(expect.arrayContaining([openedPay.paymentId, neverPay.paymentId]));
    expect(fake.trades.get(openedPay.paymentId)!.status).toBe('TRADE_CLOSED');
    // Alipay takes no money for it any more.
    expect((await fake.decide(openedPay.paymentId, 'pay')).status).toBe(409);
  });

  it('refunds through Alipay a payment that arrives after the cancellation when the place is gone', async () => {
    // FC has 3 places.
    const made = await makeOrder(runners[7]!, { item: 'FC' });
    const { paymentId, cashierUrl } = await payOrder(runners[7]!, made.orderNo);
    await openCashier(cashierUrl);
    // The runner pays just in time; Alipay's notification is late.
    fake.hold = true;
    await fake.decide(paymentId, 'pay');
    fake.hold = false;
    await runJobs(31 * MINUTE);
    expect((await order(made.orderId)).status).toBe(4);
    // Others take the places left.
    const takenFC = async () =>
      (await app.repos.entries.places(FIXTURE_RACE_ID)).find((p) => p.itemCode === 'FC' && p.pool === 'main')!.taken;
    for (let i = 0; (await takenFC()) < 3; i += 1) await makeOrder(runners[5 + (i % 2)]!, { item: 'FC' });

    const late = await fake.deliverPending();
    expect(late.map((d) => d.answer)).toEqual(['success']);
    expect(await order(made.orderId)).toMatchObject({ status: 5, paidFen: 12800, refundedFen: 12800 });
    expect(await steps(made.entryId)).toEqual(['submitted', 'cancelled', 'refunded']);
    const refunds = await app.repos.payments.refundsOf(made.orderId);
    expect(refunds).toMatchObject([{ amountFen: 12800, reason: 'latePayment', status: 'done' }]);
    const trade = fake.trades.get(paymentId)!;
    expect(trade.refunds).toMatchObject([{ outRequestNo: refunds[0]!.refundNo, amountFen: 12800 }]);
    expect(trade.status).toBe('TRADE_CLOSED');
    // Alipay's notification of the refund (TRADE_CLOSED after a full refund) changes nothing.
    expect(await notify(fake.notification(paymentId))).toBe('success');
    expect((await order(made.orderId)).status).toBe(5);
  });
});

describe('refunds through Alipay', () => {
  it('refunds once under the same out_request_no when the first answer was lost on the network', async () => {
    const made = await paidOrder(runners[0]!, 'PD');
    expect(await app.repos.entries.setStatus(made.entryId, [0], 2, 'notWon', clock.now())).toBe(true);
    // The SDK's HTTP client tries again once on a dropped connection: both lost.
    fake.failNext('alipay.trade.refund', 'drop');
    fake.failNext('alipay.trade.refund', 'drop');
    const request = { orderId: made.orderId, entryIds: [made.entryId], reason: 'notWon', now: clock.now };
    expect(await refundEntries(app.repos, app.paymentProvider, request)).toEqual({ refundedFen: 0, pending: 1 });
    const [pending] = await app.repos.payments.refundsOf(made.orderId);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    expect(pending!.lastError).toMatch(/alipay\.trade\.refund/);
    // Alipay did refund it: the answer was lost.
    expect(fake.trades.get(made.paymentId)!.refunds).toHaveLength(1);

    await runJobs(refundRetryMs(1) + PENDING_REFUNDS_EVERY_MS);
    const [done] = await app.repos.payments.refundsOf(made.orderId);
    expect(done).toMatchObject({ status: 'done', amountFen: 15050 });
    expect(await order(made.orderId)).toMatchObject({ status: 5, refundedFen: 15050 });
    const trade = fake.trades.get(made.paymentId)!;
    expect(trade.refunds).toMatchObject([{ outRequestNo: done!.refundNo, amountFen: 15050 }]);
    const asked = fake.calls.filter((c) => c.method === 'alipay.trade.refund' && c.biz.out_trade_no === made.paymentId);
    // Twice on the first try (the SDK's client tries once more on a dropped connection), once on the next.
    expect(asked.map((c) => [c.biz.out_request_no, c.biz.refund_amount])).toEqual(
      Array(3).fill([done!.refundNo, '150.50']),
    );
    // The repeat answered fund_change N: confirmed by the refund query.
    expect(fake.calls.filter((c) => c.method === 'alipay.trade.fastpay.refund.query').at(-1)!.biz).toMatchObject({
      out_trade_no: made.paymentId,
      out_request_no: done!.refundNo,
    });
    // The same number for another amount is never taken for this refund.
    const other = await app.paymentProvider.refund({
      refundNo: done!.refundNo,
      paymentId: made.paymentId,
      tradeNo: trade.tradeNo,
      amountFen: 100,
      reason: 'notWon',
    });
    expect(other).toMatchObject({ status: 'failed', reason: `${done!.refundNo} refunded 150.50 yuan before` });
    expect(trade.refunds).toHaveLength(1);
  });

  it("keeps a refund Alipay refuses pending with Alipay's words, then carries it out", async () => {
    const made = await paidOrder(runners[1]!, 'PD');
    expect(await app.repos.entries.setStatus(made.entryId, [0], 2, 'notWon', clock.now())).toBe(true);
    fake.failNext('alipay.trade.refund', { subCode: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', subMsg: '卖家余额不足' });
    const request = { orderId: made.orderId, entryIds: [made.entryId], reason: 'notWon', now: clock.now };
    expect(await refundEntries(app.repos, app.paymentProvider, request)).toEqual({ refundedFen: 0, pending: 1 });
    const [pending] = await app.repos.payments.refundsOf(made.orderId);
    expect(pending!.lastError).toContain('卖家余额不足');
    expect(fake.trades.get(made.paymentId)!.refunds).toEqual([]);
    await runJobs(refundRetryMs(1) + PENDING_REFUNDS_EVERY_MS);
    expect((await app.repos.payments.refundsOf(made.orderId))[0]).toMatchObject({ status: 'done' });
    expect(fake.trades.get(made.paymentId)!.refunds).toHaveLength(1);
  });
});

describe("Alipay's amounts and times", () => {
  it('reads and writes yuan exactly, and times in China time whatever the server zone', () => {
    expect([0, 1, 10, 12800, 15050, 123456789].map(fenToYuan)).toEqual([
      '0.00',
      '0.01',
      '0.10',
      '128.00',
      '150.50',
      '1234567.89',
    ]);
    expect(() => fenToYuan(1.5)).toThrow(RangeError);
    expect(['128', '128.5', '128.05', '0.1', '0.07', '19.99'].map((y) => yuanToFen(y))).toEqual([
      12800, 12850, 12805, 10, 7, 1999,
    ]);
    for (const bad of ['', '1.005', '-1.00', '1e3', '1,000.00', ' .5', 'NaN', '0x10']) {
      expect(yuanToFen(bad)).toBeUndefined();
    }
    expect(yuanToFen('-35.80', true)).toBe(-3580);
    expect(chinaTime(Date.UTC(2025, 11, 31, 16, 30, 5))).toBe('2026-01-01 00:30:05');
    expect(parseChinaTime('2026-01-01 00:30:05')).toBe(Date.UTC(2025, 11, 31, 16, 30, 5));
    expect(parseChinaTime('2026-01-01 00:30')).toBe(Date.UTC(2025, 11, 31, 16, 30, 0));
    for (const bad of ['2025-02-30 10:00:00', '2025-06-16 24:00:00', '2025-06-16T10:00:00', '']) {
      expect(parseChinaTime(bad)).toBeUndefined();
    }
  });
});

describe("Alipay's keys at start", () => {
  const context = (env: Record<string, string | undefined>) => ({
    env,
    secret: 'unused-secret-0123456789',
    now: clock.now,
    state: async () => ({ status: 'created' as const, tradeNo: null, amountFen: null, paidAt: null }),
  });
  const make = (env: Record<string, string | undefined>) => () => createAlipayProvider(context(env));

  it('does not start the server without ALIPAY_APP_ID', async () => {
    await expect(buildTestApp({ env: { PAYMENT_PROVIDER: 'alipay', JOBS: 'off' } })).rejects.toThrow(/ALIPAY_APP_ID/);
  });

  it('names the variable that is missing or malformed, never repeating a key', () => {
    const good = fake.env;
    const privatePem = good.ALIPAY_PRIVATE_KEY!;
    const noKey = { ...good, ALIPAY_PRIVATE_KEY: undefined };
    expect(make(noKey)).toThrow(/ALIPAY_PRIVATE_KEY or ALIPAY_PRIVATE_KEY_FILE must be set/);
    expect(make({ ...good, ALIPAY_APP_ID: 'my-app' })).toThrow(/ALIPAY_APP_ID must be the APPID/);
    const cut = privatePem.slice(0, 200);
    expect(make({ ...good, ALIPAY_PRIVATE_KEY: cut })).toThrow(/^ALIPAY_PRIVATE_KEY is not a readable RSA private key/);
    try {
      make({ ...good, ALIPAY_PRIVATE_KEY: cut })();
    } catch (error) {
      expect((error as Error).message).not.toContain(cut.slice(40, 80));
    }
    expect(make({ ...good, ALIPAY_PUBLIC_KEY: 'MIIBIjANBgkqhkiG9w0BAQEFAAOC' })).toThrow(
      /^ALIPAY_PUBLIC_KEY is not a readable RSA public key/,
    );
    const missingFile = path.join(tempDir(), 'nowhere.pem');
    expect(make({ ...noKey, ALIPAY_PRIVATE_KEY_FILE: missingFile })).toThrow(
      /^ALIPAY_PRIVATE_KEY_FILE=.*cannot be read \(ENOENT\)/,
    );
    expect(make({ ...good, ALIPAY_PRIVATE_KEY_FILE: missingFile })).toThrow(/both set/);
    // The application's own public key where Alipay's belongs: the commonest mistake, said so.
    const own = fake.merchantPublicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(make({ ...good, ALIPAY_PUBLIC_KEY: own })).toThrow(
      /^ALIPAY_PUBLIC_KEY is your application's own public key/,
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(
      make({ ...good, ALIPAY_PRIVATE_KEY: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }),
    ).toThrow(/^ALIPAY_PRIVATE_KEY must be an RSA key of 2048 bits/);
    expect(make({ ...good, ALIPAY_GATEWAY: 'ftp://openapi.alipay.com/gateway.do' })).toThrow(/^ALIPAY_GATEWAY/);
  });

  it('reads the keys as PEM (PKCS#1, PKCS#8), as the key tool base64, from files, and defaults to the production gateway', () => {
    const dir = tempDir();
    const pkcs1 = fake.merchantPrivateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const bare = fake.merchantPrivateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    const alipayBare = fake.alipayPublicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    writeFileSync(path.join(dir, 'app-private.pem'), pkcs1);
    writeFileSync(path.join(dir, 'alipay-public.txt'), `${alipayBare}\n`);
    const variants: Record<string, string | undefined>[] = [
      { ...fake.env, ALIPAY_PRIVATE_KEY: pkcs1 },
      { ...fake.env, ALIPAY_PRIVATE_KEY: bare, ALIPAY_PUBLIC_KEY: alipayBare },
      { ...fake.env, ALIPAY_PRIVATE_KEY: pkcs1.replaceAll('\n', '\\n') },
      {
        ALIPAY_APP_ID: fake.appId,
        ALIPAY_PRIVATE_KEY_FILE: path.join(dir, 'app-private.pem'),
        ALIPAY_PUBLIC_KEY_FILE: path.join(dir, 'alipay-public.txt'),
      },
    ];
    for (const env of variants) {
      const settings = alipaySettings(env);
      expect(settings.privateKey.asymmetricKeyType).toBe('rsa');
      expect(settings.alipayPublicKey.export({ type: 'spki', format: 'der' })).toEqual(
        fake.alipayPublicKey.export({ type: 'spki', format: 'der' }),
      );
    }
    expect(alipaySettings(variants[3]!).gateway).toBe('https://openapi.alipay.com/gateway.do');
  });
});

describe("Alipay's daily bill", () => {
  const expected = (day: string): BillLine[] => {
    const lines: BillLine[] = [];
    const onDay = (at: number | undefined) => at !== undefined && chinaText(at).slice(0, 10) === day;
    for (const t of fake.trades.values()) {
      if (onDay(t.paidAt)) {
        lines.push({
          kind: 'payment',
          paymentId: t.outTradeNo,
          tradeNo: t.tradeNo,
          refundNo: null,
          amountFen: t.amountFen,
          at: t.paidAt! - (t.paidAt! % 1000),
        });
      }
      for (const r of t.refunds) {
        if (!onDay(r.at)) continue;
        lines.push({
          kind: 'refund',
          paymentId: t.outTradeNo,
          tradeNo: t.tradeNo,
          refundNo: r.outRequestNo,
          amountFen: r.amountFen,
          at: r.at - (r.at % 1000),
        });
      }
    }
    return lines;
  };

  it('is not ready until the day is over, then fetched and read into payments and refunds', async () => {
    const day = chinaText(clock.now()).slice(0, 10);
    await expect(app.paymentProvider.fetchBill!(day)).rejects.toThrow(BillNotReadyError);
    clock.advance(DAY);
    const lines = await app.paymentProvider.fetchBill!(day);
    const want = expected(day);
    expect(want.filter((l) => l.kind === 'payment').length).toBeGreaterThanOrEqual(5);
    expect(want.filter((l) => l.kind === 'refund').length).toBeGreaterThanOrEqual(3);
    expect(lines).toEqual(want);
    // The zip the finance staff download, or its detail CSV alone, reads the same.
    expect(app.paymentProvider.parseBill!(fake.billZip(day))).toEqual(want);
    expect(app.paymentProvider.parseBill!(fake.billCsv(day))).toEqual(want);
  });

  it('refuses a broken bill with its line, and never returns half of one', async () => {
    const day = chinaText(clock.now() - DAY).slice(0, 10);
    const csv = new TextDecoder('gbk').decode(fake.billCsv(day));
    const lines = csv.split('\r\n');
    const at = lines.findIndex((l) => l.includes('\t,') && l.includes(',交易,'));
    const bad = [...lines];
    bad[at] = bad[at]!.replace(/,(\d+\.\d\d),\1,/, ',12.345,12.345,');
    expect(bad[at]).not.toBe(lines[at]);
    const badBytes = Buffer.from(bad.join('\r\n'), 'utf8');
    const parse = app.paymentProvider.parseBill!;
    expect(() => parse(badBytes)).toThrow(BillFormatError);
    expect(() => parse(badBytes)).toThrow(new RegExp(`^line ${at + 1}: 订单金额 "12.345"`));
    fake.billOverride = () => zip([['bill_业务明细.csv', badBytes]]);
    await expect(app.paymentProvider.fetchBill!(day)).rejects.toThrow(new RegExp(`^line ${at + 1}:`));
    fake.billOverride = undefined;
    // Not a bill, a cut zip, a row short of cells.
    expect(() => parse(Buffer.from('hello,world\n1,2\n'))).toThrow(/^line 1: not the header/);
    expect(() => parse(Buffer.from(''))).toThrow(/no 业务明细 table/);
    const whole = fake.billZip(day);
    expect(() => parse(whole.subarray(0, whole.length - 30))).toThrow(BillFormatError);
    const short = [...lines];
    short[at] = short[at]!.split(',').slice(0, 10).join(',');
    expect(() => parse(Buffer.from(short.join('\n')))).toThrow(new RegExp(`^line ${at + 1}: 10 cells`));
  });
});

describe('reading a zip (lib/unzip.ts)', () => {
  it('reads deflated and stored files, keeps a GBK name as bytes, and refuses a damaged archive', () => {
    const files = unzip(
      zip([
        ['a.csv', 'hello'],
        ['目录/b.csv', Buffer.from([0xd6, 0xa7])],
      ]),
    );
    expect(files.map((f) => [f.name.toString('utf8'), f.utf8Name, f.data.toString('latin1')])).toEqual([
      ['a.csv', true, 'hello'],
      ['目录/b.csv', true, '\xd6\xa7'],
    ]);
    // A stored (not deflated) entry whose name is GBK without the UTF-8 flag, as Windows tools write them.
    const name = Buffer.from([0xd2, 0xb5, 0xce, 0xf1, 0x2e, 0x63, 0x73, 0x76]); // 业务.csv in GBK
    const data = Buffer.from('x,y\n');
    const crc = crc32Of(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    const body = Buffer.concat([local, name, data]);
    const directory = Buffer.concat([central, name]);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(body.length, 16);
    const stored = Buffer.concat([body, directory, end]);
    const [file] = unzip(stored);
    expect(file!.utf8Name).toBe(false);
    expect(new TextDecoder('gbk').decode(file!.name)).toBe('业务.csv');
    expect(file!.data.toString()).toBe('x,y\n');
    // A changed byte of the data fails its checksum; no directory: not a zip.
    const damaged = Buffer.from(stored);
    damaged[30 + name.length] = 0x79;
    expect(() => unzip(damaged)).toThrow(UnzipError);
    expect(() => unzip(damaged)).toThrow(/checksum/);
    expect(() => unzip(Buffer.alloc(100))).toThrow(/not a zip archive/);
    // Two 业务明细 tables in one zip: which one is the bill is not guessed.
    const csv = fake.billCsv(chinaText(clock.now()).slice(0, 10));
    expect(() =>
      app.paymentProvider.parseBill!(
        zip([
          ['1.csv', csv],
          ['2.csv', csv],
        ]),
      ),
    ).toThrow(/holds 2 业务明细 files/);
  });
});
