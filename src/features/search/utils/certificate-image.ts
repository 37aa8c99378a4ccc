/**
 * The e-certificate as a PNG drawn on a canvas (1200×850), with a QR code pointing at the verification
 * page. `qrcode` is imported lazily so it is loaded only when a visitor downloads a certificate.
 */
import type { ScoreResult } from '../types/search-types';

export const CERT_WIDTH = 1200;
export const CERT_HEIGHT = 850;

/** The verification link the QR code encodes (hash routing). */
export function certificateVerifyUrl(
  cert: { id: string; sig: string },
  loc: Pick<Location, 'origin' | 'pathname'> = window.location,
): string {
  const query = new URLSearchParams({ id: cert.id, sig: cert.sig });
  return `${loc.origin}${loc.pathname}#/certificate?${query.toString()}`;
}

export interface CertificateLabels {
  title: string;
  runner: string;
  bib: string;
  item: string;
  chipTime: string;
  overall: string;
  gender: string;
  ageGroup: string;
  date: string;
  scan: string;
}

/** The certificate of a result whose race and item names are already in the visitor's language. */
export async function drawCertificate(result: ScoreResult, labels: CertificateLabels): Promise<HTMLCanvasElement> {
  const canvas = document.createElement('canvas');
  canvas.width = CERT_WIDTH;
  canvas.height = CERT_HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas unavailable');

  const bg = ctx.createLinearGradient(0, 0, CERT_WIDTH, CERT_HEIGHT);
  bg.addColorStop(0, '#fdfaf2');
  bg.addColorStop(1, '#f3ead3');
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, CERT_WIDTH, CERT_HEIGHT);
  ctx.strokeStyle = '#0b3d6b';
  ctx.lineWidth = 10;
  ctx.strokeRect(30, 30, CERT_WIDTH - 60, CERT_HEIGHT - 60);
  ctx.strokeStyle = '#f2b233';
  ctx.lineWidth = 2;
  ctx.strokeRect(48, 48, CERT_WIDTH - 96, CERT_HEIGHT - 96);

  const font = '"PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", Arial, sans-serif';
  ctx.textAlign = 'center';
  ctx.fillStyle = '#0b3d6b';
  ctx.font = `bold 46px ${font}`;
  ctx.fillText(result.raceName, CERT_WIDTH / 2, 150);
  ctx.font = `30px ${font}`;
  ctx.fillStyle = '#8a6a1d';
  ctx.fillText(labels.title, CERT_WIDTH / 2, 205);

  ctx.fillStyle = '#1d2733';
  ctx.font = `bold 64px ${font}`;
  ctx.fillText(result.name, CERT_WIDTH / 2, 320);

  ctx.textAlign = 'left';
  ctx.font = `28px ${font}`;
  const rows: [string, string][] = [
    [labels.bib, result.bib],
    [labels.item, result.itemName],
    [labels.chipTime, result.chipTime],
    [labels.overall, `${result.ranks.overall} / ${result.ranks.finishers}`],
    [labels.gender, String(result.ranks.gender)],
    [labels.ageGroup, `${result.ranks.ageGroup} (${result.ranks.ageGroupLabel})`],
    ...(result.raceDate ? [[labels.date, result.raceDate] as [string, string]] : []),
  ];
  rows.forEach(([label, value], i) => {
    const y = 410 + i * 52;
    ctx.fillStyle = '#5b6673';
    ctx.fillText(label, 150, y);
    ctx.fillStyle = '#1d2733';
    ctx.fillText(value, 420, y);
  });

  if (result.certificate) {
    const QRCode = await import('qrcode');
    const qr = document.createElement('canvas');
    await QRCode.toCanvas(qr, certificateVerifyUrl(result.certificate), { width: 200, margin: 1 });
    ctx.drawImage(qr, CERT_WIDTH - 330, 420, 200, 200);
    ctx.textAlign = 'center';
    ctx.font = `20px ${font}`;
    ctx.fillStyle = '#5b6673';
    ctx.fillText(labels.scan, CERT_WIDTH - 230, 660);
  }
  return canvas;
}

/** Saves a blob under a file name (an anchor with download). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export async function downloadCertificate(result: ScoreResult, labels: CertificateLabels): Promise<void> {
  const canvas = await drawCertificate(result, labels);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('canvas export failed');
  saveBlob(blob, `certificate-${result.bib}.png`);
}
