/**
 * The formats Alipay and WeChat Pay share (lib/payment/alipay*.ts, wechatpay*.ts): amounts as yuan text with at
 * most two decimals ('128.00'), read and written exactly (integer fen, never a float); times in China time
 * (UTC+8, no daylight saving) whatever the server's own time zone: 'yyyy-MM-dd HH:mm:ss' (Alipay, both bills)
 * and RFC 3339 with +08:00 (WeChat Pay's API).
 */

const CHINA_OFFSET_MS = 8 * 3600_000;

/** Integer fen as yuan text: 12800 → '128.00'. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`not an amount of fen: ${fen}`);
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** Yuan text as integer fen ('128.00', '128.5', '-35.80' when `signed`); undefined when it is not one. */
export function yuanToFen(text: string, signed = false): number | undefined {
  const match = (signed ? /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/ : /^()(\d{1,12})(?:\.(\d{1,2}))?$/).exec(text.trim());
  if (!match) return undefined;
  const fen = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -fen : fen;
}

/** Epoch ms as China time 'yyyy-MM-dd HH:mm:ss'. */
export function chinaTime(at: number): string {
  const d = new Date(at + CHINA_OFFSET_MS);
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ` +
    `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`
  );
}

/** China time 'yyyy-MM-dd HH:mm:ss' (or 'yyyy-MM-dd HH:mm') as epoch ms; undefined when it is not one. */
export function parseChinaTime(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const at = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const back = new Date(at);
  // 2025-02-30 and 25:00 are not times.
  if (back.getUTCMonth() !== month! - 1 || back.getUTCDate() !== day! || hour! > 23 || minute! > 59 || second! > 59) {
    return undefined;
  }
  return at - CHINA_OFFSET_MS;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant in RFC 3339 in China time, as WeChat Pay writes it: 2025-06-16T10:30:00+08:00 (whole seconds). */
export function chinaRfc3339(at: number): string {
  const d = new Date(Math.floor(at / 1000) * 1000 + CHINA_OFFSET_MS);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+08:00`
  );
}
