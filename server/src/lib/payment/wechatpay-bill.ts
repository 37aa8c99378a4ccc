/**
 * WeChat Pay's trade bill (交易账单, bill_type ALL) read into our terms (BillLine): the file the API's
 * download_url gives (GET /v3/bill/tradebill) and the one the finance staff download from the merchant portal
 * have the same layout: a header row of column names, then one row per payment or refund, each field led by a
 * backquote (`` `2025-06-16 10:30:00,`wx…,`1900000001,… ``), then the summary (a row of names starting with
 * 总交易单数 and a row of its values). Columns are found by name (their set has changed over the years):
 *
 * - 交易时间 (China time), 微信订单号, 商户订单号 (our payment id), 交易状态 (SUCCESS: paid; REFUND: a refund);
 * - the payment's amount: 订单金额 (what we asked for, before any voucher), else 总金额, else 应结订单金额;
 * - a refund's: 商户退款单号 (our refund number) and 申请退款金额 (what we asked back), else 退款金额;
 *   its time: 退款成功时间 when the bill has it, else 交易时间.
 *
 * Amounts are yuan with up to two decimals, read into fen without floating point. A file compressed with gzip
 * (tar_type GZIP) is read as well; one in GB18030 (a spreadsheet's save) too. Anything else (a row that does
 * not fit the header, an amount or a time that is not one, a status we do not know, no summary: a file cut
 * short) throws BillFormatError with the line: never half a bill.
 */
import { gunzipSync } from 'node:zlib';
import { BillFormatError, type BillLine } from './provider.ts';
import { parseChinaTime, yuanToFen } from './china-format.ts';

/** The file's text: gunzipped when gzip, UTF-8 (its BOM dropped) or else GB18030. */
function billText(content: Buffer): string {
  let bytes = content;
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      throw new BillFormatError(0, 'the gzip file is damaged');
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('gb18030').decode(bytes);
  }
  return text.replace(/^\uFEFF/, '');
}

/** A row's fields: each led by a backquote, separated by ",`" (a comma inside a product name stays in it). */
const fieldsOf = (row: string) => row.slice(1).split(',`');

const PAYMENT_AMOUNT_COLUMNS = ['订单金额', '总金额', '应结订单金额'];
const REFUND_AMOUNT_COLUMNS = ['申请退款金额', '退款金额'];

export function parseWechatpayBill(content: Buffer): BillLine[] {
  const lines = billText(content).split(/\r?\n/);
  const headerAt = lines.findIndex((l) => l.includes('交易时间') && l.includes('商户订单号'));
  if (headerAt < 0) throw new BillFormatError(0, 'no header row (交易时间, 商户订单号…): not a WeChat Pay trade bill');
  const header = lines[headerAt]!.replace(/^\uFEFF/, '')
    .split(',')
    .map((name) => name.trim());
  const column = (name: string) => header.indexOf(name);
  const required = (name: string) => {
    const at = column(name);
    if (at < 0) throw new BillFormatError(headerAt + 1, `no column ${name}`);
    return at;
  };
  /** The columns of `names` the bill has, in that order of preference (a row's first non-empty one counts). */
  const anyOf = (names: string[]) => {
    const found = names.map(column).filter((i) => i >= 0);
    if (found.length === 0) throw new BillFormatError(headerAt + 1, `no column ${names.join(' or ')}`);
    return found;
  };
  const timeAt = required('交易时间');
  const tradeNoAt = required('微信订单号');
  const paymentIdAt = required('商户订单号');
  const statusAt = required('交易状态');
  const paymentAmountAt = anyOf(PAYMENT_AMOUNT_COLUMNS);
  const refundNoAt = required('商户退款单号');
  const refundAmountAt = anyOf(REFUND_AMOUNT_COLUMNS);
  const refundTimeAt = column('退款成功时间');

  const out: BillLine[] = [];
  let summary = false;
  for (let i = headerAt + 1; i < lines.length; i += 1) {
    const row = lines[i]!.trim();
    const lineNo = i + 1;
    if (row === '') continue;
    if (row.startsWith('总交易单数')) {
      const values = lines.slice(i + 1).find((l) => l.trim() !== '');
      if (values === undefined || !values.trim().startsWith('`'))
        throw new BillFormatError(lineNo, 'the summary has no values');
      summary = true;
      break;
    }
    if (!row.startsWith('`')) throw new BillFormatError(lineNo, 'a row of a trade bill starts with a backquote');
    const fields = fieldsOf(row);
    if (fields.length !== header.length)
      throw new BillFormatError(lineNo, `${fields.length} fields where the header has ${header.length}`);
    const field = (at: number) => fields[at]!.trim();
    const status = field(statusAt);
    if (status === 'REVOKED') continue; // 已撤销: the payment was reversed, no money taken
    if (status !== 'SUCCESS' && status !== 'REFUND')
      throw new BillFormatError(lineNo, `交易状态 ${status || '(empty)'} is not SUCCESS or REFUND`);
    const refund = status === 'REFUND';
    const paymentId = field(paymentIdAt);
    const tradeNo = field(tradeNoAt);
    if (paymentId === '' || tradeNo === '') throw new BillFormatError(lineNo, 'no 商户订单号 or 微信订单号');
    const amountText = (refund ? refundAmountAt : paymentAmountAt).map(field).find((t) => t !== '');
    const amountFen = yuanToFen(amountText ?? '');
    if (amountFen === undefined || amountFen <= 0)
      throw new BillFormatError(lineNo, `the amount ${amountText ?? '(empty)'} is not a positive amount in yuan`);
    const timeText = refund && refundTimeAt >= 0 && field(refundTimeAt) !== '' ? field(refundTimeAt) : field(timeAt);
    const at = parseChinaTime(timeText);
    if (at === undefined) throw new BillFormatError(lineNo, `the time ${timeText} is not YYYY-MM-DD hh:mm:ss`);
    let refundNo: string | null = null;
    if (refund) {
      refundNo = field(refundNoAt);
      if (refundNo === '') throw new BillFormatError(lineNo, 'a refund row without 商户退款单号');
    }
    out.push({ kind: refund ? 'refund' : 'payment', paymentId, tradeNo, refundNo, amountFen, at });
  }
  if (!summary) throw new BillFormatError(0, 'no summary (总交易单数…) at the end: the file is cut short');
  return out;
}
