/**
 * WeChat Pay (API v3) as the payment provider (issue 31 §2), against a local fake of its gateway
 * (test/fakes/wechatpay-fake.ts: it checks our signatures with the merchant's public key and signs its answers
 * and notifications with its platform key). The same outcomes as the sandbox's tests (entry-payment.test.ts):
 * paid once however often notified, a late payment refunded when its place is gone, a wrong amount or
 * signature refused and nothing changed; plus WeChat Pay's own: Native on the desktop, H5 on the phone,
 * time_expire equal to the deadline, the platform public key and the platform certificates side by side,
 * refunds once per out_refund_no across a network error, close on cancel, the daily bill.
 */
import { createHash, createVerify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntrySettings } from '#contract/entry';
import { poolOf } from '../src/db/entries-repository.ts';
import { BillFormatError, BillNotReadyError, type PaymentProviderContext } from '../src/lib/payment/provider.ts';
import { PAYMENT_PROVIDERS } from '../src/lib/payment/providers.ts';
import { createWechatPayProvider } from '../src/lib/payment/wechatpay.ts';
import { chinaRfc3339 } from '../src/lib/payment/china-format.ts';
import { truncateUtf8, wechatpayAuthorization } from '../src/lib/payment/wechatpay-sign.ts';
import { CANCEL_DUE_EVERY_MS } from '../src/routes/entry/payment.ts';
import { refundEntries } from '../src/services/entry/order-transitions.ts';
import { retryRefund } from '../src/services/entry/refunds-owed.ts';
import {
  FAKE_H5_PAY,
  FAKE_SCAN,
  rfc3339China,
  rsaPair,
  startWechatPayFake,
  type WechatPayFake,
} from './fakes/wechatpay-fake.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, tempDir } from './helpers.ts';

const MINUTE = 60_000;
const clock = fakeClock();
const MCH_ID = '1900000109';
const APP_ID = 'wxd678efh567hg6787';
const API_V3_KEY = 'a7cde1ZJB1kG2e0sSE4uMqkMbXxxh2Wq';
const MERCHANT_SERIAL = '3775B6A45ACD588826D15E583A95F5DD4F2B1C0A';
const merchant = rsaPair();
const merchantPem = merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let fake: WechatPayFake;
let app: FastifyInstance;
let host: string;

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    { code: 'FC', name: { zh: '全程', en: 'Marathon' }, capacity: 1, feeFen: 12800, model: 'firstCome' },
    { code: 'PD', name: { zh: '十公里', en: '10 km' }, capacity: 20, feeFen: 15000, model: 'payThenDraw' },
    { code: 'FR', name: { zh: '五公里', en: '5 km' }, capacity: 5, feeFen: 9900, model: 'firstCome' },
  ],
};
const FEES: Record<string, number> = { FC: 12800, PD: 15000, FR: 9900 };

/** The variables of a merchant in the platform public key mode (the fake's key), with some changed. */
const wechatEnv = (overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> => ({
  ...fake.serverEnv(),
  ...overrides,
});

/** The provider made on its own (as the CLI makes it) with these variables. */
const providerWith = (env: Record<string, string | undefined>) => {
  const context: PaymentProviderContext = {
    env,
    secret: 'unused-by-wechatpay-0123456789',
    now: clock.now,
    state: () => Promise.resolve({ status: 'unknown', tradeNo: null, amountFen: null, paidAt: null }),
  };
  return createWechatPayProvider(context);
};

interface Runner {
  id: number;
  token: string;
}
const runners: Runner[] = [];
let certCounter = 0;

async function makeOrder(who: Runner, item: 'FC' | 'PD' | 'FR', minutes = 30) {
  certCounter += 1;
  const holdsPlace = item !== 'PD';
  return app.repos.transaction(async (tx) => {
    if (holdsPlace) expect(await tx.entries.takePlace(FIXTURE_RACE_ID, item, poolOf('public'), 1)).toBe(true);
    const entry = await tx.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode: item,
      channel: 'public',
      userId: who.id,
      status: 0,
      holdsPlace,
      name: `跑者${certCounter}`,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: `wechat-cert-hash-${certCounter}`,
      certNumber: `11010119900101${String(2000 + certCounter)}`,
      phone: '13811112222',
      values: {},
      feeFen: FEES[item]!,
      now: clock.now(),
    });
    const deadlineAt = clock.now() + minutes * MINUTE;
    const order = await tx.orders.create({
      raceId: FIXTURE_RACE_ID,
      userId: who.id,
      amountFen: FEES[item]!,
      deadlineAt,
      createdAt: clock.now(),
      lines: [{ entryId: entry.id, amountFen: FEES[item]! }],
    });
    return { entryId: entry.id, orderId: order.id, orderNo: order.orderNo, deadlineAt };
  });
}

