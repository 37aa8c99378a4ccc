/**
 * A fake WeChat Pay (API v3) gateway for tests: a local node:http server speaking its request and answer
 * formats, written apart from our provider (its own signing and encryption code, from WeChat Pay's documents),
 * so a mistake in one is not repeated in the other.
 *
 * - Every request must carry a valid `WECHATPAY2-SHA256-RSA2048` Authorization of the merchant (its number,
 *   its certificate serial, a timestamp within 5 minutes, a signature checked with the merchant's public
 *   key); otherwise 401 SIGN_ERROR.
 * - Every answer is signed with the platform key: the platform public key (Wechatpay-Serial PUB_KEY_ID_…) or
 *   a platform certificate (its serial), as `signWith` says; /v3/certificates serves that certificate,
 *   encrypted with the API v3 key.
 * - It keeps transactions (Native: code_url; H5: h5_url), lets a test "scan and pay" one (pay), sends
 *   encrypted, signed notifications to their notify_url (notify: repeat, a wrong amount, a bad signature, an
 *   old timestamp on demand), answers queries, closes, refunds once per out_refund_no (optionally
 *   PROCESSING first), and serves the trade bill of a day with its SHA1 hash.
 * - `dropNext(path)` takes the next call to a path and drops the connection after doing it (a network error
 *   where the gateway did the work).
 */
