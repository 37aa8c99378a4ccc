/**
 * The built-in sandbox payment provider (issue #14 §4): it behaves like a real one, with its cashier page on this
 * server. createPayment answers the cashier page's URL (API_PATHS.sandboxCashier?paymentId=); the page shows the
 * subject, the amount and the deadline and two buttons, pay and fail; the decision (API_PATHS.sandboxDecide, a
 * form POST carrying a per-payment token) makes a notification signed with HMAC-SHA256 over the raw body under
 * the sandbox secret (header `x-sandbox-signature`), which is delivered to the notify route like a real
 * provider's (and repeated once later, as real providers repeat until acknowledged). Refunds are done at once.
 *
 * No money moves: the page says so in both languages.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { API_PATHS } from '#contract/api';
import { formatFen, type PaySite } from '#contract/entry';
import type { LocalText } from '#contract/registration-form';
import { fail, ok } from '../envelope.ts';
import { chinaDayOf, chinaDayRange } from './bill-day.ts';
import {
  BillFormatError,
  BillNotReadyError,
  type BillLine,
  type CreatedPayment,
  type CreatePaymentInput,
  type NotificationCheck,
  type NotifyAnswer,
  type PaymentProvider,
  type PaymentProviderContext,
  type RefundInput,
  type RefundResult,
  type VerifiedNotification,
} from './provider.ts';

export const SANDBOX_PROVIDER = 'sandbox';
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** secret: the signing secret (lib/secrets.ts `payment`); state: the payment as the sandbox "bank" knows it. */
export type SandboxOptions = PaymentProviderContext;

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('hex');

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The signature of a notification's raw body. */
export const sandboxSignature = (secret: string, rawBody: string) => hmac(secret, `notify\n${rawBody}`);

/** The cashier form's per-payment token (the decision is refused without it). */
export const sandboxDecisionToken = (secret: string, paymentId: string) =>
  hmac(secret, `decide\n${paymentId}`).slice(0, 32);

export const checkDecisionToken = (secret: string, paymentId: string, token: string) =>
  sameHex(sandboxDecisionToken(secret, paymentId), token);

/** A signed notification of the sandbox: the raw body and its headers, as a real provider would post them. */
export function sandboxNotification(
  secret: string,
  input: { paymentId: string; status: 'paid' | 'failed'; amountFen: number; paidAt: number },
): { rawBody: string; headers: Record<string, string> } {
  const body: VerifiedNotification = {
    notificationId: `SBN${randomUUID().replaceAll('-', '')}`,
    paymentId: input.paymentId,
    status: input.status,
    tradeNo: `SBT${hmac(secret, `trade\n${input.paymentId}`).slice(0, 24)}`,
    amountFen: input.amountFen,
    paidAt: input.paidAt,
  };
  const rawBody = JSON.stringify(body);
  return {
    rawBody,
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandboxSignature(secret, rawBody) },
  };
}