interface PayAnswer {
  paymentId: string;
  cashierUrl: string;
  qrContent: string;
  deadlineAt: number;
}

/** orderPay as the runner's browser calls it on this server's address (so notify_url reaches it). */
async function payOrder(who: Runner, orderNo: string, site: 'desktop' | 'mobile' = 'desktop', ip = '127.0.0.1') {
  const res = await app.inject({
    method: 'POST',
    url: API_PATHS.orderPay,
    payload: { orderNo, site },
    headers: { token: who.token, host },
    remoteAddress: ip,
  });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as PayAnswer;
}

const order = async (orderId: number) => (await app.repos.orders.findById(orderId))!;
const steps = async (entryId: number) =>
  ((await app.repos.entries.events([entryId])).get(entryId) ?? []).map((e) => e.step);
const deps = () => ({
  repos: app.repos,
  provider: app.paymentProvider,
  now: clock.now,
  actor: { kind: 'cli' } as const,
});

async function runJobs(advanceMs: number) {
  clock.advance(advanceMs);
  await app.jobs.runDue();
}

const SUCCESS = { status: 200, body: JSON.stringify({ code: 'SUCCESS', message: '成功' }) };

beforeAll(async () => {
  fake = await startWechatPayFake({
    now: clock.now,
    mchId: MCH_ID,
    appId: APP_ID,
    apiV3Key: API_V3_KEY,
    merchantSerial: MERCHANT_SERIAL,
    merchantKey: merchant.privateKey,
  });
  app = await buildTestApp({ env: { RATE_LIMITS: 'off', JOBS: 'off', ...wechatEnv() }, now: clock.now });
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save({ ...race, entry: ENTRY }, clock.now());
  await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
  for (let i = 0; i < 6; i += 1) {
    const id = await app.repos.users.create({ phone: `1370013700${i}` }, clock.now());
    const { token } = await app.repos.tokens.issue(id, 24 * 3600_000, clock.now());
    runners.push({ id, token });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  host = `127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await app?.close();
  await fake?.close();
  removeTempDirs();
});

describe('paying through WeChat Pay', () => {
  it('is a built-in provider that takes money', () => {
    expect(PAYMENT_PROVIDERS.wechatpay?.takesMoney).toBe(true);
    expect(app.paymentProvider.name).toBe('wechatpay');
  });

  it('shows a Native QR code on the desktop, time_expire at the deadline, and is paid once however often notified', async () => {
    const made = await makeOrder(runners[0]!, 'PD');
    const first = await payOrder(runners[0]!, made.orderNo);
    expect(first.cashierUrl).toBe('');
    expect(first.qrContent).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    // The same open payment again: the same QR code.
    expect(await payOrder(runners[0]!, made.orderNo)).toMatchObject({
      paymentId: first.paymentId,
      qrContent: first.qrContent,
    });
    const t = fake.byCodeUrl(first.qrContent)!;
    expect(t.outTradeNo).toBe(first.paymentId);
    expect(t.tradeType).toBe('NATIVE');
    // 02:00 UTC + 30 minutes is 10:30 in China.
    expect(t.request.time_expire).toBe('2025-06-16T10:30:00+08:00');
    expect(t.request.time_expire).toBe(rfc3339China(made.deadlineAt));
    expect(t.request).toMatchObject({
      appid: APP_ID,
      mchid: MCH_ID,
      amount: { total: 15000, currency: 'CNY' },
      notify_url: `http://${host}${API_PATHS.payNotifyPrefix}wechatpay`,
    });
    expect(String(t.request.description)).toContain(made.orderNo);
    // Every call carried our valid signature.
    expect(fake.state.calls.every((c) => c.signed)).toBe(true);

    fake.pay(first.paymentId);
    const n = fake.notification(first.paymentId);
    expect(await fake.deliver(n)).toMatchObject(SUCCESS);
    expect(await order(made.orderId)).toMatchObject({ status: 3, paidFen: 15000, serialNo: t.transactionId });
    // WeChat Pay repeats until acknowledged: the same notification again changes nothing.
    expect(await fake.deliver(n)).toMatchObject(SUCCESS);
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);
    expect((await app.repos.payments.notificationsOf(first.paymentId)).map((x) => x.outcome)).toEqual(['paid']);
    // The provider's own record agrees.
    expect(await app.paymentProvider.query(first.paymentId)).toMatchObject({
      status: 'paid',
      tradeNo: t.transactionId,
      amountFen: 15000,
    });
    expect((await app.paymentProvider.query('PAY00000000')).status).toBe('unknown');
  });

  it('pays by H5 on the mobile site, carrying the runner’s IP, and comes back to the order page', async () => {
    const made = await makeOrder(runners[1]!, 'PD');
    const paid = await payOrder(runners[1]!, made.orderNo, 'mobile', '203.0.113.9');
    const t = fake.state.transactions.get(paid.paymentId)!;
    expect(t.tradeType).toBe('MWEB');
    expect(t.request.scene_info).toEqual({ payer_client_ip: '203.0.113.9', h5_info: { type: 'Wap' } });
    const back = `http://${host}/pay/return?orderNo=${made.orderNo}&site=mobile&paid=1`;
    expect(paid.cashierUrl).toBe(`${t.h5Url}&redirect_url=${encodeURIComponent(back)}`);
    fake.pay(paid.paymentId);
    expect(await fake.notify(paid.paymentId)).toMatchObject(SUCCESS);
    expect((await order(made.orderId)).status).toBe(3);
  });

  it('goes the runner’s whole way through the fake’s pages: a phone scanning the QR code, the H5 page', async () => {
    const desktop = await makeOrder(runners[0]!, 'PD');
    const qr = await payOrder(runners[0]!, desktop.orderNo);
    const scanned = await fetch(`${fake.baseUrl}${FAKE_SCAN}`, {
      method: 'POST',
      body: JSON.stringify({ code_url: qr.qrContent }),
    });
    expect(await scanned.json()).toEqual({ paid: qr.paymentId, notified: 200 });
    expect((await order(desktop.orderId)).status).toBe(3);

    const phone = await makeOrder(runners[1]!, 'PD');
    const h5 = await payOrder(runners[1]!, phone.orderNo, 'mobile');
    const page = await fetch(h5.cashierUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('¥150.00');
    const field = (name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!.replaceAll('&#38;', '&');
    const paid = await fetch(`${fake.baseUrl}${FAKE_H5_PAY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prepay_id: field('prepay_id'), redirect_url: field('redirect_url') }).toString(),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://${host}/pay/return?orderNo=${phone.orderNo}&site=mobile&paid=1`);
    expect((await order(phone.orderId)).status).toBe(3);
  });

  it('cuts a long description at 127 bytes without breaking a character', async () => {
    expect(truncateUtf8('马拉松'.repeat(50), 127)).toBe('马拉松'.repeat(14));
    expect(Buffer.byteLength(truncateUtf8('马拉松'.repeat(50), 127))).toBe(126);
    expect(chinaRfc3339(Date.UTC(2025, 11, 31, 16, 0, 0, 999))).toBe('2026-01-01T00:00:00+08:00');
    const created = await app.paymentProvider.createPayment({
      paymentId: 'PAYLONGDESCRIPTION01',
      orderNo: 'RS1',
      amountFen: 1,
      subject: `${'马拉松'.repeat(50)} · RS1`,
      expiresAt: clock.now() + 10 * MINUTE,
      notifyUrl: `http://${host}${API_PATHS.payNotifyPrefix}wechatpay`,
      returnUrl: `http://${host}/reg/`,
      clientIp: '::ffff:198.51.100.7',
      site: 'mobile',
    });
    expect(created.display).toBe('redirect');
    const t = fake.state.transactions.get('PAYLONGDESCRIPTION01')!;
    expect(t.request.description).toBe('马拉松'.repeat(14));
    // IPv4 as Node reports it on a dual-stack socket is given as plain IPv4.
    expect((t.request.scene_info as { payer_client_ip: string }).payer_client_ip).toBe('198.51.100.7');
    const native = await app.paymentProvider.createPayment({
      paymentId: 'PAYNATIVEDISPLAY01',
      orderNo: 'RS2',
      amountFen: 1,
      subject: 'RS2',
      expiresAt: clock.now() + 10 * MINUTE,
      notifyUrl: `http://${host}${API_PATHS.payNotifyPrefix}wechatpay`,
      returnUrl: `http://${host}/reg/`,
      clientIp: '127.0.0.1',
      site: 'desktop',
    });
    expect(native).toMatchObject({ display: 'qr', cashierUrl: '' });
  });
});

