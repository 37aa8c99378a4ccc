/**
 * Alipay's daily trade bill (bill_type 'trade', alipay.data.dataservice.bill.downloadurl.query) read into our
 * terms (BillLine, lib/payment/provider.ts). Alipay publishes it as a zip (`<pid>_<yyyyMMdd>.csv.zip`) of two
 * CSV files in GBK: `…_业务明细.csv` (one line per payment and per refund) and `…_业务明细(汇总).csv` (totals).
 * The finance staff download the same zip from the merchant portal (对账中心); either the zip or its detail
 * CSV is read.
 *
 * The detail CSV: '#' lines around the table (#支付宝业务明细查询, #账号, #起始日期, #---业务明细列表---, …,
 * #---业务明细列表结束---, #交易合计, #退款合计, #导出时间), then a header line and one line per business:
 * 支付宝交易号, 商户订单号 (our payment id), 业务类型 (交易 or 退款), 完成时间 (China time), 订单金额（元）
 * (negative for a refund), 退款批次号/请求号 (our refund number), … Numbers carry a trailing tab (so that
 * spreadsheets keep them as text); cells are trimmed.
 */
import { looksLikeZip, unzip, UnzipError } from '../unzip.ts';
import { parseChinaTime, yuanToFen } from './china-format.ts';
import { BillFormatError, type BillLine } from './provider.ts';

/** The columns read, by their header names. */
const COLUMNS = {
  tradeNo: '支付宝交易号',
  paymentId: '商户订单号',
  kind: '业务类型',
  finishedAt: '完成时间',
  amount: '订单金额（元）',
  refundNo: '退款批次号/请求号',
} as const;

const KINDS: Record<string, BillLine['kind']> = { 交易: 'payment', 退款: 'refund' };

/** Text of a CSV file: UTF-8 when it is valid UTF-8 (a BOM dropped), otherwise GBK (Alipay's own encoding). */
export function decodeBillText(content: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(content);
  } catch {
    return new TextDecoder('gbk').decode(content);
  }
}

/** One CSV line's cells (double quotes allowed around a cell, "" inside them), each trimmed (tabs included). */
function cells(line: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (line[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= line.length) return undefined;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        cell += line[i];
        i += 1;
      }
      while (i < line.length && line[i] !== ',') {
        if (line[i]!.trim() !== '') return undefined;
        i += 1;
      }
    } else {
      const next = line.indexOf(',', i);
      cell = next === -1 ? line.slice(i) : line.slice(i, next);
      i = next === -1 ? line.length : next;
    }
    out.push(cell.trim());
    if (i >= line.length) return out;
    i += 1; // the comma
  }
}

/** The lines of the detail CSV's text; throws BillFormatError (with the file's line) on what it cannot read. */
export function parseAlipayDetailCsv(text: string): BillLine[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let header: Map<string, number> | undefined;
  let width = 0;
  const out: BillLine[] = [];
  for (let n = 0; n < lines.length; n += 1) {
    const line = lines[n]!;
    const lineNo = n + 1;
    if (line.trim() === '' || line.startsWith('#')) {
      if (header && /业务明细列表结束/.test(line)) return out;
      continue;
    }
    const row = cells(line);
    if (!row) throw new BillFormatError(lineNo, 'a quoted cell is not closed');
    if (!header) {
      const names = new Map(row.map((name, index) => [name, index]));
      const missing = Object.values(COLUMNS).filter((name) => !names.has(name));
      if (missing.length > 0) {
        throw new BillFormatError(lineNo, `not the header of Alipay's 业务明细 (missing ${missing.join(', ')})`);
      }
      header = names;
      width = row.length;
      continue;
    }
    if (row.length !== width) {
      throw new BillFormatError(lineNo, `${row.length} cells where the header has ${width}`);
    }
    const cell = (column: keyof typeof COLUMNS) => row[header!.get(COLUMNS[column])!]!;
    const kind = KINDS[cell('kind')];
    if (!kind) throw new BillFormatError(lineNo, `业务类型 "${cell('kind')}" is neither 交易 nor 退款`);
    const paymentId = cell('paymentId');
    const tradeNo = cell('tradeNo');
    if (paymentId === '' || tradeNo === '') throw new BillFormatError(lineNo, '支付宝交易号 or 商户订单号 is empty');
    const fen = yuanToFen(cell('amount'), true);
    if (fen === undefined || fen === 0) {
      throw new BillFormatError(lineNo, `订单金额 "${cell('amount')}" is not an amount of yuan`);
    }
    if ((kind === 'payment') !== fen > 0) {
      throw new BillFormatError(lineNo, `订单金额 "${cell('amount')}" has the wrong sign for ${cell('kind')}`);
    }
    const at = parseChinaTime(cell('finishedAt'));
    if (at === undefined) throw new BillFormatError(lineNo, `完成时间 "${cell('finishedAt')}" is not a time`);
    out.push({
      kind,
      paymentId,
      tradeNo,
      // A refund made without a request number has the trade's out_trade_no as its number (Alipay's rule).
      refundNo: kind === 'refund' ? cell('refundNo') || paymentId : null,
      amountFen: Math.abs(fen),
      at,
    });
  }
  if (!header) throw new BillFormatError(0, "no 业务明细 table: not Alipay's trade bill");
  return out;
}

/** Alipay's bill zip, or its detail CSV on its own, read into our terms (BillFormatError when it cannot be). */
export function parseAlipayBill(content: Buffer): BillLine[] {
  if (!looksLikeZip(content)) return parseAlipayDetailCsv(decodeBillText(content));
  let files;
  try {
    files = unzip(content);
  } catch (error) {
    if (error instanceof UnzipError) throw new BillFormatError(0, error.message);
    throw error;
  }
  // The detail file is the one whose table has the detail header (its name, often GBK, is not relied on).
  const details = files
    .map((file) => decodeBillText(file.data))
    .filter((text) => text.includes(COLUMNS.tradeNo) && text.includes(COLUMNS.refundNo));
  if (details.length !== 1) {
    throw new BillFormatError(0, `the zip holds ${details.length} 业务明细 files, not one`);
  }
  return parseAlipayDetailCsv(details[0]!);
}