function parseNotification(rawBody: string): VerifiedNotification | undefined {
  let value: unknown;
  try {
    value = JSON.parse(rawBody);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const text = (x: unknown) => typeof x === 'string' && x.length > 0 && x.length <= 64;
  const int = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  if (!text(v.notificationId) || !text(v.paymentId) || !text(v.tradeNo)) return undefined;
  if (v.status !== 'paid' && v.status !== 'failed') return undefined;
  if (!int(v.amountFen) || !int(v.paidAt)) return undefined;
  return {
    notificationId: v.notificationId as string,
    paymentId: v.paymentId as string,
    status: v.status,
    tradeNo: v.tradeNo as string,
    amountFen: v.amountFen as number,
    paidAt: v.paidAt as number,
  };
}

/** The sandbox's cashier page of a payment, for a runner paying from `site` (named when not the default). */
export function sandboxCashierUrl(paymentId: string, site: PaySite): string {
  const siteParameter = site === 'desktop' ? '' : `&site=${site}`;
  return `${API_PATHS.sandboxCashier}?paymentId=${encodeURIComponent(paymentId)}${siteParameter}`;
}

// ---------------------------------------------------------------------------------------------------------
// The sandbox's daily bill (reconciliation, issue 31 §3; docs/payment-providers.md)
// ---------------------------------------------------------------------------------------------------------

/**
 * The sandbox's bill file: CSV in UTF-8, this header line then one line per payment or refund of the day
 * (China time), no quoting (every field is letters, digits, `-`, `:`, `+` or `.`); blank lines are skipped.
 * `at` is ISO 8601 with its offset (2025-06-16T10:00:00+08:00); `refundNo` is empty on a payment line.
 */
export const SANDBOX_BILL_HEADER = 'kind,paymentId,tradeNo,refundNo,amountFen,at';

const ISO_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;
const BILL_ID = /^[A-Za-z0-9]{1,64}$/;

/** An instant as the bill writes it: China time with its offset. */
const billTime = (at: number) => `${new Date(at + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`;

/** The sandbox's bill file of these lines (what its merchant portal would let the finance staff download). */
export function sandboxBillCsv(lines: readonly BillLine[]): string {
  const rows = lines.map((l) =>
    [l.kind, l.paymentId, l.tradeNo, l.refundNo ?? '', String(l.amountFen), billTime(l.at)].join(','),
  );
  return `${[SANDBOX_BILL_HEADER, ...rows].join('\n')}\n`;
}

/** Reads a sandbox bill file: every line or none (BillFormatError with the first bad line). */
export function parseSandboxBill(content: Buffer): BillLine[] {
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  const rows = text.split(/\r?\n/);
  if ((rows[0] ?? '').trim() !== SANDBOX_BILL_HEADER) {
    throw new BillFormatError(1, `the first line must be ${SANDBOX_BILL_HEADER}`);
  }
  const lines: BillLine[] = [];
  rows.forEach((row, index) => {
    if (index === 0 || row.trim() === '') return;
    const line = index + 1;
    const fields = row.trim().split(',');
    if (fields.length !== 6) throw new BillFormatError(line, `6 fields expected, found ${fields.length}`);
    const [kind, paymentId, tradeNo, refundNo, amount, at] = fields as [string, string, string, string, string, string];
    if (kind !== 'payment' && kind !== 'refund') throw new BillFormatError(line, `kind must be payment or refund`);
    if (!BILL_ID.test(paymentId)) throw new BillFormatError(line, 'paymentId must be 1-64 letters or digits');
    if (!BILL_ID.test(tradeNo)) throw new BillFormatError(line, 'tradeNo must be 1-64 letters or digits');
    if (kind === 'payment' ? refundNo !== '' : !BILL_ID.test(refundNo)) {
      throw new BillFormatError(line, kind === 'payment' ? 'a payment has no refundNo' : 'a refund needs its refundNo');
    }
    const amountFen = /^[1-9]\d{0,11}$/.test(amount) ? Number(amount) : NaN;
    if (!Number.isSafeInteger(amountFen))
      throw new BillFormatError(line, 'amountFen must be a whole number of fen above 0');
    const time = ISO_AT.test(at) ? Date.parse(at) : NaN;
    if (!Number.isFinite(time)) throw new BillFormatError(line, 'at must be a time such as 2025-06-16T10:00:00+08:00');
    lines.push({ kind, paymentId, tradeNo, refundNo: kind === 'refund' ? refundNo : null, amountFen, at: time });
  });
  return lines;
}

export function createSandboxProvider(options: SandboxOptions): PaymentProvider {
  const { secret } = options;
  return {
    name: SANDBOX_PROVIDER,
    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const cashierUrl = sandboxCashierUrl(input.paymentId, input.site);
      return { cashierUrl, qrContent: cashierUrl };
    },
    async verifyNotification(headers, rawBody): Promise<NotificationCheck> {
      const given = headers[SANDBOX_SIGNATURE_HEADER];
      const signature = Array.isArray(given) ? given[0] : given;
      if (typeof signature !== 'string' || !sameHex(sandboxSignature(secret, rawBody), signature)) {
        return { ok: false, reason: 'signature' };
      }
      const notification = parseNotification(rawBody);
      return notification ? { ok: true, notification } : { ok: false, reason: 'body' };
    },
    query: (paymentId) => options.state(paymentId),
    async refund(input: RefundInput): Promise<RefundResult> {
      return { status: 'done', refundTradeNo: `SBR${hmac(secret, `refund\n${input.refundNo}`).slice(0, 24)}` };
    },
    async close() {
      // The sandbox takes no money for a payment whose order is no longer payable (the notify route checks).
    },
    // The sandbox "bank" keeps no books of its own: its bill of a day is this server's record of its money.
    async fetchBill(day: string): Promise<BillLine[]> {
      const range = chinaDayRange(day);
      if (!range) throw new Error(`${day} is not a day (YYYY-MM-DD)`);
      if (day >= chinaDayOf(options.now())) throw new BillNotReadyError(`the sandbox's bill of ${day} is not out yet`);
      if (!options.ledger) throw new Error("the sandbox's bill is made from the server's records, not at hand here");
      return options.ledger(SANDBOX_PROVIDER, range.from, range.to);
    },
    parseBill: parseSandboxBill,
    notifyAnswer(accepted: boolean): NotifyAnswer {
      // The sandbox expects the server's envelope: code 0 acknowledges; anything else is repeated later.
      const body = accepted ? ok(null) : fail(400, 'verificationFailed');
      return {
        statusCode: accepted ? 200 : 400,
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify(body),
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The cashier page (server-rendered, bilingual, no script, inline style allowed by its hash only)
// ---------------------------------------------------------------------------------------------------------

export type CashierLanguage = 'zh' | 'en';

const TEXTS = {
  zh: {
    title: '沙箱收银台',
    banner: '沙箱 · 测试环境，不会真实扣款',
    production: '警告：正式环境正在使用沙箱收银台，任何人都可以免费“支付”。请主办方立即配置真实的支付渠道。',
    subject: '商品',
    orderNo: '订单号',
    amount: '金额',
    deadline: '请在此时间前支付',
    pay: '支付成功',
    fail: '支付失败',
    otherLanguage: 'English',
    notPayable: '此支付已结束，无法再支付。',
    missing: '找不到此支付。',
    back: '返回订单',
  },
  en: {
    title: 'Sandbox cashier',
    banner: 'Sandbox · test only, no real money is taken',
    production:
      'Warning: this live site is using the sandbox cashier; anyone can "pay" for free. The organiser must set up a real payment provider.',
    subject: 'Item',
    orderNo: 'Order number',
    amount: 'Amount',
    deadline: 'Pay before',
    pay: 'Pay',
    fail: 'Fail',
    otherLanguage: '中文',
    notPayable: 'This payment has ended and can no longer be paid.',
    missing: 'No such payment.',
    back: 'Back to the order',
  },
} as const;

/** Escapes text for HTML content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
body{margin:0;font:16px/1.5 system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f4f7;color:#1f2329}
.banner{background:#b54708;color:#fff;text-align:center;padding:8px 12px;font-weight:600;letter-spacing:.02em}
.live{background:#b42318;font-size:18px;padding:16px 12px;border-bottom:4px solid #7a271a}
main{max-width:440px;margin:32px auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:24px}
h1{font-size:20px;margin:0 0 16px}
dl{margin:0 0 20px;display:grid;grid-template-columns:auto 1fr;gap:8px 16px}
dt{color:#5c6370}dd{margin:0;word-break:break-all}
.amount{font-size:28px;font-weight:700;color:#c4320a}
.actions{display:flex;gap:12px}
button{flex:1;font:inherit;padding:12px;border-radius:8px;border:1px solid #c6cbd2;background:#fff;color:#1f2329;cursor:pointer}
button.pay{background:#1d6f42;border-color:#1d6f42;color:#fff;font-weight:600}
button:focus-visible,a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.lang{display:block;text-align:right;margin-bottom:8px;color:#1d4ed8}
.note{color:#5c6370}
@media (max-width:480px){main{margin:16px 12px;padding:20px}dl{grid-template-columns:1fr}dd{margin-bottom:4px}}
`;

/** The page's Content-Security-Policy: nothing but its own inline style (by hash) and a form posted to this site. */
export function cashierCsp(): string {
  const hash = `sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}`;
  return `default-src 'none'; style-src '${hash}'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'`;
}

export interface CashierView {
  paymentId: string;
  orderNo: string;
  /** What is paid for, in each language (the race's name: raceNameEn in English, else the Chinese one). */
  subject: LocalText;
  amountFen: number;
  expiresAt: number;
  /** Still payable (created, before its deadline). */
  payable: boolean;
  token: string;
  /** The order page of the site the runner pays from. */
  returnUrl: string;
}

/** The deadline as the runner reads it (China time, where the races are). */
function formatDeadline(at: number): string {
  const d = new Date(at + 8 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())} (UTC+8)`;
}

/**
 * The cashier page (or its "no such payment" page when `view` is undefined) for a runner paying from `site`,
 * which its language link and its form carry on. `inProduction`: the sandbox runs on a production server
 * (PAYMENT_PROVIDER=sandbox chosen on purpose), said by a red banner in both languages above everything.
 */
export function renderCashier(
  language: CashierLanguage,
  view: CashierView | undefined,
  paymentId: string,
  site: PaySite = 'desktop',
  inProduction = false,
): string {
  const t = TEXTS[language];
  const other: CashierLanguage = language === 'zh' ? 'en' : 'zh';
  const e = escapeHtml;
  const langHref = `${sandboxCashierUrl(paymentId, site)}&lang=${other}`;
  let content: string;
  if (view === undefined) {
    content = `<p class="note">${e(t.missing)}</p>`;
  } else {
    const details = `<dl>
<dt>${e(t.subject)}</dt><dd>${e(view.subject[language])}</dd>
<dt>${e(t.orderNo)}</dt><dd>${e(view.orderNo)}</dd>
<dt>${e(t.amount)}</dt><dd class="amount">¥${e(formatFen(view.amountFen))}</dd>
<dt>${e(t.deadline)}</dt><dd>${e(formatDeadline(view.expiresAt))}</dd>
</dl>`;
    const actions = view.payable
      ? `<form method="post" action="${e(API_PATHS.sandboxDecide)}" class="actions">
<input type="hidden" name="paymentId" value="${e(view.paymentId)}">
<input type="hidden" name="token" value="${e(view.token)}">
<input type="hidden" name="site" value="${e(site)}">
<button type="submit" name="decision" value="pay" class="pay">${e(t.pay)}</button>
<button type="submit" name="decision" value="fail">${e(t.fail)}</button>
</form>`
      : `<p class="note">${e(t.notPayable)}</p><p><a href="${e(view.returnUrl)}">${e(t.back)}</a></p>`;
    content = details + actions;
  }
  return `<!doctype html>
<html lang="${language === 'zh' ? 'zh-CN' : 'en'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(t.title)}</title><style>${STYLE}</style></head>
<body>${inProduction ? `<div class="banner live" role="alert"><p lang="zh-CN">${e(TEXTS.zh.production)}</p><p lang="en">${e(TEXTS.en.production)}</p></div>` : ''}<div class="banner" role="note">${e(t.banner)}</div>
<main><a class="lang" href="${e(langHref)}" lang="${other === 'zh' ? 'zh-CN' : 'en'}">${e(t.otherLanguage)}</a>
<h1>${e(t.title)}</h1>
${content}
</main></body></html>`;
}
