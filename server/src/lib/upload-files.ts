/**
 * What the upload routes, the upload values of the forms (lib/upload-value.ts) and the organiser's event
 * assets (services/organiser/event-assets.ts) share about uploaded files: the private folder of runners'
 * uploads and the first bytes each accepted extension must start with.
 */
import { PRIVATE_UPLOAD_DIR } from '#contract/upload-value';

/** The folder of runners' uploads, private (routes/files: served to their owner only). */
export const UPLOAD_SUBDIR = PRIVATE_UPLOAD_DIR;

const bytes = (...values: number[]) => Buffer.from(values);
const ascii = (text: string) => Buffer.from(text, 'latin1');
const ZIP = [bytes(0x50, 0x4b, 0x03, 0x04), bytes(0x50, 0x4b, 0x05, 0x06)];
const OLE = [bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)];

/** Signatures at offset 0 per extension (webp is checked separately: RIFF....WEBP). */
const MAGIC: Record<string, Buffer[]> = {
  jpg: [bytes(0xff, 0xd8, 0xff)],
  jpeg: [bytes(0xff, 0xd8, 0xff)],
  png: [bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)],
  gif: [ascii('GIF87a'), ascii('GIF89a')],
  bmp: [ascii('BM')],
  pdf: [ascii('%PDF-')],
  zip: ZIP,
  xlsx: ZIP,
  docx: ZIP,
  xls: OLE,
  doc: OLE,
};

export function magicMatches(ext: string, head: Buffer): boolean {
  if (ext === 'webp') {
    return head.subarray(0, 4).equals(ascii('RIFF')) && head.subarray(8, 12).equals(ascii('WEBP'));
  }
  return (MAGIC[ext] ?? []).some((sig) => head.length >= sig.length && head.subarray(0, sig.length).equals(sig));
}
