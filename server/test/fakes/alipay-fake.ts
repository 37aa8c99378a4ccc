/**
 * A fake Alipay gateway for tests (issue 31 §5): a local HTTP server speaking the OpenAPI gateway's format, so
 * the Alipay provider (server/src/lib/payment/alipay.ts) runs unchanged against it through ALIPAY_GATEWAY.
 *
 * - Keys: the merchant's key pair (what ALIPAY_PRIVATE_KEY holds) and Alipay's own (ALIPAY_PUBLIC_KEY holds its
 *   public half), both generated when the fake starts. Every request's RSA2 signature is checked with the
 *   merchant's public key; every answer, notification and return is signed with Alipay's private key.
 * - The cashier: GET gateway.do?method=alipay.trade.page.pay|alipay.trade.wap.pay (the provider's cashier URL)
 *   makes the trade (WAIT_BUYER_PAY) and shows a page with pay and fail buttons (a browser test can drive it);
 *   paying after time_expire is refused. Pay: TRADE_SUCCESS, the notification posted to notify_url, the buyer
 *   sent to return_url; fail: TRADE_CLOSED, notified likewise.
 * - The API (POST gateway.do): alipay.trade.query, alipay.trade.refund (idempotent by out_request_no: a repeat
 *   answers fund_change N), alipay.trade.fastpay.refund.query, alipay.trade.close,
 *   alipay.data.dataservice.bill.downloadurl.query (a zip of the GBK 业务明细 CSV, in Alipay's layout, served at
 *   the URL it answers; a day that is not over yet: isp.bill_not_exist).
 * - On demand: a notification of any trade with any fields changed (a wrong amount), signed with another key,
 *   held back and delivered late, repeated; the next call of a method answered with a business error, or
 *   carried out and its connection dropped before the answer (a network error after the fact).
 *
 * Money is integer fen inside; yuan text on the wire, converted here with its own code (not the provider's).
 */
import { createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zip } from '../../src/lib/xlsx.ts';

export type TradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED' | 'TRADE_FINISHED';

export interface FakeRefund {
  outRequestNo: string;
  amountFen: number;
  at: number;
}

export interface FakeTrade {
  outTradeNo: string;
  tradeNo: string;
  method: string;
  /** The biz_content as the merchant sent it. */
  biz: Record<string, string>;
  amountFen: number;
  subject: string;
  status: TradeStatus;
  notifyUrl: string;
  returnUrl: string;
  createdAt: number;
  paidAt?: number;
  closedAt?: number;
  refunds: FakeRefund[];
}

export interface Delivery {
  url: string;
  body: string;
  answer: string;
}

/** Posts a notification's body to the merchant's notify URL and answers the merchant's reply text. */
export type Deliver = (url: string, body: string) => Promise<string>;

const APP_ID = '2021000000000001';
const SELLER_ID = '2088000000000001';
const CHINA_MS = 8 * 3600_000;

// ---- the fake's own formats -----------------------------------------------------------------------------

const yuan = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

function fen(text: string | undefined): number | undefined {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text ?? '');
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : undefined;
}

function china(at: number): string {
  return new Date(at + CHINA_MS).toISOString().slice(0, 19).replace('T', ' ');
}

