/**
 * WeChat Pay (API v3) as a payment provider (issue 31 §2), for a directly connected merchant (普通商户):
 * Native on the desktop site (a QR code the runner scans with WeChat, shown on our order page) and H5 on the
 * mobile site (WeChat Pay's page in the phone's browser, which opens WeChat). Written on Node's crypto: the
 * signatures and the encryption are a few calls (lib/payment/wechatpay-sign.ts), and this keeps the platform
 * public key mode (微信支付公钥, the keys of merchants since late 2024) and the platform certificates of the
 * older merchants side by side, which few Node packages do.
 *
 * Keys come from the environment (context.env), checked when the provider is made (the server does not start
 * on a missing or malformed one, and the message names the variable): see WECHATPAY_VARIABLES and
 * docs/payment-providers.md. Every request is signed with the merchant's API key; every answer (and every
 * notification) must carry a valid signature of WeChat Pay, checked with the platform public key when its
 * Wechatpay-Serial is the public key's id, with the platform certificate of that serial otherwise (fetched
 * from /v3/certificates, decrypted with the API v3 key and kept until it expires; an unknown serial fetches
 * them again, at most once a minute). An answer that fails is refused (the call throws).
 */
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
import { chinaRfc3339 } from './china-format.ts';
import { parseWechatpayBill } from './wechatpay-bill.ts';
import {
  decryptWechatpayResource,
  truncateUtf8,
  WECHATPAY_CLOCK_SKEW_MS,
  wechatpayAuthorization,
  wechatpayNonce,
  wechatpaySignatureValid,
} from './wechatpay-sign.ts';

export const WECHATPAY_PROVIDER = 'wechatpay';
export const WECHATPAY_DEFAULT_BASE_URL = 'https://api.mch.weixin.qq.com';

/** The variables WeChat Pay reads (lib/env.ts declares them too). */
export const WECHATPAY_VARIABLES = [
  'WECHATPAY_MCH_ID',
  'WECHATPAY_APP_ID',
  'WECHATPAY_API_V3_KEY',
  'WECHATPAY_PRIVATE_KEY',
  'WECHATPAY_PRIVATE_KEY_FILE',
  'WECHATPAY_CERT_SERIAL',
  'WECHATPAY_PUBLIC_KEY',
  'WECHATPAY_PUBLIC_KEY_FILE',
  'WECHATPAY_PUBLIC_KEY_ID',
  'WECHATPAY_BASE_URL',
] as const;

/** How long a call to WeChat Pay may take before it counts as failed (the caller retries). */
const CALL_TIMEOUT_MS = 20_000;
/** An unknown serial fetches the platform certificates again at most this often. */
const CERTIFICATES_REFETCH_MS = 60_000;
/** WeChat Pay's limit on description (商品描述): 127 bytes. */
const DESCRIPTION_BYTES = 127;
/** The bill of a day is published the next morning (China time): before then, no bill is "not ready", not empty. */
const BILL_READY_AFTER_MS = 34 * 3600_000;

export interface WechatPayConfig {
  mchId: string;
  appId: string;
  apiV3Key: Buffer;
  privateKey: KeyObject;
  certSerial: string;
  /** The platform public key mode: its id (PUB_KEY_ID_…) and key; undefined: platform certificates only. */
  publicKey?: { id: string; key: KeyObject };
  baseUrl: string;
}

/** A missing or malformed variable of WeChat Pay: the message names it (the server does not start). */
export class WechatPayConfigError extends Error {
  constructor(message: string) {
    super(`WeChat Pay (PAYMENT_PROVIDER=${WECHATPAY_PROVIDER}): ${message}`);
    this.name = 'WechatPayConfigError';
  }
}

type Env = Record<string, string | undefined>;

const valueOf = (env: Env, name: string) => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

/** A PEM given in NAME (its line breaks may be written \n, as in a .env file) or in the file NAME_FILE names. */
function pemOf(env: Env, name: string): { text: string; from: string } | undefined {
  const inline = valueOf(env, name);
  const file = valueOf(env, `${name}_FILE`);
  if (inline !== undefined && file !== undefined)
    throw new WechatPayConfigError(`set ${name} or ${name}_FILE, not both`);
  if (inline !== undefined)
    return { text: inline.includes('\n') ? inline : inline.replaceAll('\\n', '\n'), from: name };
  if (file === undefined) return undefined;
  try {
    return { text: readFileSync(file, 'utf8'), from: `${name}_FILE` };
  } catch (error) {
    const why = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new WechatPayConfigError(`${name}_FILE names a file that cannot be read (${why}): ${file}`);
  }
}