describe('notifications refused', () => {
  it('refuses a bad signature, an old timestamp, an unknown key and a wrong amount, changing nothing', async () => {
    const made = await makeOrder(runners[2]!, 'PD');
    const { paymentId } = await payOrder(runners[2]!, made.orderNo);
    fake.pay(paymentId);
    const now = Math.floor(clock.now() / 1000);
    const refusals = [
      { badSignature: true },
      { timestamp: now - 301 },
      { timestamp: now + 301 },
      { serial: 'PUB_KEY_ID_0199999999' },
      { amountFen: 1 },
    ];
    for (const tamper of refusals) {
      const answer = await fake.notify(paymentId, tamper);
      expect(answer.status, JSON.stringify(tamper)).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'FAIL' });
    }
    // Not JSON, or JSON of nothing we know, even signed: refused.
    const good = fake.notification(paymentId);
    const garbled = { ...good, rawBody: `${good.rawBody} ` };
    expect((await fake.deliver(garbled)).status).toBe(400);
    expect((await order(made.orderId)).status).toBe(1);
    expect((await app.repos.payments.findByPaymentId(paymentId))!.status).toBe('created');
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([]);
    // A timestamp within 5 minutes is fine.
    expect(await fake.notify(paymentId, { timestamp: now - 299 })).toMatchObject(SUCCESS);
    expect((await order(made.orderId)).status).toBe(3);
  });

  it('acts once on 5 parallel deliveries of one notification', async () => {
    const made = await makeOrder(runners[2]!, 'PD');
    const { paymentId } = await payOrder(runners[2]!, made.orderNo);
    fake.pay(paymentId);
    const n = fake.notification(paymentId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => fake.deliver(n)));
    for (const answer of answers) expect(answer).toMatchObject(SUCCESS);
    expect(await order(made.orderId)).toMatchObject({ status: 3, paidFen: 15000 });
    expect(await steps(made.entryId)).toEqual(['submitted', 'paid']);
    expect(await app.repos.payments.notificationsOf(paymentId)).toEqual([
      { notificationId: JSON.parse(n.rawBody).id, outcome: 'paid' },
    ]);
  });

  it('records a closed transaction as a failed payment, the order still payable', async () => {
    const made = await makeOrder(runners[2]!, 'PD');
    const { paymentId } = await payOrder(runners[2]!, made.orderNo);
    await app.paymentProvider.close(paymentId);
    expect(fake.state.transactions.get(paymentId)!.state).toBe('CLOSED');
    expect(await fake.notify(paymentId)).toMatchObject(SUCCESS);
    expect((await app.repos.payments.findByPaymentId(paymentId))!.status).toBe('failed');
    expect((await order(made.orderId)).status).toBe(1);
    // Closing what WeChat Pay never saw is nothing to do.
    await expect(app.paymentProvider.close('PAYNEVERCREATED01')).resolves.toBeUndefined();
  });
});