function fromChina(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}Z`) - CHINA_MS;
}

/** Alipay's content to sign: every parameter with a value but sign (and sign_type for notifications), sorted. */
function signContent(params: Record<string, string>, withoutSignType: boolean): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign' && !(withoutSignType && k === 'sign_type') && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

const rsaSign = (key: KeyObject, text: string) => createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');

let gbkTable: Map<string, number> | undefined;
/** Text in GBK (Alipay's bill encoding): a table built from Node's own GBK decoder. */
function gbk(text: string): Buffer {
  if (!gbkTable) {
    gbkTable = new Map();
    const decoder = new TextDecoder('gbk');
    for (let lead = 0x81; lead <= 0xfe; lead += 1) {
      for (let trail = 0x40; trail <= 0xfe; trail += 1) {
        if (trail === 0x7f) continue;
        const ch = decoder.decode(Uint8Array.of(lead, trail));
        if (ch.length === 1 && ch !== '\uFFFD' && !gbkTable.has(ch)) gbkTable.set(ch, (lead << 8) | trail);
      }
    }
  }
  const bytes: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else {
      const two = gbkTable.get(ch);
      if (two === undefined) throw new Error(`no GBK code for ${ch}`);
      bytes.push(two >> 8, two & 0xff);
    }
  }
  return Buffer.from(bytes);
}

const BILL_HEADER =
  '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,' +
  '订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,' +
  '商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注';

/** A line of the 业务明细 CSV: numbers followed by a tab, as Alipay writes them. */
function billRow(t: FakeTrade, kind: '交易' | '退款', amount: string, at: number, requestNo = ''): string {
  return [
    `${t.tradeNo}\t`,
    `${t.outTradeNo}\t`,
    kind,
    t.subject.replaceAll(',', '，'),
    china(t.createdAt),
    china(at),
    '',
    '',
    '',
    '',
    'buy***@example.com',
    amount,
    amount,
    '0.00',
    '0.00',
    '0.00',
    '0.00',
    '0.00',
    '',
    '0.00',
    '0.00',
    requestNo === '' ? '' : `${requestNo}\t`,
    kind === '交易' ? '-0.77' : '0.77',
    '0.00',
    '',
  ].join(',');
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// ---- the fake ---------------------------------------------------------------------------------------------

export interface AlipayFake {
  /** The gateway URL (ALIPAY_GATEWAY). */
  gateway: string;
  /** What the app's environment needs to use the fake (ALIPAY_APP_ID, keys, ALIPAY_GATEWAY). */
  env: Record<string, string>;
  appId: string;
  /** The merchant's key pair (the app holds the private one) and Alipay's public key. */
  merchantPrivateKey: KeyObject;
  merchantPublicKey: KeyObject;
  alipayPublicKey: KeyObject;
  trades: Map<string, FakeTrade>;
  /** Every API call that reached a method (signature checked), in order. */
  calls: { method: string; biz: Record<string, string> }[];
  /** Every notification posted to the merchant, with its answer. */
  deliveries: Delivery[];
  /** Notifications held back (hold = true) or not acknowledged with 'success': deliverPending sends them. */
  pending: { url: string; body: string }[];
  /** Hold notifications back instead of posting them. */
  hold: boolean;
  deliverWith(deliver: Deliver): void;
  /** The buyer pays (or gives up) on the cashier of an opened trade: as the page's buttons do. */
  decide(outTradeNo: string, decision: 'pay' | 'fail'): Promise<{ location: string; status: number }>;
  /** A notification of a trade in its present state, fields overridden (undefined: left out), signed. */
  notification(outTradeNo: string, overrides?: Record<string, string | undefined>, key?: KeyObject): string;
  /** Posts a notification's body to the trade's notify URL now (a repeat, a late one…); answers the reply. */
  deliver(body: string): Promise<string>;
  deliverPending(): Promise<Delivery[]>;
  /** The next call of `method`: 'refuse' answers the business error given; 'drop' carries it out, answers nothing. */
  failNext(method: string, how: 'drop' | { subCode: string; subMsg: string }): void;
  /** The 业务明细 CSV (GBK) of a China day (yyyy-MM-dd), as in the bill zip. */
  billCsv(day: string): Buffer;
  /** The bill zip of a China day (yyyy-MM-dd) as the download serves it. */
  billZip(day: string): Buffer;
  /** Serve this instead of the bill of a day (a broken bill). */
  billOverride?: (day: string) => Buffer | undefined;
  close(): Promise<void>;
}

export async function startAlipayFake(options: { now: () => number }): Promise<AlipayFake> {
  const { now } = options;
  const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const trades = new Map<string, FakeTrade>();
  const calls: AlipayFake['calls'] = [];
  const deliveries: Delivery[] = [];
  const failures = new Map<string, ('drop' | { subCode: string; subMsg: string })[]>();
  let deliverer: Deliver = async (url, body) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
    });
    return response.text();
  };
  let tradeCounter = 0;
  const newTradeNo = () => {
    tradeCounter += 1;
    return `${china(now()).slice(0, 10).replaceAll('-', '')}22001400${String(tradeCounter).padStart(12, '0')}`;
  };

  const verified = (params: Record<string, string>) =>
    typeof params.sign === 'string' &&
    createVerify('RSA-SHA256')
      .update(signContent(params, false), 'utf8')
      .verify(merchant.publicKey, params.sign, 'base64');

  function reply(res: ServerResponse, method: string, body: Record<string, unknown>) {
    const inner = JSON.stringify(body);
    const key = `${method.replaceAll('.', '_')}_response`;
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    res.end(`{"${key}":${inner},"sign":"${rsaSign(alipay.privateKey, inner)}"}`);
  }
  const businessError = (subCode: string, subMsg: string) => ({
    code: '40004',
    msg: 'Business Failed',
    sub_code: subCode,
    sub_msg: subMsg,
  });

  function notificationOf(t: FakeTrade, overrides: Record<string, string | undefined> = {}, key = alipay.privateKey) {
    const refunded = t.refunds.reduce((sum, r) => sum + r.amountFen, 0);
    const last = t.refunds.at(-1);
    const params: Record<string, string | undefined> = {
      gmt_create: china(t.createdAt),
      charset: 'utf-8',
      seller_id: SELLER_ID,
      subject: t.subject,
      sign_type: 'RSA2',
      buyer_id: '2088102177846880',
      invoice_amount: yuan(t.amountFen),
      notify_id: `2025${randomBytes(15).toString('hex')}`,
      fund_bill_list: JSON.stringify([{ amount: yuan(t.amountFen), fundChannel: 'ALIPAYACCOUNT' }]),
      notify_type: 'trade_status_sync',
      trade_status: t.status,
      receipt_amount: yuan(t.amountFen),
      buyer_pay_amount: yuan(t.amountFen),
      app_id: APP_ID,
      notify_time: china(now()),
      point_amount: '0.00',
      total_amount: yuan(t.amountFen),
      trade_no: t.tradeNo,
      auth_app_id: APP_ID,
      buyer_logon_id: 'abc***@example.com',
      out_trade_no: t.outTradeNo,
      version: '1.0',
      gmt_payment: t.paidAt === undefined ? undefined : china(t.paidAt),
      gmt_close: t.closedAt === undefined ? undefined : china(t.closedAt),
      refund_fee: last ? yuan(refunded) : undefined,
      gmt_refund: last ? `${china(last.at)}.000` : undefined,
      out_biz_no: last?.outRequestNo,
      ...overrides,
    };
    const present = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    present.sign = rsaSign(key, signContent(present, true));
    return new URLSearchParams(present).toString();
  }

  const fake: AlipayFake = {
    gateway: '',
    env: {},
    appId: APP_ID,
    merchantPrivateKey: merchant.privateKey,
    merchantPublicKey: merchant.publicKey,
    alipayPublicKey: alipay.publicKey,
    trades,
    calls,
    deliveries,
    pending: [],
    hold: false,
    deliverWith(deliver) {
      deliverer = deliver;
    },
    async deliver(body) {
      const outTradeNo = new URLSearchParams(body).get('out_trade_no') ?? '';
      const url = trades.get(outTradeNo)?.notifyUrl;
      if (!url) throw new Error(`the fake has no trade ${outTradeNo} to notify`);
      const answer = await deliverer(url, body);
      deliveries.push({ url, body, answer });
      // Alipay repeats what was not acknowledged with exactly 'success'.
      if (answer.trim() !== 'success') fake.pending.push({ url, body });
      return answer;
    },
    async deliverPending() {
      const due = fake.pending.splice(0);
      const out: Delivery[] = [];
      for (const { url, body } of due) {
        const answer = await deliverer(url, body);
        const delivery = { url, body, answer };
        deliveries.push(delivery);
        out.push(delivery);
        if (answer.trim() !== 'success') fake.pending.push({ url, body });
      }
      return out;
    },
    notification(outTradeNo, overrides, key) {
      const t = trades.get(outTradeNo);
      if (!t) throw new Error(`the fake has no trade ${outTradeNo}`);
      return notificationOf(t, overrides, key);
    },
    async decide(outTradeNo, decision) {
      const t = trades.get(outTradeNo);
      if (!t) return { location: '', status: 404 };
      if (t.status !== 'WAIT_BUYER_PAY' || now() > fromChina(t.biz.time_expire ?? '9999-12-31 23:59:59')) {
        return { location: '', status: 409 };
      }
      if (decision === 'pay') {
        t.status = 'TRADE_SUCCESS';
        t.paidAt = now();
      } else {
        t.status = 'TRADE_CLOSED';
        t.closedAt = now();
      }
      const body = notificationOf(t);
      if (fake.hold) fake.pending.push({ url: t.notifyUrl, body });
      else await fake.deliver(body);
      if (decision === 'fail') return { location: t.biz.quit_url ?? t.returnUrl, status: 303 };
      // The synchronous return: the trade's facts, signed, added to return_url.
      const back: Record<string, string> = {
        charset: 'utf-8',
        out_trade_no: t.outTradeNo,
        method: `${t.method}.return`,
        total_amount: yuan(t.amountFen),
        trade_no: t.tradeNo,
        auth_app_id: APP_ID,
        version: '1.0',
        app_id: APP_ID,
        sign_type: 'RSA2',
        seller_id: SELLER_ID,
        timestamp: china(now()),
      };
      back.sign = rsaSign(alipay.privateKey, signContent(back, true));
      const joiner = t.returnUrl.includes('?') ? '&' : '?';
      return { location: `${t.returnUrl}${joiner}${new URLSearchParams(back).toString()}`, status: 303 };
    },
    failNext(method, how) {
      failures.set(method, [...(failures.get(method) ?? []), how]);
    },
    billCsv(day) {
      return billFiles(day)[0][1];
    },
    billZip(day) {
      const overridden = fake.billOverride?.(day);
      if (overridden) return overridden;
      return zip(billFiles(day));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  /** The bill's two files of a China day: the detail and the summary, in GBK. */
  function billFiles(day: string): [[string, Buffer], [string, Buffer]] {
    const onDay = (at: number | undefined) => at !== undefined && china(at).slice(0, 10) === day;
    const rows: string[] = [];
    let paid = 0;
    let refunded = 0;
    for (const t of trades.values()) {
      if (onDay(t.paidAt)) {
        rows.push(billRow(t, '交易', yuan(t.amountFen), t.paidAt!));
        paid += t.amountFen;
      }
      for (const r of t.refunds) {
        if (!onDay(r.at)) continue;
        rows.push(billRow(t, '退款', `-${yuan(r.amountFen)}`, r.at, r.outRequestNo));
        refunded += r.amountFen;
      }
    }
    const ymd = day.replaceAll('-', '');
    const [y, m, d] = day.split('-');
    const next = china(fromChina(`${day} 00:00:00`) + 24 * 3600_000).slice(0, 10);
    const [ny, nm, nd] = next.split('-');
    const detail = [
      '#支付宝业务明细查询',
      `#账号：[${SELLER_ID}0156]`,
      `#起始日期：[${y}年${m}月${d}日 00:00:00]   终止日期：[${ny}年${nm}月${nd}日 00:00:00]`,
      '#-----------------------------------------业务明细列表----------------------------------------',
      BILL_HEADER,
      ...rows,
      '#-----------------------------------------业务明细列表结束------------------------------------',
      `#交易合计：${rows.length}笔，商家实收共${yuan(paid)}元，商家优惠共0.00元`,
      `#退款合计：商家实收退款共${yuan(refunded)}元`,
      `#导出时间：[${china(now()).replace(/-/, '年').replace(/-/, '月').replace(' ', '日 ')}]`,
    ].join('\r\n');
    const summary = [
      '#支付宝业务汇总查询',
      '#-----------------------------------------业务汇总列表----------------------------------------',
      '门店编号,门店名称,交易订单总笔数,退款订单总笔数,订单金额（元）,商家实收（元）',
      `合计,,${rows.length},0,${yuan(paid)},${yuan(paid)}`,
      '#-----------------------------------------业务汇总列表结束------------------------------------',
    ].join('\r\n');
    return [
      [`${SELLER_ID}0156_${ymd}_业务明细.csv`, gbk(detail)],
      [`${SELLER_ID}0156_${ymd}_业务明细(汇总).csv`, gbk(summary)],
    ];
  }

  /** The cashier (a GET of page.pay or wap.pay): the trade made or found, its page shown. */
  function cashier(res: ServerResponse, params: Record<string, string>) {
    let biz: Record<string, string>;
    try {
      biz = JSON.parse(params.biz_content ?? '') as Record<string, string>;
    } catch {
      biz = {};
    }
    const amountFen = fen(biz.total_amount);
    const page = (status: number, content: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>支付宝 · 收银台 (fake)</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head><body><main>${content}</main></body></html>`);
    };
    const wanted = params.method === 'alipay.trade.page.pay' ? 'FAST_INSTANT_TRADE_PAY' : 'QUICK_WAP_WAY';
    if (!biz.out_trade_no || amountFen === undefined || !biz.subject || biz.product_code !== wanted) {
      return page(400, '<h1>参数错误 (ACQ.INVALID_PARAMETER)</h1>');
    }
    let t = trades.get(biz.out_trade_no);
    if (t && t.amountFen !== amountFen) return page(400, '<h1>交易信息被篡改 (ACQ.CONTEXT_INCONSISTENT)</h1>');
    if (!t) {
      t = {
        outTradeNo: biz.out_trade_no,
        tradeNo: newTradeNo(),
        method: params.method!,
        biz,
        amountFen,
        subject: biz.subject,
        status: 'WAIT_BUYER_PAY',
        notifyUrl: params.notify_url ?? '',
        returnUrl: params.return_url ?? '',
        createdAt: now(),
        refunds: [],
      };
      trades.set(t.outTradeNo, t);
    }
    const expired = biz.time_expire !== undefined && now() > fromChina(biz.time_expire);
    const open = t.status === 'WAIT_BUYER_PAY' && !expired;
    const form = (decision: string, label: string) =>
      `<form method="post" action="/cashier"><input type="hidden" name="out_trade_no" value="${escapeHtml(t.outTradeNo)}">` +
      `<button type="submit" name="decision" value="${decision}">${label}</button></form>`;
    return page(
      200,
      `<h1>支付宝收银台 (fake)</h1><p class="subject">${escapeHtml(t.subject)}</p>` +
        `<p class="amount">¥${yuan(t.amountFen)}</p>` +
        (open
          ? form('pay', '确认付款 Pay') + form('fail', '放弃付款 Fail')
          : `<p>订单已关闭或已超时 (${t.status})</p>`),
    );
  }

  function api(res: ServerResponse, params: Record<string, string>) {
    const method = params.method ?? '';
    let biz: Record<string, string>;
    try {
      biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
    } catch {
      return reply(res, method, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-biz-content' });
    }
    if (params.app_id !== APP_ID) {
      return reply(res, method, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-app-id' });
    }
    calls.push({ method, biz });
    const failure = failures.get(method)?.shift();
    if (failure && failure !== 'drop') return reply(res, method, businessError(failure.subCode, failure.subMsg));
    const answer = (body: Record<string, unknown>) => {
      if (failure === 'drop') res.socket?.destroy();
      else reply(res, method, body);
    };
    const t = trades.get(biz.out_trade_no ?? '');
    switch (method) {
      case 'alipay.trade.query': {
        if (!t) return answer(businessError('ACQ.TRADE_NOT_EXIST', '交易不存在'));
        return answer({
          code: '10000',
          msg: 'Success',
          trade_no: t.tradeNo,
          out_trade_no: t.outTradeNo,
          buyer_logon_id: 'abc***@example.com',
          trade_status: t.status,
          total_amount: yuan(t.amountFen),
          ...(t.paidAt === undefined ? {} : { send_pay_date: china(t.paidAt) }),
        });
      }
      case 'alipay.trade.refund': {
        if (!t) return answer(businessError('ACQ.TRADE_NOT_EXIST', '交易不存在'));
        const amount = fen(biz.refund_amount);
        const requestNo = biz.out_request_no ?? t.outTradeNo;
        const refunded = () => t.refunds.reduce((sum, r) => sum + r.amountFen, 0);
        const done = {
          code: '10000',
          msg: 'Success',
          trade_no: t.tradeNo,
          out_trade_no: t.outTradeNo,
          buyer_logon_id: 'abc***@example.com',
        };
        const before = t.refunds.find((r) => r.outRequestNo === requestNo);
        if (before) return answer({ ...done, fund_change: 'N', refund_fee: yuan(refunded()) });
        if (t.status !== 'TRADE_SUCCESS') return answer(businessError('ACQ.TRADE_STATUS_ERROR', '交易状态不合法'));
        if (amount === undefined || amount === 0 || amount + refunded() > t.amountFen) {
          return answer(businessError('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限'));
        }
        t.refunds.push({ outRequestNo: requestNo, amountFen: amount, at: now() });
        if (refunded() === t.amountFen) {
          t.status = 'TRADE_CLOSED';
          t.closedAt = now();
        }
        return answer({ ...done, fund_change: 'Y', refund_fee: yuan(refunded()), gmt_refund_pay: china(now()) });
      }
      case 'alipay.trade.fastpay.refund.query': {
        if (!t) return answer(businessError('ACQ.TRADE_NOT_EXIST', '交易不存在'));
        const r = t.refunds.find((x) => x.outRequestNo === (biz.out_request_no ?? t.outTradeNo));
        // Alipay answers success without refund_status when it has no such refund.
        const base = { code: '10000', msg: 'Success', trade_no: t.tradeNo, out_trade_no: t.outTradeNo };
        if (!r) return answer(base);
        return answer({
          ...base,
          out_request_no: r.outRequestNo,
          total_amount: yuan(t.amountFen),
          refund_amount: yuan(r.amountFen),
          refund_status: 'REFUND_SUCCESS',
        });
      }
      case 'alipay.trade.close': {
        if (!t) return answer(businessError('ACQ.TRADE_NOT_EXIST', '交易不存在'));
        if (t.status !== 'WAIT_BUYER_PAY') return answer(businessError('ACQ.TRADE_STATUS_ERROR', '交易状态不合法'));
        t.status = 'TRADE_CLOSED';
        t.closedAt = now();
        return answer({ code: '10000', msg: 'Success', trade_no: t.tradeNo, out_trade_no: t.outTradeNo });
      }
      case 'alipay.data.dataservice.bill.downloadurl.query': {
        const day = biz.bill_date ?? '';
        if (biz.bill_type !== 'trade' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) {
          return answer({ code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-arguments' });
        }
        if (day >= china(now()).slice(0, 10)) return answer(businessError('isp.bill_not_exist', '账单不存在'));
        return answer({
          code: '10000',
          msg: 'Success',
          bill_download_url: `${fake.gateway.replace(/\/gateway\.do$/, '')}/bill/${day}.csv.zip?token=${randomBytes(8).toString('hex')}`,
        });
      }
      default:
        return answer({ code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method' });
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const query = Object.fromEntries(url.searchParams);
      if (url.pathname === '/gateway.do') {
        const body = req.method === 'POST' ? Object.fromEntries(new URLSearchParams(await readBody(req))) : {};
        const params: Record<string, string> = { ...query, ...body };
        const method = params.method ?? '';
        // Alipay reads the request's timestamp as China time (this fake allows 15 minutes either way).
        const sent = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(params.timestamp ?? '')
          ? fromChina(params.timestamp!)
          : Number.NaN;
        if (!(Math.abs(sent - now()) <= 15 * 60_000)) {
          if (req.method === 'GET') {
            res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
            return res.end('<h1>时间戳参数 timestamp 错误 (isv.invalid-timestamp)</h1>');
          }
          return reply(res, method, { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-timestamp' });
        }
        if (!verified(params)) {
          if (req.method === 'GET') {
            res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
            return res.end('<h1>验签出错 (isv.invalid-signature)</h1>');
          }
          return reply(res, method, {
            code: '40002',
            msg: 'Invalid Arguments',
            sub_code: 'isv.invalid-signature',
            sub_msg: '验签出错',
          });
        }
        if (req.method === 'GET' && (method === 'alipay.trade.page.pay' || method === 'alipay.trade.wap.pay')) {
          return cashier(res, params);
        }
        return api(res, params);
      }
      if (url.pathname === '/cashier' && req.method === 'POST') {
        const form = new URLSearchParams(await readBody(req));
        const decision = form.get('decision') === 'pay' ? 'pay' : 'fail';
        const decided = await fake.decide(form.get('out_trade_no') ?? '', decision);
        res.writeHead(decided.status, decided.location ? { location: decided.location } : {});
        return res.end();
      }
      const bill = /^\/bill\/(\d{4}-\d{2}-\d{2})\.csv\.zip$/.exec(url.pathname);
      if (bill && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(fake.billZip(bill[1]!));
      }
      res.writeHead(404);
      res.end();
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.gateway = `http://127.0.0.1:${port}/gateway.do`;
  fake.env = {
    ALIPAY_APP_ID: APP_ID,
    ALIPAY_PRIVATE_KEY: merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ALIPAY_PUBLIC_KEY: alipay.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ALIPAY_GATEWAY: fake.gateway,
  };
  return fake;
}