function rsaKey(make: () => KeyObject, from: string, what: string): KeyObject {
  let key: KeyObject;
  try {
    key = make();
  } catch {
    throw new WechatPayConfigError(`${from} is not ${what} in PEM (-----BEGIN …-----)`);
  }
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
    throw new WechatPayConfigError(`${from} must be an RSA key of 2048 bits or more (${what})`);
  return key;
}

/** WeChat Pay's settings from the environment; throws WechatPayConfigError naming the first bad variable. */
export function wechatPayConfig(env: Env): WechatPayConfig {
  const need = (name: string, pattern: RegExp, expected: string) => {
    const v = valueOf(env, name);
    if (v === undefined) throw new WechatPayConfigError(`${name} must be set (${expected})`);
    if (!pattern.test(v)) throw new WechatPayConfigError(`${name} must be ${expected}`);
    return v;
  };
  const mchId = need('WECHATPAY_MCH_ID', /^\d{6,32}$/, 'the merchant number (商户号), digits');
  const appId = need(
    'WECHATPAY_APP_ID',
    /^wx[0-9A-Za-z]{16}$/,
    'the AppID bound to the merchant (wx and 16 characters)',
  );
  const apiV3Text = valueOf(env, 'WECHATPAY_API_V3_KEY');
  if (apiV3Text === undefined)
    throw new WechatPayConfigError('WECHATPAY_API_V3_KEY must be set (the API v3 key, 32 characters)');
  const apiV3Key = Buffer.from(apiV3Text, 'utf8');
  if (apiV3Key.length !== 32)
    throw new WechatPayConfigError('WECHATPAY_API_V3_KEY must be 32 characters (the API v3 key)');
  const privatePem = pemOf(env, 'WECHATPAY_PRIVATE_KEY');
  if (!privatePem)
    throw new WechatPayConfigError(
      'WECHATPAY_PRIVATE_KEY or WECHATPAY_PRIVATE_KEY_FILE must be set (the merchant API key, apiclient_key.pem)',
    );
  const privateKey = rsaKey(
    () => createPrivateKey(privatePem.text),
    privatePem.from,
    'the merchant API private key (apiclient_key.pem)',
  );
  const certSerial = need(
    'WECHATPAY_CERT_SERIAL',
    /^[0-9A-Fa-f]{8,40}$/,
    'the merchant API certificate serial number (证书序列号), hexadecimal',
  ).toUpperCase();
  const publicPem = pemOf(env, 'WECHATPAY_PUBLIC_KEY');
  const publicKeyId = valueOf(env, 'WECHATPAY_PUBLIC_KEY_ID');
  let publicKey: WechatPayConfig['publicKey'];
  if (publicPem && publicKeyId === undefined)
    throw new WechatPayConfigError('WECHATPAY_PUBLIC_KEY_ID must be set with the platform public key (PUB_KEY_ID_…)');
  if (!publicPem && publicKeyId !== undefined)
    throw new WechatPayConfigError(
      'WECHATPAY_PUBLIC_KEY or WECHATPAY_PUBLIC_KEY_FILE must be set with WECHATPAY_PUBLIC_KEY_ID',
    );
  if (publicPem && publicKeyId !== undefined) {
    if (!/^PUB_KEY_ID_[0-9A-Za-z_]{1,64}$/.test(publicKeyId))
      throw new WechatPayConfigError('WECHATPAY_PUBLIC_KEY_ID must be the platform public key id (PUB_KEY_ID_…)');
    publicKey = {
      id: publicKeyId,
      key: rsaKey(
        () => createPublicKey(publicPem.text),
        publicPem.from,
        'the WeChat Pay platform public key (pub_key.pem)',
      ),
    };
  }
  const baseText = valueOf(env, 'WECHATPAY_BASE_URL') ?? WECHATPAY_DEFAULT_BASE_URL;
  let base: URL;
  try {
    base = new URL(baseText);
  } catch {
    throw new WechatPayConfigError('WECHATPAY_BASE_URL must be an http(s) URL');
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    throw new WechatPayConfigError('WECHATPAY_BASE_URL must be an http(s) URL');
  return { mchId, appId, apiV3Key, privateKey, certSerial, publicKey, baseUrl: base.href.replace(/\/$/, '') };
}

/** An answer of WeChat Pay: its status, its body (parsed JSON, or undefined) and its text. */
interface Answer {
  status: number;
  json: Record<string, unknown> | undefined;
  text: string;
}

/** WeChat Pay refused a call (or answered what we cannot use): its code and message, never our keys. */
export class WechatPayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`WeChat Pay ${status} ${code}: ${message}`);
    this.name = 'WechatPayError';
  }
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
const record = (v: unknown) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined);
const fen = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);