describe('cancellation, late payments and refunds', () => {
  it('closes the WeChat Pay order when an unpaid order is cancelled at its deadline', async () => {
    const made = await makeOrder(runners[3]!, 'FC');
    const { paymentId } = await payOrder(runners[3]!, made.orderNo);
    await runJobs(31 * MINUTE);
    expect((await order(made.orderId)).status).toBe(4);
    expect(fake.callsTo(`/v3/pay/transactions/out-trade-no/${paymentId}/close`)).toHaveLength(1);
    expect(fake.state.transactions.get(paymentId)!.state).toBe('CLOSED');
  });

  it('reinstates a payment that arrives after the cancellation while a place is free', async () => {
    const made = await makeOrder(runners[2]!, 'FR');
    const { paymentId } = await payOrder(runners[2]!, made.orderNo);
    fake.pay(paymentId);
    await runJobs(31 * MINUTE);
    expect((await order(made.orderId)).status).toBe(4);
    expect(await fake.notify(paymentId)).toMatchObject(SUCCESS);
    expect(await order(made.orderId)).toMatchObject({ status: 3, paidFen: 9900 });
    expect(await steps(made.entryId)).toEqual(['submitted', 'cancelled', 'paid']);
    expect((await app.repos.payments.notificationsOf(paymentId)).map((x) => x.outcome)).toEqual(['reinstated']);
    expect([...fake.state.refunds.values()].filter((r) => r.outTradeNo === paymentId)).toEqual([]);
  });

  it('refunds through WeChat Pay a payment that arrives after the order was cancelled and its place taken', async () => {
    const made = await makeOrder(runners[4]!, 'FC');
    const { paymentId } = await payOrder(runners[4]!, made.orderNo);
    // Paid just before the deadline; the notification comes after the cancellation.
    fake.pay(paymentId);
    await runJobs(CANCEL_DUE_EVERY_MS + 30 * MINUTE);
    expect((await order(made.orderId)).status).toBe(4);
    // The close was refused (paid): nothing else changed.
    expect(fake.state.transactions.get(paymentId)!.state).toBe('SUCCESS');
    const other = await makeOrder(runners[5]!, 'FC'); // takes the only place
    expect(await fake.notify(paymentId)).toMatchObject(SUCCESS);
    expect(await order(made.orderId)).toMatchObject({ status: 5, paidFen: 12800, refundedFen: 12800 });
    expect(await steps(made.entryId)).toEqual(['submitted', 'cancelled', 'refunded']);
    const refunds = await app.repos.payments.refundsOf(made.orderId);
    expect(refunds).toMatchObject([{ amountFen: 12800, reason: 'latePayment', status: 'done' }]);
    const atWechat = [...fake.state.refunds.values()].filter((r) => r.outTradeNo === paymentId);
    expect(atWechat).toMatchObject([
      { outRefundNo: refunds[0]!.refundNo, refund: 12800, total: 12800, status: 'SUCCESS' },
    ]);
    expect((await order(other.orderId)).status).toBe(1);
  });

  it('makes a refund retried after a network error the same refund', async () => {
    const made = await makeOrder(runners[0]!, 'PD');
    const { paymentId } = await payOrder(runners[0]!, made.orderNo);
    fake.pay(paymentId);
    await fake.notify(paymentId);
    expect(await app.repos.entries.setStatus(made.entryId, [0], 2, 'notWon', clock.now())).toBe(true);
    // WeChat Pay makes the refund, then the connection drops before we read its answer.
    fake.dropNext('/v3/refund/domestic/refunds');
    const request = { orderId: made.orderId, entryIds: [made.entryId], reason: 'notWon', now: clock.now };
    expect(await refundEntries(app.repos, app.paymentProvider, request)).toEqual({ refundedFen: 0, pending: 1 });
    const [owed] = await app.repos.payments.refundsOf(made.orderId);
    expect(owed).toMatchObject({ status: 'pending', attempts: 1 });
    const retried = await retryRefund(deps(), owed!.refundNo);
    expect(retried).toMatchObject({ ok: true, result: 'done' });
    const atWechat = [...fake.state.refunds.values()].filter((r) => r.outTradeNo === paymentId);
    expect(atWechat).toHaveLength(1);
    const posts = fake.callsTo('/v3/refund/domestic/refunds').filter((c) => c.body.includes(owed!.refundNo));
    expect(posts).toHaveLength(1);
    expect(await order(made.orderId)).toMatchObject({ status: 5, refundedFen: 15000 });
  });

  it('keeps a refund WeChat Pay is still processing pending until it confirms it', async () => {
    const made = await makeOrder(runners[1]!, 'PD');
    const { paymentId } = await payOrder(runners[1]!, made.orderNo);
    fake.pay(paymentId);
    await fake.notify(paymentId);
    expect(await app.repos.entries.setStatus(made.entryId, [0], 2, 'notWon', clock.now())).toBe(true);
    fake.state.refundsProcessing = true;
    try {
      const request = { orderId: made.orderId, entryIds: [made.entryId], reason: 'notWon', now: clock.now };
      expect(await refundEntries(app.repos, app.paymentProvider, request)).toEqual({ refundedFen: 0, pending: 1 });
      const [owed] = await app.repos.payments.refundsOf(made.orderId);
      expect(owed!.lastError).toMatch(/not confirmed/);
      expect(await retryRefund(deps(), owed!.refundNo)).toMatchObject({ result: 'pending' });
      fake.settleRefunds();
      expect(await retryRefund(deps(), owed!.refundNo)).toMatchObject({ result: 'done' });
      expect([...fake.state.refunds.values()].filter((r) => r.outTradeNo === paymentId)).toHaveLength(1);
    } finally {
      fake.state.refundsProcessing = false;
    }
  });
});