import {
  createCipheriv,
  createHash,
  createSign,
  createVerify,
  generateKeyPairSync,
  randomBytes,
  createPublicKey,
  randomUUID,
  type KeyObject,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from './x509.ts';

export interface FakeTransaction {
  outTradeNo: string;
  prepayId: string;
  tradeType: 'NATIVE' | 'MWEB';
  /** The request as the merchant sent it. */
  request: Record<string, unknown>;
  codeUrl: string;
  h5Url: string;
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND' | 'PAYERROR';
  transactionId: string;
  successTime: string;
  paidAt: number;
}

export interface FakeRefund {
  outRefundNo: string;
  refundId: string;
  outTradeNo: string;
  transactionId: string;
  refund: number;
  total: number;
  status: 'SUCCESS' | 'PROCESSING' | 'ABNORMAL' | 'CLOSED';
  at: number;
}

export interface FakeCall {
  method: string;
  path: string;
  body: string;
  /** Whether our Authorization checked out. */
  signed: boolean;
}

/** WeChat Pay's H5 page (the real one is on wx.tenpay.com), and the fake's runner-side controls. */
export const H5_PAGE = '/cgi-bin/mmpayweb-bin/checkmweb';
export const FAKE_H5_PAY = '/fake/h5-pay';
export const FAKE_SCAN = '/fake/scan';

const CHINA = 8 * 3600_000;
const p2 = (n: number) => String(n).padStart(2, '0');
/** RFC 3339 in China time, as WeChat Pay writes it. */
export function rfc3339China(at: number): string {
  const d = new Date(Math.floor(at / 1000) * 1000 + CHINA);
  return `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}T${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}+08:00`;
}
const billTime = (at: number) => rfc3339China(at).slice(0, 19).replace('T', ' ');
const yuan = (fen: number) => `${Math.floor(fen / 100)}.${p2(fen % 100)}`;

/** RSA keys for a test (2048 bits, as WeChat Pay requires). */
export const rsaPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

/** Encrypts like WeChat Pay: AES-256-GCM, the tag appended, base64. */
export function encryptResource(apiV3Key: string, plain: string, associatedData: string) {
  const nonce = randomBytes(6).toString('hex'); // 12 characters
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { algorithm: 'AEAD_AES_256_GCM', ciphertext: data.toString('base64'), associated_data: associatedData, nonce };
}

export interface WechatPayFakeOptions {
  /** WeChat Pay's clock (the app's injected clock in tests); default Date.now. */
  now?: () => number;
  mchId?: string;
  appId?: string;
  apiV3Key?: string;
  merchantSerial?: string;
  /**
   * The merchant's API private key (generated when not given): the fake checks our signatures with its public
   * half, and serverEnv() hands it to the server under test.
   */
  merchantKey?: KeyObject;
  /** Which platform key signs answers and notifications (default: the public key). */
  signWith?: 'publicKey' | 'certificate';
}

export async function startWechatPayFake(given: WechatPayFakeOptions = {}) {
  const merchantKey = given.merchantKey ?? rsaPair().privateKey;
  const options = {
    now: given.now ?? Date.now,
    mchId: given.mchId ?? '1900000109',
    appId: given.appId ?? 'wxd678efh567hg6787',
    apiV3Key: given.apiV3Key ?? randomBytes(16).toString('hex'),
    merchantSerial: given.merchantSerial ?? randomBytes(20).toString('hex').toUpperCase(),
    merchantPublicKey: createPublicKey(merchantKey),
  };
  const platformPublic = { id: 'PUB_KEY_ID_0112345678202506160011223344556677', ...rsaPair() };
  const certificatePair = rsaPair();
  const certificateSerial = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
  const certificatePem = selfSignedCertificate({
    serialHex: certificateSerial,
    commonName: 'Tenpay.com Root CA',
    publicKey: certificatePair.publicKey,
    privateKey: certificatePair.privateKey,
    notBefore: options.now() - 86400_000,
    notAfter: options.now() + 5 * 365 * 86400_000,
  });
  const state = {
    signWith: given.signWith ?? 'publicKey',
    transactions: new Map<string, FakeTransaction>(),
    refunds: new Map<string, FakeRefund>(),
    calls: [] as FakeCall[],
    /** Refunds answer PROCESSING until settleRefunds(). */
    refundsProcessing: false,
    /** Paths whose next call is done and its connection then dropped. */
    drop: new Set<string>(),
    /** Bills by day: a file given by the test, or 'creating' / 'none'. */
    bills: new Map<string, Buffer | 'creating' | 'none'>(),
    /** A wrong hash is given for bill downloads. */
    badBillHash: false,
  };
  let counter = 0;
  const serial = () => {
    counter += 1;
    return String(counter).padStart(6, '0');
  };

  function signAnswer(body: string): Record<string, string> {
    const timestamp = String(Math.floor(options.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const certificate = state.signWith === 'certificate';
    const key = certificate ? certificatePair.privateKey : platformPublic.privateKey;
    const signature = createSign('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).sign(key, 'base64');
    return {
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-signature': signature,
      'wechatpay-serial': certificate ? certificateSerial : platformPublic.id,
      'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
      'request-id': randomUUID(),
    };
  }

  /** Whether the merchant's Authorization of this request checks out. */
  function authorized(request: IncomingMessage, body: string): boolean {
    const value = request.headers.authorization ?? '';
    if (!value.startsWith('WECHATPAY2-SHA256-RSA2048 ')) return false;
    const fields = Object.fromEntries(
      [...value.slice(26).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!] as [string, string]),
    );
    if (fields.mchid !== options.mchId || fields.serial_no !== options.merchantSerial) return false;
    const timestamp = Number(fields.timestamp);
    if (!Number.isFinite(timestamp) || Math.abs(timestamp * 1000 - options.now()) > 5 * 60_000) return false;
    if (!fields.nonce_str || !fields.signature) return false;
    const message = `${request.method}\n${request.url}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    return createVerify('RSA-SHA256').update(message).verify(options.merchantPublicKey, fields.signature, 'base64');
  }

  const send = (response: ServerResponse, status: number, json?: unknown) => {
    const body = json === undefined ? '' : JSON.stringify(json);
    response.writeHead(status, { 'content-type': 'application/json', ...signAnswer(body) });
    response.end(body);
  };
  const error = (response: ServerResponse, status: number, code: string, message: string) =>
    send(response, status, { code, message });

  const transactionJson = (t: FakeTransaction) => ({
    appid: options.appId,
    mchid: options.mchId,
    out_trade_no: t.outTradeNo,
    trade_type: t.tradeType,
    trade_state: t.state,
    trade_state_desc: t.state,
    ...(t.transactionId ? { transaction_id: t.transactionId, success_time: t.successTime } : {}),
    amount: {
      total: (t.request.amount as { total: number }).total,
      currency: 'CNY',
      ...(t.transactionId ? { payer_total: (t.request.amount as { total: number }).total, payer_currency: 'CNY' } : {}),
    },
    ...(t.transactionId ? { payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' }, bank_type: 'OTHERS' } : {}),
  });

  const refundJson = (r: FakeRefund) => ({
    refund_id: r.refundId,
    out_refund_no: r.outRefundNo,
    transaction_id: r.transactionId,
    out_trade_no: r.outTradeNo,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
    ...(r.status === 'SUCCESS' ? { success_time: rfc3339China(r.at) } : {}),
    create_time: rfc3339China(r.at),
    status: r.status,
    funds_account: 'AVAILABLE',
    amount: { total: r.total, refund: r.refund, payer_total: r.total, payer_refund: r.refund, currency: 'CNY' },
  });

  /** The trade bill of a day (China time) from what the fake did: payments, then refunds, then the summary. */
  function billOf(day: string): Buffer {
    const header =
      '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注';
    const rows: string[] = [];
    let total = 0;
    let refunded = 0;
    for (const t of state.transactions.values()) {
      if (!t.transactionId || billTime(t.paidAt).slice(0, 10) !== day) continue;
      const fee = (t.request.amount as { total: number }).total;
      total += fee;
      rows.push(
        [
          billTime(t.paidAt),
          options.appId,
          options.mchId,
          '0',
          '',
          t.transactionId,
          t.outTradeNo,
          'oUpF8u',
          t.tradeType,
          'SUCCESS',
          'OTHERS',
          'CNY',
          yuan(fee),
          '0.00',
          '0',
          '0',
          '0.00',
          '0.00',
          '',
          '',
          String(t.request.description),
          '',
          '0.00',
          '0.60%',
          yuan(fee),
          '0.00',
          '',
        ]
          .map((f) => `\`${f}`)
          .join(','),
      );
    }
    for (const r of state.refunds.values()) {
      if (r.status !== 'SUCCESS' || billTime(r.at).slice(0, 10) !== day) continue;
      refunded += r.refund;
      const t = state.transactions.get(r.outTradeNo)!;
      rows.push(
        [
          billTime(r.at),
          options.appId,
          options.mchId,
          '0',
          '',
          r.transactionId,
          r.outTradeNo,
          'oUpF8u',
          t.tradeType,
          'REFUND',
          'OTHERS',
          'CNY',
          '0.00',
          '0.00',
          r.refundId,
          r.outRefundNo,
          yuan(r.refund),
          '0.00',
          'ORIGINAL',
          'SUCCESS',
          String(t.request.description),
          '',
          '0.00',
          '0.60%',
          yuan(r.total),
          yuan(r.refund),
          '',
        ]
          .map((f) => `\`${f}`)
          .join(','),
      );
    }
    const summary = '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额';
    const values = [String(rows.length), yuan(total), yuan(refunded), '0.00', '0.00', yuan(total), yuan(refunded)]
      .map((f) => `\`${f}`)
      .join(',');
    return Buffer.from(`${header}\r\n${rows.map((r) => `${r}\r\n`).join('')}${summary}\r\n${values}\r\n`, 'utf8');
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://fake');
    if (await runnerSide(request, response, url, body)) return;
    const signed = authorized(request, body);
    state.calls.push({ method: request.method ?? '', path: url.pathname, body, signed });
    if (!signed) return error(response, 401, 'SIGN_ERROR', '签名错误');
    const drop = state.drop.delete(url.pathname);
    const json = body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
    const respond = (status: number, answer?: unknown) => {
      if (drop) return void request.socket.destroy();
      send(response, status, answer);
    };
    const path = url.pathname;
    const method = request.method;

    if (method === 'POST' && (path === '/v3/pay/transactions/native' || path === '/v3/pay/transactions/h5')) {
      const tradeType = path.endsWith('native') ? 'NATIVE' : 'MWEB';
      const outTradeNo = String(json.out_trade_no ?? '');
      const amount = json.amount as { total?: unknown } | undefined;
      if (json.mchid !== options.mchId || json.appid !== options.appId)
        return error(response, 400, 'INVALID_REQUEST', 'appid和mch_id不匹配');
      if (!/^[0-9A-Za-z_\-|*]{6,32}$/.test(outTradeNo) || !Number.isInteger(amount?.total) || Number(amount?.total) < 1)
        return error(response, 400, 'PARAM_ERROR', '参数错误');
      if (Buffer.byteLength(String(json.description ?? ''), 'utf8') > 127)
        return error(response, 400, 'PARAM_ERROR', 'description 超长');
      if (tradeType === 'MWEB') {
        const scene = json.scene_info as { payer_client_ip?: string; h5_info?: { type?: string } } | undefined;
        if (!scene?.payer_client_ip || scene.h5_info?.type !== 'Wap')
          return error(response, 400, 'PARAM_ERROR', 'scene_info 缺失');
      }
      const known = state.transactions.get(outTradeNo);
      if (known) {
        if (known.tradeType !== tradeType || JSON.stringify(known.request) !== body)
          return error(response, 400, 'INVALID_REQUEST', '201 商户订单号重复');
        if (known.state !== 'NOTPAY') return error(response, 400, 'ORDER_CLOSED', '订单已关闭');
      } else {
        const prepay = `wx${serial()}${randomBytes(8).toString('hex')}`;
        state.transactions.set(outTradeNo, {
          outTradeNo,
          prepayId: prepay,
          tradeType,
          request: json,
          codeUrl: `weixin://wxpay/bizpayurl?pr=${prepay.slice(-10)}`,
          // WeChat Pay's page of an H5 payment, on the fake's own host (a browser test "pays" there).
          h5Url: `${fake.baseUrl}${H5_PAGE}?prepay_id=${prepay}&package=2150917749`,
          state: 'NOTPAY',
          transactionId: '',
          successTime: '',
          paidAt: 0,
        });
      }
      const t = state.transactions.get(outTradeNo)!;
      return respond(200, tradeType === 'NATIVE' ? { code_url: t.codeUrl } : { h5_url: t.h5Url });
    }

    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(path);
    if (method === 'GET' && query) {
      if (url.searchParams.get('mchid') !== options.mchId) return error(response, 400, 'PARAM_ERROR', 'mchid');
      const t = state.transactions.get(decodeURIComponent(query[1]!));
      return t ? respond(200, transactionJson(t)) : error(response, 404, 'ORDER_NOT_EXIST', '订单不存在');
    }

    const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(path);
    if (method === 'POST' && close) {
      const t = state.transactions.get(decodeURIComponent(close[1]!));
      if (!t) return error(response, 404, 'ORDER_NOT_EXIST', '订单不存在');
      if (t.state === 'SUCCESS' || t.state === 'REFUND') return error(response, 400, 'ORDERPAID', '订单已支付');
      t.state = 'CLOSED';
      return respond(204);
    }

    if (method === 'POST' && path === '/v3/refund/domestic/refunds') {
      const outRefundNo = String(json.out_refund_no ?? '');
      const amount = json.amount as { refund?: number; total?: number; currency?: string } | undefined;
      const known = state.refunds.get(outRefundNo);
      if (known) return respond(200, refundJson(known));
      const t = state.transactions.get(String(json.out_trade_no ?? ''));
      if (!t || !t.transactionId) return error(response, 404, 'RESOURCE_NOT_EXISTS', '订单不存在');
      const total = (t.request.amount as { total: number }).total;
      const already = [...state.refunds.values()]
        .filter((r) => r.outTradeNo === t.outTradeNo && r.status !== 'CLOSED')
        .reduce((sum, r) => sum + r.refund, 0);
      if (amount?.total !== total || amount.currency !== 'CNY' || !Number.isInteger(amount.refund))
        return error(response, 400, 'PARAM_ERROR', '订单金额或退款金额与之前请求不一致');
      if (amount.refund! < 1 || already + amount.refund! > total)
        return error(response, 403, 'NOT_ENOUGH', '申请退款金额超过订单可退金额');
      const refund: FakeRefund = {
        outRefundNo,
        refundId: `50300${serial()}${randomBytes(6).toString('hex')}`,
        outTradeNo: t.outTradeNo,
        transactionId: t.transactionId,
        refund: amount.refund!,
        total,
        status: state.refundsProcessing ? 'PROCESSING' : 'SUCCESS',
        at: options.now(),
      };
      state.refunds.set(outRefundNo, refund);
      if (already + refund.refund === total) t.state = 'REFUND';
      return respond(200, refundJson(refund));
    }

    const refundQuery = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(path);
    if (method === 'GET' && refundQuery) {
      const r = state.refunds.get(decodeURIComponent(refundQuery[1]!));
      return r ? respond(200, refundJson(r)) : error(response, 404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
    }

    if (method === 'GET' && path === '/v3/certificates') {
      return respond(200, {
        data: [
          {
            serial_no: certificateSerial,
            effective_time: rfc3339China(options.now() - 86400_000),
            expire_time: rfc3339China(options.now() + 5 * 365 * 86400_000),
            encrypt_certificate: encryptResource(options.apiV3Key, certificatePem, 'certificate'),
          },
        ],
      });
    }

    if (method === 'GET' && path === '/v3/bill/tradebill') {
      const day = url.searchParams.get('bill_date') ?? '';
      if (url.searchParams.get('bill_type') !== 'ALL') return error(response, 400, 'PARAM_ERROR', 'bill_type');
      const bill = state.bills.get(day) ?? billOf(day);
      if (bill === 'creating') return error(response, 400, 'STATEMENT_CREATING', '账单生成中');
      if (bill === 'none') return error(response, 400, 'NO_STATEMENT_EXIST', '账单文件不存在');
      const token = Buffer.from(day).toString('base64url');
      const hash = createHash('sha1').update(bill).digest('hex');
      return respond(200, {
        hash_type: 'SHA1',
        hash_value: state.badBillHash ? hash.replace(/^./, (c) => (c === '0' ? '1' : '0')) : hash,
        download_url: `${fake.baseUrl}/v3/billdownload/file?token=${token}`,
      });
    }

    if (method === 'GET' && path === '/v3/billdownload/file') {
      const day = Buffer.from(url.searchParams.get('token') ?? '', 'base64url').toString('utf8');
      const bill = state.bills.get(day) ?? billOf(day);
      if (!Buffer.isBuffer(bill)) return error(response, 404, 'RESOURCE_NOT_EXISTS', '账单不存在');
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void response.end(bill);
    }

    return error(response, 404, 'NOT_FOUND', `no ${method} ${path}`);
  }

  /**
   * What the runner's side does, unsigned: WeChat Pay's H5 page in the phone's browser (its pay button pays,
   * notifies and goes back to redirect_url), and a phone scanning a Native code_url (POST /fake/scan).
   */
  async function runnerSide(request: IncomingMessage, response: ServerResponse, url: URL, body: string) {
    const byPrepay = (id: string | null) => [...state.transactions.values()].find((t) => t.prepayId === id);
    if (request.method === 'GET' && url.pathname === H5_PAGE) {
      const t = byPrepay(url.searchParams.get('prepay_id'));
      const redirect = url.searchParams.get('redirect_url') ?? '';
      const amount = t ? yuan((t.request.amount as { total: number }).total) : '';
      const e = (x: string) => x.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      response.writeHead(t ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        t
          ? `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>微信支付</title></head><body>` +
              `<main><h1>微信支付 (fake)</h1><p>${e(String(t.request.description))}</p><p>¥${amount}</p>` +
              `<form method="post" action="${FAKE_H5_PAY}"><input type="hidden" name="prepay_id" value="${e(t.prepayId)}">` +
              `<input type="hidden" name="redirect_url" value="${e(redirect)}"><button type="submit">确认支付</button></form></main></body></html>`
          : '<!doctype html><title>微信支付</title><p>订单不存在</p>',
      );
      return true;
    }
    if (request.method === 'POST' && url.pathname === FAKE_H5_PAY) {
      const form = new URLSearchParams(body);
      const t = byPrepay(form.get('prepay_id'));
      if (!t) {
        error(response, 404, 'ORDER_NOT_EXIST', '订单不存在');
        return true;
      }
      fake.pay(t.outTradeNo);
      await fake.notify(t.outTradeNo);
      response.writeHead(303, { location: form.get('redirect_url') || '/' });
      response.end();
      return true;
    }
    if (request.method === 'POST' && url.pathname === FAKE_SCAN) {
      const codeUrl = String((JSON.parse(body || '{}') as { code_url?: unknown }).code_url ?? '');
      const t = fake.byCodeUrl(codeUrl);
      if (!t) {
        error(response, 404, 'ORDER_NOT_EXIST', '二维码已失效');
        return true;
      }
      fake.pay(t.outTradeNo);
      const answer = await fake.notify(t.outTradeNo);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ paid: t.outTradeNo, notified: answer.status }));
      return true;
    }
    return false;
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((e: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 'SYSTEM_ERROR', message: String(e) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** The signed, encrypted notification of a transaction as WeChat Pay posts it. */
  function notification(
    outTradeNo: string,
    tamper: { amountFen?: number; badSignature?: boolean; timestamp?: number; id?: string; serial?: string } = {},
  ) {
    const t = state.transactions.get(outTradeNo);
    if (!t) throw new Error(`the fake has no transaction ${outTradeNo}`);
    const resource = {
      ...transactionJson(t),
      amount: {
        total: tamper.amountFen ?? (t.request.amount as { total: number }).total,
        payer_total: tamper.amountFen ?? (t.request.amount as { total: number }).total,
        currency: 'CNY',
        payer_currency: 'CNY',
      },
    };
    const paid = t.state === 'SUCCESS' || t.state === 'REFUND';
    const rawBody = JSON.stringify({
      id: tamper.id ?? `EV-${randomUUID()}`,
      create_time: rfc3339China(options.now()),
      resource_type: 'encrypt-resource',
      event_type: paid ? 'TRANSACTION.SUCCESS' : 'TRANSACTION.CLOSED',
      summary: paid ? '支付成功' : '订单已关闭',
      resource: encryptResource(options.apiV3Key, JSON.stringify(resource), 'transaction'),
    });
    const headers = signAnswer(rawBody);
    if (tamper.timestamp !== undefined) {
      const timestamp = String(tamper.timestamp);
      headers['wechatpay-timestamp'] = timestamp;
      const key = state.signWith === 'certificate' ? certificatePair.privateKey : platformPublic.privateKey;
      headers['wechatpay-signature'] = createSign('RSA-SHA256')
        .update(`${timestamp}\n${headers['wechatpay-nonce']}\n${rawBody}\n`)
        .sign(key, 'base64');
    }
    if (tamper.badSignature)
      headers['wechatpay-signature'] = createSign('RSA-SHA256').update('x').sign(rsaPair().privateKey, 'base64');
    if (tamper.serial) headers['wechatpay-serial'] = tamper.serial;
    const all: Record<string, string> = { 'content-type': 'application/json', ...headers };
    return { url: String(t.request.notify_url), rawBody, headers: all };
  }

  const fake = {
    baseUrl: `http://127.0.0.1:${port}`,
    state,
    /** The server's environment for this fake: PAYMENT_PROVIDER=wechatpay and every WECHATPAY_* variable. */
    serverEnv(): Record<string, string> {
      return {
        PAYMENT_PROVIDER: 'wechatpay',
        WECHATPAY_MCH_ID: options.mchId,
        WECHATPAY_APP_ID: options.appId,
        WECHATPAY_API_V3_KEY: options.apiV3Key,
        WECHATPAY_PRIVATE_KEY: merchantKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        WECHATPAY_CERT_SERIAL: options.merchantSerial,
        WECHATPAY_PUBLIC_KEY: fake.platformPublicKeyPem,
        WECHATPAY_PUBLIC_KEY_ID: platformPublic.id,
        WECHATPAY_BASE_URL: fake.baseUrl,
      };
    },
    platformPublicKeyId: platformPublic.id,
    /** The platform public key in PEM (what the merchant downloads as pub_key.pem). */
    platformPublicKeyPem: platformPublic.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    certificateSerial,
    /** The runner scans a code_url (or opens an h5_url) and pays: the transaction is paid. */
    pay(outTradeNo: string) {
      const t = state.transactions.get(outTradeNo);
      if (!t) throw new Error(`the fake has no transaction ${outTradeNo}`);
      if (t.state !== 'NOTPAY') throw new Error(`the transaction ${outTradeNo} is ${t.state}`);
      const expire = Date.parse(String(t.request.time_expire));
      if (expire <= options.now()) throw new Error(`the transaction ${outTradeNo} expired`);
      t.state = 'SUCCESS';
      t.paidAt = options.now();
      t.transactionId = `4200002${serial()}${String(options.now()).slice(-8)}${randomBytes(3).toString('hex')}`.slice(
        0,
        28,
      );
      t.successTime = rfc3339China(options.now());
    },
    /** The transaction whose code_url this is. */
    byCodeUrl: (codeUrl: string) => [...state.transactions.values()].find((t) => t.codeUrl === codeUrl),
    notification,
    /** Posts a notification to its notify_url, as WeChat Pay does: the merchant's answer. */
    async notify(outTradeNo: string, tamper: Parameters<typeof notification>[1] = {}) {
      const n = notification(outTradeNo, tamper);
      return fake.deliver(n);
    },
    async deliver(n: ReturnType<typeof notification>) {
      const res = await fetch(n.url, { method: 'POST', headers: n.headers, body: n.rawBody });
      return { status: res.status, body: await res.text(), headers: Object.fromEntries(res.headers.entries()) };
    },
    /** PROCESSING refunds become SUCCESS (the bank took them back). */
    settleRefunds() {
      for (const r of state.refunds.values()) if (r.status === 'PROCESSING') r.status = 'SUCCESS';
    },
    /** The next call to `path` is done, then its connection dropped. */
    dropNext(path: string) {
      state.drop.add(path);
    },
    callsTo: (path: string) => state.calls.filter((c) => c.path === path),
    /** The bill file of a day as the fake serves it (what the merchant portal's download holds too). */
    billFile(day: string): Buffer {
      const bill = state.bills.get(day);
      return Buffer.isBuffer(bill) ? bill : billOf(day);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}

export type WechatPayFake = Awaited<ReturnType<typeof startWechatPayFake>>;