/** IPv4 written as IPv6 (::ffff:1.2.3.4, as Node reports it on a dual-stack socket) as plain IPv4. */
const plainIp = (ip: string) => ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

export function createWechatPayProvider(context: PaymentProviderContext): PaymentProvider {
  const config = wechatPayConfig(context.env);
  const { mchId, appId } = config;
  const now = () => context.now();

  // ---- platform certificates (the older mode; fetched on demand, kept until they expire) --------------------

  const certificates = new Map<string, { key: KeyObject; expiresAt: number }>();
  let certificatesFetchedAt = Number.NEGATIVE_INFINITY;
  let fetching: Promise<void> | undefined;

  async function fetchCertificates(): Promise<void> {
    certificatesFetchedAt = now();
    const answer = await call('GET', '/v3/certificates', undefined, { verified: false });
    if (answer.status !== 200) throw errorOf(answer);
    const list = Array.isArray(answer.json?.data) ? answer.json.data : [];
    const found = new Map<string, { key: KeyObject; expiresAt: number }>();
    for (const item of list) {
      const entry = record(item);
      const serial = text(entry?.serial_no);
      const encrypted = record(entry?.encrypt_certificate);
      if (!serial || !encrypted) continue;
      const pem = decryptWechatpayResource(config.apiV3Key, {
        ciphertext: text(encrypted.ciphertext) ?? '',
        nonce: text(encrypted.nonce) ?? '',
        associated_data: text(encrypted.associated_data),
      });
      const certificate = new X509Certificate(pem);
      const expiresAt = Date.parse(text(entry?.expire_time) ?? certificate.validTo);
      found.set(serial.toUpperCase(), { key: certificate.publicKey, expiresAt });
    }
    // The answer itself is signed by one of the certificates it brings (or by the public key).
    if (!verifyWith(answer, (serial) => found.get(serial)?.key))
      throw new WechatPayError(
        answer.status,
        'SIGN_ERROR',
        'the platform certificates answer is not signed by WeChat Pay',
      );
    for (const [serial, value] of found) certificates.set(serial, value);
  }

  /** The key of a Wechatpay-Serial: the public key (its id), else a platform certificate (fetched when unknown). */
  async function keyOf(serial: string): Promise<KeyObject | undefined> {
    if (config.publicKey && serial === config.publicKey.id) return config.publicKey.key;
    const known = () => {
      const c = certificates.get(serial.toUpperCase());
      return c && c.expiresAt > now() ? c.key : undefined;
    };
    if (known() || serial.startsWith('PUB_KEY_ID_')) return known();
    if (now() - certificatesFetchedAt >= CERTIFICATES_REFETCH_MS) {
      fetching ??= fetchCertificates().finally(() => {
        fetching = undefined;
      });
      await fetching;
    } else if (fetching) {
      await fetching;
    }
    return known();
  }

  /** A signed message's signature headers, or why they cannot be used (missing, or its time 5 minutes off). */
  function signatureHeaders(
    headers: Record<string, string | string[] | undefined>,
  ): { timestamp: string; nonce: string; signature: string; serial: string } | { problem: string } {
    const timestamp = header(headers, 'wechatpay-timestamp');
    const nonce = header(headers, 'wechatpay-nonce');
    const signature = header(headers, 'wechatpay-signature');
    const serial = header(headers, 'wechatpay-serial');
    if (!timestamp || !nonce || !signature || !serial) return { problem: 'unsigned' };
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) * 1000 - now()) > WECHATPAY_CLOCK_SKEW_MS)
      return { problem: 'timestamp' };
    return { timestamp, nonce, signature, serial };
  }

  /** Whether an answer is signed by the key its serial names: the public key, else one `lookup` finds. */
  function verifyWith(
    answer: { headers: Record<string, string | string[] | undefined>; text: string },
    lookup: (serial: string) => KeyObject | undefined,
  ): boolean {
    const parts = signatureHeaders(answer.headers);
    if ('problem' in parts) return false;
    const key =
      config.publicKey && parts.serial === config.publicKey.id
        ? config.publicKey.key
        : lookup(parts.serial.toUpperCase());
    return key !== undefined && wechatpaySignatureValid(key, { ...parts, body: answer.text });
  }

  /** The reason a signed message (answer or notification) is refused, or undefined when it checks out. */
  async function signatureProblem(
    headers: Record<string, string | string[] | undefined>,
    body: string,
  ): Promise<string | undefined> {
    const parts = signatureHeaders(headers);
    if ('problem' in parts) return parts.problem;
    const key = await keyOf(parts.serial);
    if (!key) return 'unknownSerial';
    return wechatpaySignatureValid(key, { ...parts, body }) ? undefined : 'signature';
  }

  // ---- calls ----------------------------------------------------------------------------------------------

  /**
   * One signed call. `path` is WeChat Pay's path and query (or an absolute URL on its host: a bill's
   * download_url). The answer's signature is checked unless `verified: false` (the caller checks it: the
   * certificates' answer, or a bill file, which is checked by its hash). Network errors throw.
   */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body: object | undefined,
    options: { verified?: boolean; raw?: boolean } = {},
  ): Promise<Answer & { headers: Record<string, string>; bytes: Buffer }> {
    const url = new URL(path, `${config.baseUrl}/`);
    if (url.origin !== new URL(config.baseUrl).origin) throw new Error(`refusing to sign a call to ${url.origin}`);
    const payload = body === undefined ? '' : JSON.stringify(body);
    const authorization = wechatpayAuthorization({
      mchId,
      serialNo: config.certSerial,
      privateKey: config.privateKey,
      method,
      url: `${url.pathname}${url.search}`,
      body: payload,
      timestamp: Math.floor(now() / 1000),
      nonce: wechatpayNonce(),
    });
    const response = await fetch(url, {
      method,
      headers: {
        authorization,
        accept: options.raw ? '*/*' : 'application/json',
        'user-agent': 'race-site (WeChat Pay API v3)',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : payload,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      redirect: 'error',
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const answerText = options.raw ? '' : bytes.toString('utf8');
    const headers = Object.fromEntries(response.headers.entries());
    let json: Record<string, unknown> | undefined;
    if (!options.raw && answerText !== '') {
      try {
        json = record(JSON.parse(answerText));
      } catch {
        json = undefined;
      }
    }
    const answer = { status: response.status, json, text: answerText, headers, bytes };
    if (options.verified !== false && response.status >= 200 && response.status < 300) {
      const problem = await signatureProblem(headers, answerText);
      if (problem)
        throw new WechatPayError(response.status, 'SIGN_ERROR', `the answer failed its signature check (${problem})`);
    }
    return answer;
  }

  const errorOf = (answer: Answer) =>
    new WechatPayError(
      answer.status,
      text(answer.json?.code) ?? 'UNKNOWN',
      (text(answer.json?.message) ?? answer.text).slice(0, 200),
    );

  const transactionPath = (paymentId: string) =>
    `/v3/pay/transactions/out-trade-no/${encodeURIComponent(paymentId)}?mchid=${encodeURIComponent(mchId)}`;

  /** A transaction as WeChat Pay knows it, or undefined when it has none of that id. */
  async function transaction(paymentId: string): Promise<Record<string, unknown> | undefined> {
    const answer = await call('GET', transactionPath(paymentId), undefined);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200 || !answer.json) throw errorOf(answer);
    return answer.json;
  }

  /** A refund's answer (POST or GET) in our terms. */
  function refundResult(json: Record<string, unknown>): RefundResult {
    const status = text(json.status);
    const refundTradeNo = text(json.refund_id) ?? '';
    if (status === 'SUCCESS') return { status: 'done', refundTradeNo };
    if (status === 'PROCESSING') return { status: 'pending', refundTradeNo };
    if (status === 'ABNORMAL')
      return {
        status: 'failed',
        refundTradeNo,
        reason:
          'ABNORMAL: the runner’s account could not take the money back; handle it in the merchant portal (退款异常)',
      };
    if (status === 'CLOSED') return { status: 'failed', refundTradeNo, reason: 'CLOSED: WeChat Pay closed the refund' };
    throw new WechatPayError(200, 'UNKNOWN', `a refund in the state ${status ?? '(none)'}`);
  }

  return {
    name: WECHATPAY_PROVIDER,

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      if (!Number.isSafeInteger(input.amountFen) || input.amountFen <= 0)
        throw new Error(`a WeChat Pay payment needs a positive amount in fen, not ${input.amountFen}`);
      const mobile = input.site === 'mobile';
      const body = {
        appid: appId,
        mchid: mchId,
        description: truncateUtf8(input.subject, DESCRIPTION_BYTES),
        out_trade_no: input.paymentId,
        time_expire: chinaRfc3339(input.expiresAt),
        notify_url: input.notifyUrl,
        amount: { total: input.amountFen, currency: 'CNY' },
        ...(mobile ? { scene_info: { payer_client_ip: plainIp(input.clientIp), h5_info: { type: 'Wap' } } } : {}),
      };
      const answer = await call('POST', mobile ? '/v3/pay/transactions/h5' : '/v3/pay/transactions/native', body);
      if (answer.status !== 200 || !answer.json) throw errorOf(answer);
      if (mobile) {
        const h5Url = text(answer.json.h5_url);
        if (!h5Url) throw new WechatPayError(answer.status, 'NO_H5_URL', 'the H5 answer has no h5_url');
        const cashierUrl = `${h5Url}${h5Url.includes('?') ? '&' : '?'}redirect_url=${encodeURIComponent(input.returnUrl)}`;
        return { cashierUrl, qrContent: h5Url, display: 'redirect' };
      }
      const codeUrl = text(answer.json.code_url);
      if (!codeUrl) throw new WechatPayError(answer.status, 'NO_CODE_URL', 'the Native answer has no code_url');
      return { cashierUrl: '', qrContent: codeUrl, display: 'qr' };
    },

    async verifyNotification(headers, rawBody): Promise<NotificationCheck> {
      try {
        const problem = await signatureProblem(headers, rawBody);
        if (problem) return { ok: false, reason: problem };
        const body = record(JSON.parse(rawBody));
        const resource = record(body?.resource);
        const id = text(body?.id);
        if (!body || !resource || !id || resource.algorithm !== 'AEAD_AES_256_GCM')
          return { ok: false, reason: 'body' };
        let plain: string;
        try {
          plain = decryptWechatpayResource(config.apiV3Key, {
            ciphertext: text(resource.ciphertext) ?? '',
            nonce: text(resource.nonce) ?? '',
            associated_data: text(resource.associated_data),
          });
        } catch {
          return { ok: false, reason: 'decrypt' };
        }
        const t = record(JSON.parse(plain));
        const amount = fen(record(t?.amount)?.total);
        const paymentId = text(t?.out_trade_no);
        if (!t || !paymentId || amount === undefined) return { ok: false, reason: 'resource' };
        if (t.mchid !== mchId || t.appid !== appId) return { ok: false, reason: 'merchant' };
        const state = text(t.trade_state);
        const tradeNo = text(t.transaction_id) ?? '';
        if (body.event_type === 'TRANSACTION.SUCCESS' && state === 'SUCCESS') {
          const paidAt = Date.parse(text(t.success_time) ?? '');
          if (!tradeNo || !Number.isFinite(paidAt)) return { ok: false, reason: 'resource' };
          return {
            ok: true,
            notification: { notificationId: id, paymentId, status: 'paid', tradeNo, amountFen: amount, paidAt },
          };
        }
        if (state === 'CLOSED' || state === 'PAYERROR' || state === 'REVOKED') {
          return {
            ok: true,
            notification: {
              notificationId: id,
              paymentId,
              status: 'failed',
              tradeNo,
              amountFen: amount,
              paidAt: now(),
            },
          };
        }
        return { ok: false, reason: `state ${state ?? '(none)'}` };
      } catch {
        // Not JSON, or the platform certificates could not be fetched: refused now, WeChat Pay repeats it.
        return { ok: false, reason: 'unverifiable' };
      }
    },

    async query(paymentId: string): Promise<PaymentState> {
      const t = await transaction(paymentId);
      if (!t) return { status: 'unknown', tradeNo: null, amountFen: null, paidAt: null };
      const state = text(t.trade_state);
      const tradeNo = text(t.transaction_id) ?? null;
      const amountFen = fen(record(t.amount)?.total) ?? null;
      if (state === 'SUCCESS' || state === 'REFUND') {
        const paidAt = Date.parse(text(t.success_time) ?? '');
        return { status: 'paid', tradeNo, amountFen, paidAt: Number.isFinite(paidAt) ? paidAt : null };
      }
      const status: PaymentState['status'] =
        state === 'NOTPAY' || state === 'USERPAYING'
          ? 'created'
          : state === 'CLOSED' || state === 'REVOKED'
            ? 'closed'
            : state === 'PAYERROR'
              ? 'failed'
              : 'unknown';
      return { status, tradeNo, amountFen, paidAt: null };
    },

    async refund(input: RefundInput): Promise<RefundResult> {
      // The same out_refund_no is one refund at WeChat Pay: asked first, so a retry reads what the first made.
      const known = await call('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(input.refundNo)}`, undefined);
      if (known.status === 200 && known.json) return refundResult(known.json);
      if (known.status !== 404) throw errorOf(known);
      // The refund needs the payment's whole amount (amount.total).
      const t = await transaction(input.paymentId);
      const total = fen(record(t?.amount)?.total);
      if (!t || total === undefined)
        return { status: 'failed', refundTradeNo: '', reason: `WeChat Pay has no payment ${input.paymentId}` };
      // No `reason`: WeChat Pay shows it to the runner, and ours is an internal code (latePayment, notWon…).
      const answer = await call('POST', '/v3/refund/domestic/refunds', {
        out_trade_no: input.paymentId,
        out_refund_no: input.refundNo,
        amount: { refund: input.amountFen, total, currency: 'CNY' },
      });
      if (answer.status === 200 && answer.json) return refundResult(answer.json);
      if (answer.status >= 400 && answer.status < 500 && answer.json) {
        const error = errorOf(answer);
        return { status: 'failed', refundTradeNo: '', reason: `${error.code}: ${text(answer.json.message) ?? ''}` };
      }
      throw errorOf(answer);
    },

    async close(paymentId: string): Promise<void> {
      const answer = await call('POST', `${transactionPath(paymentId).split('?')[0]!}/close`, { mchid: mchId });
      if (answer.status === 204 || answer.status === 200) return;
      // Never created at WeChat Pay (the runner never reached its cashier): nothing to close.
      if (answer.status === 404) return;
      throw errorOf(answer);
    },

    notifyAnswer(accepted: boolean, reason?: string): NotifyAnswer {
      // WeChat Pay: 200 or 204 acknowledges; a 4xx/5xx with {code: FAIL, message} is repeated later.
      return accepted
        ? {
            statusCode: 200,
            contentType: 'application/json; charset=utf-8',
            body: JSON.stringify({ code: 'SUCCESS', message: '成功' }),
          }
        : {
            statusCode: 400,
            contentType: 'application/json; charset=utf-8',
            body: JSON.stringify({ code: 'FAIL', message: (reason ?? 'refused').slice(0, 64) }),
          };
    },

    async fetchBill(day: string): Promise<BillLine[]> {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`a bill's day is YYYY-MM-DD, not ${day}`);
      const answer = await call('GET', `/v3/bill/tradebill?bill_date=${day}&bill_type=ALL`, undefined);
      if (answer.status === 400 && answer.json) {
        const code = text(answer.json.code);
        const dayStart = Date.parse(`${day}T00:00:00+08:00`);
        if (code === 'STATEMENT_CREATING' || (code === 'NO_STATEMENT_EXIST' && now() < dayStart + BILL_READY_AFTER_MS))
          throw new BillNotReadyError(`WeChat Pay has no bill of ${day} yet (${code})`);
        // The day is long over and WeChat Pay has no bill: no trade or refund took place that day.
        if (code === 'NO_STATEMENT_EXIST') return [];
      }
      if (answer.status !== 200 || !answer.json) throw errorOf(answer);
      const downloadUrl = text(answer.json.download_url);
      const hash = text(answer.json.hash_value)?.toLowerCase();
      if (!downloadUrl || !hash || (answer.json.hash_type ?? 'SHA1') !== 'SHA1')
        throw new WechatPayError(200, 'BILL', 'the bill answer has no download_url or SHA1 hash');
      const file = await call('GET', downloadUrl, undefined, { verified: false, raw: true });
      if (file.status !== 200)
        throw new WechatPayError(file.status, 'BILL', `the bill download answered ${file.status}`);
      const got = createHash('sha1').update(file.bytes).digest('hex');
      if (got !== hash) throw new WechatPayError(200, 'BILL_HASH', `the bill of ${day} does not match its SHA1 hash`);
      return parseWechatpayBill(file.bytes);
    },

    parseBill: (content: Buffer) => parseWechatpayBill(content),
  };
}