describe('the platform certificate and the platform public key', () => {
  it('accepts either during the switch, and a merchant with certificates only', async () => {
    const made = await makeOrder(runners[3]!, 'PD');
    const { paymentId } = await payOrder(runners[3]!, made.orderNo);
    fake.pay(paymentId);
    try {
      // Signed with the platform certificate: fetched from /v3/certificates, decrypted, then trusted.
      fake.state.signWith = 'certificate';
      const byCertificate = fake.notification(paymentId);
      expect(byCertificate.headers['wechatpay-serial']).toBe(fake.certificateSerial);
      expect(await fake.deliver(byCertificate)).toMatchObject(SUCCESS);
      expect(fake.callsTo('/v3/certificates')).toHaveLength(1);
      fake.state.signWith = 'publicKey';
      expect(await fake.notify(paymentId)).toMatchObject(SUCCESS);
      expect((await order(made.orderId)).status).toBe(3);

      // An older merchant: no platform public key, certificates only.
      const older = providerWith(wechatEnv({ WECHATPAY_PUBLIC_KEY: undefined, WECHATPAY_PUBLIC_KEY_ID: undefined }));
      fake.state.signWith = 'certificate';
      expect((await older.query(paymentId)).status).toBe('paid');
      const check = await older.verifyNotification(
        fake.notification(paymentId).headers,
        fake.notification(paymentId).rawBody,
      );
      expect(check.ok).toBe(false); // headers and body of two different notifications
      const n = fake.notification(paymentId);
      expect(await older.verifyNotification(n.headers, n.rawBody)).toMatchObject({
        ok: true,
        notification: { paymentId, status: 'paid', amountFen: 15000 },
      });
      // Signed with a public key this merchant was not given: refused, answers too.
      fake.state.signWith = 'publicKey';
      const m = fake.notification(paymentId);
      expect(await older.verifyNotification(m.headers, m.rawBody)).toEqual({ ok: false, reason: 'unknownSerial' });
      await expect(older.query(paymentId)).rejects.toThrow(/signature check/);
    } finally {
      fake.state.signWith = 'publicKey';
    }
  });

  it('refuses an answer whose signature fails', async () => {
    const stranger = rsaPair();
    const wrongKey = providerWith(
      wechatEnv({ WECHATPAY_PUBLIC_KEY: stranger.publicKey.export({ type: 'spki', format: 'pem' }).toString() }),
    );
    await expect(wrongKey.query('PAYNATIVEDISPLAY01')).rejects.toThrow(/signature check \(signature\)/);
    await expect(
      wrongKey.createPayment({
        paymentId: 'PAYWRONGKEY0001',
        orderNo: 'RS1',
        amountFen: 100,
        subject: 'x',
        expiresAt: clock.now() + MINUTE,
        notifyUrl: 'http://127.0.0.1/',
        returnUrl: 'http://127.0.0.1/',
        clientIp: '127.0.0.1',
        site: 'desktop',
      }),
    ).rejects.toThrow(/signature check \(signature\)/);
  });
});

