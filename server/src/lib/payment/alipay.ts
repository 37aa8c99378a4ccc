/**
 * Alipay (支付宝) as a payment provider (issue 31 §1), through Alipay's official Node SDK (`alipay-sdk`) on the
 * OpenAPI gateway (`gateway.do`, RSA2 signatures, public-key mode):
 *
 * - createPayment: the runner's cashier, 电脑网站支付 (`alipay.trade.page.pay`, FAST_INSTANT_TRADE_PAY) from the
 *   desktop site or 手机网站支付 (`alipay.trade.wap.pay`, QUICK_WAP_WAY) from the phone site, as a signed GET URL
 *   the browser is sent to; `time_expire` is the order's deadline, so Alipay takes no money after it.
 * - verifyNotification: the asynchronous notification (a form-urlencoded POST) verified over its raw parameters
 *   with Alipay's public key (the SDK's checkNotifySignV2), for our app_id; TRADE_SUCCESS and TRADE_FINISHED
 *   are paid, TRADE_CLOSED failed (or, after a full refund, nothing new), WAIT_BUYER_PAY acknowledged without
 *   acting. Answered `success` once recorded, `fail` otherwise (Alipay repeats it: 8 times over 25 hours).
 * - query (`alipay.trade.query`), refund (`alipay.trade.refund` with out_request_no = our refund number, so a
 *   retried refund is the same refund; a repeat answers fund_change N and is confirmed by
 *   `alipay.trade.fastpay.refund.query`), close (`alipay.trade.close`).
 * - fetchBill (`alipay.data.dataservice.bill.downloadurl.query`, bill_type trade) and parseBill: the daily
 *   bill's detail CSV (lib/payment/alipay-bill.ts).
 *
 * Keys from the environment (docs/payment-providers.md says how to get them): ALIPAY_APP_ID,
 * ALIPAY_PRIVATE_KEY or ALIPAY_PRIVATE_KEY_FILE (the application's private key: PEM PKCS#1 or PKCS#8, or the
 * bare base64 Alipay's key tool writes), ALIPAY_PUBLIC_KEY or ALIPAY_PUBLIC_KEY_FILE (支付宝公钥, Alipay's
 * public key, not the application's), ALIPAY_GATEWAY (default Alipay's production gateway). A missing or
 * malformed one throws at make time naming the variable: the server does not start.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AlipaySdk, AlipaySdkCommonResult } from 'alipay-sdk';
import { chinaTime, fenToYuan, parseChinaTime, yuanToFen } from './china-format.ts';
import { parseAlipayBill } from './alipay-bill.ts';
import {
  BillNotReadyError,
  type BillLine,
  type CreatedPayment,
  type CreatePaymentInput,
  type NotificationCheck,
  type NotifyAnswer,
  type PaymentProvider,
  type PaymentProviderContext,
  type PaymentState,
  type RefundInput,
  type RefundResult,
} from './provider.ts';

export const ALIPAY_PROVIDER = 'alipay';
/** Alipay's production gateway (ALIPAY_GATEWAY's default). */
export const ALIPAY_GATEWAY_PRODUCTION = 'https://openapi.alipay.com/gateway.do';
/** Alipay's sandbox gateway (开放平台 → 沙箱环境), for a dry run with the sandbox app's keys. */
export const ALIPAY_GATEWAY_SANDBOX = 'https://openapi-sandbox.dl.alipaydev.com/gateway.do';

/** How long a call to the gateway may take. */
const CALL_TIMEOUT_MS = 15_000;
/** How long the bill's download may take. */
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** A bad Alipay setting: the message names the variable. */
export class AlipayConfigError extends Error {}

type Env = Record<string, string | undefined>;

const value = (env: Env, name: string) => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

/** A key's text from NAME or from the file NAME_FILE names (exactly one of them). */
function keyText(env: Env, name: string, what: string): { text: string; from: string } {
  const inline = value(env, name);
  const file = value(env, `${name}_FILE`);
  if (inline !== undefined && file !== undefined) {
    throw new AlipayConfigError(`${name} and ${name}_FILE are both set: set one of them (${what})`);
  }
  if (inline !== undefined) return { text: inline.replaceAll('\\n', '\n'), from: name };
  if (file === undefined) {
    throw new AlipayConfigError(`${name} or ${name}_FILE must be set for PAYMENT_PROVIDER=alipay (${what})`);
  }
  try {
    return { text: readFileSync(file, 'utf8').trim(), from: `${name}_FILE` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new AlipayConfigError(`${name}_FILE=${file}: the file cannot be read (${code}) (${what})`);
  }
}

/** A PEM key, or the bare base64 (DER) Alipay's key tool and the open platform show. */
function parseKey(text: string, kind: 'private' | 'public'): KeyObject {
  if (text.includes('-----BEGIN')) return kind === 'private' ? createPrivateKey(text) : createPublicKey(text);
  const der = Buffer.from(text.replace(/\s+/g, ''), 'base64');
  const types = kind === 'private' ? (['pkcs8', 'pkcs1'] as const) : (['spki', 'pkcs1'] as const);
  let last: unknown;
  for (const type of types) {
    try {
      return kind === 'private'
        ? createPrivateKey({ key: der, format: 'der', type: type as 'pkcs8' | 'pkcs1' })
        : createPublicKey({ key: der, format: 'der', type: type as 'spki' | 'pkcs1' });
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

/** An RSA key of at least 2048 bits (RSA2) from the environment, or AlipayConfigError naming the variable. */
function rsaKey(env: Env, name: string, kind: 'private' | 'public', what: string): KeyObject {
  const { text, from } = keyText(env, name, what);
  let key: KeyObject;
  try {
    key = parseKey(text, kind);
  } catch {
    throw new AlipayConfigError(
      `${from} is not a readable RSA ${kind} key (PEM PKCS#1 or PKCS#8, or the base64 text of Alipay's key tool) (${what})`,
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < 2048) {
    throw new AlipayConfigError(`${from} must be an RSA key of 2048 bits (RSA2) (${what})`);
  }
  return key;
}

export interface AlipaySettings {
  appId: string;
  privateKey: KeyObject;
  alipayPublicKey: KeyObject;
  gateway: string;
}

/** Alipay's settings from the environment; throws AlipayConfigError naming the variable that is missing or bad. */
export function alipaySettings(env: Env): AlipaySettings {
  const appId = value(env, 'ALIPAY_APP_ID');
  if (appId === undefined) {
    throw new AlipayConfigError('ALIPAY_APP_ID must be set for PAYMENT_PROVIDER=alipay (the APPID of your Alipay app)');
  }
  if (!/^\d{8,32}$/.test(appId)) {
    throw new AlipayConfigError(`ALIPAY_APP_ID must be the APPID of your Alipay app (digits), got "${appId}"`);
  }
  const privateKey = rsaKey(env, 'ALIPAY_PRIVATE_KEY', 'private', "your application's private key, 应用私钥");
  const alipayPublicKey = rsaKey(env, 'ALIPAY_PUBLIC_KEY', 'public', "Alipay's public key, 支付宝公钥");
  const own = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  if (own.equals(alipayPublicKey.export({ type: 'spki', format: 'der' }))) {
    throw new AlipayConfigError(
      "ALIPAY_PUBLIC_KEY is your application's own public key (应用公钥): it must be Alipay's public key (支付宝公钥), " +
        'shown on the open platform once your application public key is uploaded',
    );
  }
  const gateway = value(env, 'ALIPAY_GATEWAY') ?? ALIPAY_GATEWAY_PRODUCTION;
  let url: URL | undefined;
  try {
    url = new URL(gateway);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new AlipayConfigError(`ALIPAY_GATEWAY must be an https:// URL (Alipay's gateway.do), got "${gateway}"`);
  }
  return { appId, privateKey, alipayPublicKey, gateway };
}

/** What a call to the gateway answered that was not a success: its codes and Alipay's words. */
const refusal = (r: AlipaySdkCommonResult) =>
  [r.sub_msg ?? r.msg, r.sub_code ?? r.code].filter((part) => typeof part === 'string' && part !== '').join(' · ');

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A notification's or answer's trade status in our terms. */
const PAID_STATUSES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/** An out_trade_no as Alipay takes it (ours are letters and digits). */
const PAYMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Alipay's subject: at most 256 characters, none of / = & (Alipay refuses them). */
const subjectOf = (subject: string) => subject.replace(/[/=&]/g, ' ').slice(0, 256);

export function createAlipayProvider(context: PaymentProviderContext): PaymentProvider {
  const settings = alipaySettings(context.env);
  // The SDK (and its HTTP client) is loaded only by a server that takes payments through Alipay.
  let loaded: Promise<AlipaySdk> | undefined;
  const alipaySdk = () =>
    (loaded ??= import('alipay-sdk').then(
      ({ AlipaySdk }) =>
        new AlipaySdk({
          appId: settings.appId,
          privateKey: settings.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
          keyType: 'PKCS1',
          alipayPublicKey: settings.alipayPublicKey.export({ type: 'spki', format: 'pem' }).toString(),
          gateway: settings.gateway,
          signType: 'RSA2',
          camelcase: false,
          timeout: CALL_TIMEOUT_MS,
        }),
    ));
  // The request's time is China time, as Alipay reads it (the SDK would write the server's local time).
  const timestamp = () => chinaTime(context.now());

  /** One call to the gateway, its answer's signature checked; throws on the network or a bad answer. */
  async function call(method: string, bizContent: Record<string, string>): Promise<AlipaySdkCommonResult> {
    try {
      const sdk = await alipaySdk();
      return await sdk.exec(method, { bizContent, timestamp: timestamp() }, { validateSign: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const why = message.startsWith('验签失败')
        ? "its answer's signature does not verify with ALIPAY_PUBLIC_KEY"
        : message.slice(0, 200);
      throw new Error(`Alipay ${method}: ${why}`, { cause: error });
    }
  }
  const succeeded = (r: AlipaySdkCommonResult) => r.code === '10000';

  return {
    name: ALIPAY_PROVIDER,

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const phone = input.site === 'mobile';
      const bizContent: Record<string, string> = {
        out_trade_no: input.paymentId,
        total_amount: fenToYuan(input.amountFen),
        subject: subjectOf(input.subject),
        product_code: phone ? 'QUICK_WAP_WAY' : 'FAST_INSTANT_TRADE_PAY',
        time_expire: chinaTime(input.expiresAt),
      };
      // Where a runner who leaves the phone cashier without paying goes: their order page, not paid.
      if (phone) bizContent.quit_url = input.returnUrl.replace(/([?&])paid=1\b/, '$1paid=0');
      const sdk = await alipaySdk();
      const cashierUrl = sdk.pageExecute(phone ? 'alipay.trade.wap.pay' : 'alipay.trade.page.pay', 'GET', {
        bizContent,
        notifyUrl: input.notifyUrl,
        returnUrl: input.returnUrl,
        timestamp: timestamp(),
      });
      return { cashierUrl, qrContent: cashierUrl, display: 'redirect' };
    },

    async verifyNotification(_headers, rawBody): Promise<NotificationCheck> {
      const form = new URLSearchParams(rawBody);
      const params: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [key, v] of form) {
        if (Object.hasOwn(params, key)) return { ok: false, reason: 'body' };
        params[key] = v;
      }
      if (!params.sign) return { ok: false, reason: 'signature' };
      // Alipay signs the parameters that have a value; the SDK's check keeps empty ones: both are tried.
      const withValues = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== ''));
      const sdk = await alipaySdk();
      const signed = sdk.checkNotifySignV2(params) || sdk.checkNotifySignV2(withValues);
      if (!signed) return { ok: false, reason: 'signature' };
      if (params.app_id !== settings.appId) return { ok: false, reason: 'app_id' };
      const status = params.trade_status;
      // Not a final state: nothing to act on, acknowledged so that Alipay stops repeating it.
      if (status === 'WAIT_BUYER_PAY') return { ok: false, reason: 'not final', acknowledge: true };
      if (!status || (!PAID_STATUSES.has(status) && status !== 'TRADE_CLOSED')) return { ok: false, reason: 'body' };
      const paymentId = params.out_trade_no ?? '';
      const amountFen = yuanToFen(params.total_amount ?? '');
      const notificationId = params.notify_id ?? '';
      const tradeNo = params.trade_no ?? '';
      if (!PAYMENT_ID.test(paymentId) || amountFen === undefined) return { ok: false, reason: 'body' };
      if (notificationId === '' || notificationId.length > 128 || tradeNo === '' || tradeNo.length > 64) {
        return { ok: false, reason: 'body' };
      }
      const paid = PAID_STATUSES.has(status);
      const at = parseChinaTime((paid ? params.gmt_payment : (params.gmt_close ?? params.notify_time)) ?? '');
      if (at === undefined) return { ok: false, reason: 'body' };
      return {
        ok: true,
        notification: { notificationId, paymentId, status: paid ? 'paid' : 'failed', tradeNo, amountFen, paidAt: at },
      };
    },

    async query(paymentId: string): Promise<PaymentState> {
      const r = await call('alipay.trade.query', { out_trade_no: paymentId });
      if (!succeeded(r)) {
        // Alipay knows a cashier payment once the runner has opened it: before that, nothing was taken.
        if (r.sub_code === 'ACQ.TRADE_NOT_EXIST')
          return { status: 'created', tradeNo: null, amountFen: null, paidAt: null };
        throw new Error(`Alipay alipay.trade.query: ${refusal(r)}`);
      }
      const status = text(r.trade_status) ?? '';
      const tradeNo = text(r.trade_no) ?? null;
      const amountFen = yuanToFen(text(r.total_amount) ?? '') ?? null;
      if (PAID_STATUSES.has(status)) {
        const paidAt = parseChinaTime(text(r.send_pay_date) ?? '') ?? null;
        return { status: 'paid', tradeNo, amountFen, paidAt };
      }
      if (status === 'TRADE_CLOSED') return { status: 'closed', tradeNo, amountFen, paidAt: null };
      if (status === 'WAIT_BUYER_PAY') return { status: 'created', tradeNo, amountFen, paidAt: null };
      return { status: 'unknown', tradeNo, amountFen, paidAt: null };
    },

    async refund(input: RefundInput): Promise<RefundResult> {
      const r = await call('alipay.trade.refund', {
        out_trade_no: input.paymentId,
        refund_amount: fenToYuan(input.amountFen),
        out_request_no: input.refundNo,
        refund_reason: input.reason.slice(0, 256),
      });
      const refundTradeNo = text(r.trade_no) ?? input.tradeNo;
      if (!succeeded(r)) return { status: 'failed', refundTradeNo, reason: refusal(r) };
      if (r.fund_change === 'Y') return { status: 'done', refundTradeNo };
      // fund_change N: this request number was refunded before (a retry), or Alipay is still at it.
      const q = await call('alipay.trade.fastpay.refund.query', {
        out_trade_no: input.paymentId,
        out_request_no: input.refundNo,
      });
      if (!succeeded(q)) return { status: 'failed', refundTradeNo, reason: refusal(q) };
      if (q.refund_status !== 'REFUND_SUCCESS') return { status: 'pending', refundTradeNo };
      const refunded = text(q.refund_amount) ?? '';
      if (yuanToFen(refunded) === input.amountFen) return { status: 'done', refundTradeNo };
      // The number was used before for another amount: never counted as this refund.
      return { status: 'failed', refundTradeNo, reason: `${input.refundNo} refunded ${refunded} yuan before` };
    },

    async close(paymentId: string): Promise<void> {
      const r = await call('alipay.trade.close', { out_trade_no: paymentId });
      // Never opened (Alipay has no such trade), or already closed or paid (a late "paid" is handled): done.
      if (succeeded(r) || r.sub_code === 'ACQ.TRADE_NOT_EXIST' || r.sub_code === 'ACQ.TRADE_STATUS_ERROR') return;
      throw new Error(`Alipay alipay.trade.close: ${refusal(r)}`);
    },

    notifyAnswer(accepted: boolean): NotifyAnswer {
      // Alipay reads the body: 'success' stops its repeats; anything else is repeated later.
      return { statusCode: 200, contentType: 'text/plain; charset=utf-8', body: accepted ? 'success' : 'fail' };
    },

    async fetchBill(day: string): Promise<BillLine[]> {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`not a day: ${day}`);
      const r = await call('alipay.data.dataservice.bill.downloadurl.query', { bill_type: 'trade', bill_date: day });
      if (!succeeded(r)) {
        if (r.sub_code === 'isp.bill_not_exist') throw new BillNotReadyError(`Alipay has no bill of ${day} yet`);
        throw new Error(`Alipay alipay.data.dataservice.bill.downloadurl.query: ${refusal(r)}`);
      }
      const url = text(r.bill_download_url);
      if (!url) throw new Error('Alipay alipay.data.dataservice.bill.downloadurl.query: no bill_download_url');
      const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`Alipay's bill of ${day}: download answered HTTP ${response.status}`);
      return parseAlipayBill(Buffer.from(await response.arrayBuffer()));
    },

    parseBill: (content: Buffer) => parseAlipayBill(content),
  };
}