describe('signatures as WeChat Pay documents them', () => {
  it('signs the documented example message and verifies with the merchant public key', () => {
    // WeChat Pay's own example of a request to sign (签名生成): GET /v3/certificates at 1554208460.
    const header = wechatpayAuthorization({
      mchId: '1900009191',
      serialNo: '1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C',
      privateKey: merchant.privateKey,
      method: 'GET',
      url: '/v3/certificates',
      body: '',
      timestamp: 1554208460,
      nonce: '593BEC0C930BF1AFEB40B4A08C8FB242',
    });
    const match =
      /^WECHATPAY2-SHA256-RSA2048 mchid="1900009191",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="([^"]+)",timestamp="1554208460",serial_no="1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C"$/.exec(
        header,
      );
    expect(match).not.toBeNull();
    const message = 'GET\n/v3/certificates\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n\n';
    expect(createVerify('RSA-SHA256').update(message).verify(merchant.publicKey, match![1]!, 'base64')).toBe(true);
  });
});

describe('keys at start', () => {
  it('stops the server at start naming a missing or malformed variable', async () => {
    await expect(
      buildTestApp({ env: { JOBS: 'off', ...wechatEnv({ WECHATPAY_MCH_ID: undefined }) }, now: clock.now }),
    ).rejects.toThrow(/WECHATPAY_MCH_ID must be set/);
    const dir = tempDir();
    const keyFile = path.join(dir, 'apiclient_key.pem');
    writeFileSync(keyFile, merchantPem);
    const cases: [Record<string, string | undefined>, RegExp][] = [
      [{ WECHATPAY_APP_ID: 'app' }, /WECHATPAY_APP_ID must be/],
      [{ WECHATPAY_API_V3_KEY: 'short' }, /WECHATPAY_API_V3_KEY must be 32 characters/],
      [{ WECHATPAY_PRIVATE_KEY: undefined }, /WECHATPAY_PRIVATE_KEY or WECHATPAY_PRIVATE_KEY_FILE must be set/],
      [
        { WECHATPAY_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' },
        /WECHATPAY_PRIVATE_KEY is not/,
      ],
      [{ WECHATPAY_PRIVATE_KEY_FILE: keyFile }, /set WECHATPAY_PRIVATE_KEY or WECHATPAY_PRIVATE_KEY_FILE, not both/],
      [
        { WECHATPAY_PRIVATE_KEY: undefined, WECHATPAY_PRIVATE_KEY_FILE: path.join(dir, 'missing.pem') },
        /WECHATPAY_PRIVATE_KEY_FILE names a file that cannot be read \(ENOENT\)/,
      ],
      [{ WECHATPAY_CERT_SERIAL: 'not-hex' }, /WECHATPAY_CERT_SERIAL must be/],
      [{ WECHATPAY_PUBLIC_KEY_ID: undefined }, /WECHATPAY_PUBLIC_KEY_ID must be set/],
      [{ WECHATPAY_PUBLIC_KEY: undefined }, /WECHATPAY_PUBLIC_KEY or WECHATPAY_PUBLIC_KEY_FILE must be set/],
      [{ WECHATPAY_PUBLIC_KEY: 'garbage' }, /WECHATPAY_PUBLIC_KEY is not/],
      [{ WECHATPAY_PUBLIC_KEY_ID: 'KEY1' }, /WECHATPAY_PUBLIC_KEY_ID must be the platform public key id/],
      [{ WECHATPAY_BASE_URL: 'ftp://x' }, /WECHATPAY_BASE_URL must be/],
    ];
    for (const [overrides, message] of cases)
      expect(() => providerWith(wechatEnv(overrides)), String(message)).toThrow(message);
    // Keys from files, a PEM written with \n in one line (a .env file): fine.
    expect(() =>
      providerWith(wechatEnv({ WECHATPAY_PRIVATE_KEY: undefined, WECHATPAY_PRIVATE_KEY_FILE: keyFile })),
    ).not.toThrow();
    expect(() => providerWith(wechatEnv({ WECHATPAY_PRIVATE_KEY: merchantPem.replaceAll('\n', '\\n') }))).not.toThrow();
    // The secret is never in the message.
    try {
      providerWith(wechatEnv({ WECHATPAY_API_V3_KEY: 'secret-key-of-31-characters-xyz' }));
    } catch (error) {
      expect(String(error)).not.toContain('secret-key');
    }
  });
});

describe('the daily bill', () => {
  const day = '2025-06-16';

  it('fetches the bill of a day, checks its hash and reads payments and refunds in our terms', async () => {
    const lines = await app.paymentProvider.fetchBill!(day);
    const payments = lines.filter((l) => l.kind === 'payment');
    const refunds = lines.filter((l) => l.kind === 'refund');
    const paidHere = [...fake.state.transactions.values()].filter((t) => t.transactionId);
    expect(payments).toHaveLength(paidHere.length);
    for (const t of paidHere) {
      expect(payments).toContainEqual({
        kind: 'payment',
        paymentId: t.outTradeNo,
        tradeNo: t.transactionId,
        refundNo: null,
        amountFen: (t.request.amount as { total: number }).total,
        at: Math.floor(t.paidAt / 1000) * 1000,
      });
    }
    const done = [...fake.state.refunds.values()];
    expect(refunds).toHaveLength(done.length);
    for (const r of done) {
      expect(refunds).toContainEqual(
        expect.objectContaining({
          kind: 'refund',
          paymentId: r.outTradeNo,
          refundNo: r.outRefundNo,
          amountFen: r.refund,
        }),
      );
    }
    // The file was fetched by a signed call, its hash checked.
    expect(fake.callsTo('/v3/billdownload/file').at(-1)?.signed).toBe(true);
    // The portal's download of the same bill reads the same: plain, gzip, with a BOM, or in GB18030.
    const file = fake.billFile(day);
    expect(createHash('sha1').update(file).digest('hex')).toHaveLength(40);
    expect(app.paymentProvider.parseBill!(file)).toEqual(lines);
    expect(app.paymentProvider.parseBill!(gzipSync(file))).toEqual(lines);
    expect(app.paymentProvider.parseBill!(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), file]))).toEqual(lines);
    expect(app.paymentProvider.parseBill!(gb18030(file.toString('utf8')))).toEqual(lines);
  });

  it('says when a bill is not ready, is empty, or does not match its hash', async () => {
    fake.state.bills.set('2025-06-15', 'creating');
    await expect(app.paymentProvider.fetchBill!('2025-06-15')).rejects.toBeInstanceOf(BillNotReadyError);
    // No bill of a day long over: no trade that day.
    fake.state.bills.set('2025-06-01', 'none');
    expect(await app.paymentProvider.fetchBill!('2025-06-01')).toEqual([]);
    // ... but of today, not yet.
    fake.state.bills.set(day, 'none');
    await expect(app.paymentProvider.fetchBill!(day)).rejects.toBeInstanceOf(BillNotReadyError);
    fake.state.bills.delete(day);
    fake.state.badBillHash = true;
    try {
      await expect(app.paymentProvider.fetchBill!(day)).rejects.toThrow(/SHA1/);
    } finally {
      fake.state.badBillHash = false;
    }
  });

  it('names the line of a broken bill and never returns half of it', async () => {
    const file = fake.billFile(day).toString('utf8');
    const rows = file.split('\r\n');
    const parse = (text: string) => () => app.paymentProvider.parseBill!(Buffer.from(text, 'utf8'));
    const expectLine = (text: string, line: number, message: RegExp) => {
      try {
        parse(text)();
      } catch (error) {
        expect(error).toBeInstanceOf(BillFormatError);
        expect((error as BillFormatError).line).toBe(line);
        expect((error as Error).message).toMatch(message);
        return;
      }
      throw new Error('the broken bill was read');
    };
    // A field too few on the second row.
    const short = [...rows];
    short[2] = short[2]!.slice(0, short[2]!.lastIndexOf(',`'));
    expectLine(short.join('\r\n'), 3, /fields where the header has/);
    // An amount that is not one.
    const amount = [...rows];
    amount[1] = amount[1]!.replace(/,`150\.00,/g, ',`15O.00,');
    expectLine(amount.join('\r\n'), 2, /not a positive amount/);
    // Cut short: no summary.
    expectLine(rows.slice(0, 3).join('\r\n'), 0, /cut short/);
    expectLine('hello\r\n', 0, /not a WeChat Pay trade bill/);
    // A comma inside the product name stays in its field; GB18030 (a spreadsheet's save) reads the same.
    const comma = rows.map((r, i) => (i === 1 ? r.replace(/,`([^`]*马拉松[^`]*),`/, ',`$1, 秋季,`') : r)).join('\r\n');
    expect(parse(comma)()).toEqual(parse(file)());
  });
});

/** Text in GB18030 (how a spreadsheet may save a bill), from the decoder's own table: tests only. */
function gb18030(text: string): Buffer {
  const decoder = new TextDecoder('gb18030');
  const table = new Map<string, number[]>();
  for (let a = 0x81; a <= 0xfe; a += 1)
    for (let b = 0x40; b <= 0xfe; b += 1) {
      if (b === 0x7f) continue;
      const char = decoder.decode(Uint8Array.from([a, b]));
      if (!table.has(char)) table.set(char, [a, b]);
    }
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else {
      const pair = table.get(char);
      if (!pair) throw new Error(`no GB18030 two-byte code for ${char}`);
      bytes.push(...pair);
    }
  }
  return Buffer.from(bytes);
}
