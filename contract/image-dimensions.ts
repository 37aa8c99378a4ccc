/**
 * The width and height of an image as a browser shows it, read from the file's header (spec §5 "Image size:
 * exact required width and height"): PNG, JPEG, GIF, WEBP (VP8, VP8L, VP8X) and BMP, the image types of the
 * upload list. Pure over bytes, so the SPA (a chosen file, before it is uploaded) and the server (a stored
 * upload, when a form is submitted) measure alike. A JPEG's EXIF orientation 5-8 (turned a quarter) swaps
 * width and height, as browsers do (CSS image-orientation: from-image).
 */
import type { ImageSize } from '#contract/rules';

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, end));

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const size = (width: number, height: number): ImageSize | null => (width > 0 && height > 0 ? { width, height } : null);

function png(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 24 || ascii(bytes, 12, 16) !== 'IHDR') return null;
  const data = view(bytes);
  return size(data.getUint32(16), data.getUint32(20));
}

function gif(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 10) return null;
  const data = view(bytes);
  return size(data.getUint16(6, true), data.getUint16(8, true));
}

function bmp(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 26) return null;
  const data = view(bytes);
  // BITMAPCOREHEADER (12 bytes) has 16-bit sizes; the later headers 32-bit, a negative height is top-down.
  if (data.getUint32(14, true) === 12) return size(data.getUint16(18, true), data.getUint16(20, true));
  return size(Math.abs(data.getInt32(18, true)), Math.abs(data.getInt32(22, true)));
}

function webp(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 30) return null;
  const data = view(bytes);
  const chunk = ascii(bytes, 12, 16);
  if (chunk === 'VP8X') {
    const width = 1 + (data.getUint16(24, true) | (bytes[26]! << 16));
    const height = 1 + (data.getUint16(27, true) | (bytes[29]! << 16));
    return size(width, height);
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return null;
    const bits = data.getUint32(21, true);
    return size((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return size(data.getUint16(26, true) & 0x3fff, data.getUint16(28, true) & 0x3fff);
  }
  return null;
}

/** The EXIF orientation (1-8) of an APP1 segment's body, or 1. */
function exifOrientation(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < 14 || ascii(bytes, start, start + 6) !== 'Exif\0\0') return 1;
  const tiff = start + 6;
  const order = ascii(bytes, tiff, tiff + 2);
  if (order !== 'II' && order !== 'MM') return 1;
  const little = order === 'II';
  const data = view(bytes);
  const u16 = (at: number) => (at + 2 <= end ? data.getUint16(at, little) : 0);
  const u32 = (at: number) => (at + 4 <= end ? data.getUint32(at, little) : 0);
  const ifd = tiff + u32(tiff + 4);
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) break;
    if (u16(entry) === 0x0112) return u16(entry + 8);
  }
  return 1;
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic): not DHT (C4), JPG (C8), DAC (CC). */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(bytes: Uint8Array): ImageSize | null {
  const data = view(bytes);
  let orientation = 1;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or the scan before any frame header
    const length = data.getUint16(at + 2);
    if (length < 2) return null;
    if (marker === 0xe1 && orientation === 1)
      orientation = exifOrientation(bytes, at + 4, Math.min(at + 2 + length, bytes.length));
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) return null;
      const height = data.getUint16(at + 5);
      const width = data.getUint16(at + 7);
      return orientation >= 5 && orientation <= 8 ? size(height, width) : size(width, height);
    }
    at += 2 + length;
  }
  return null;
}

/** The width and height of a PNG, JPEG, GIF, WEBP or BMP image, or null when the bytes are none of these. */
export function imageDimensions(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 4) return null;
  if (bytes[0] === 0x89 && ascii(bytes, 1, 4) === 'PNG') return png(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes);
  if (ascii(bytes, 0, 4) === 'GIF8') return gif(bytes);
  if (ascii(bytes, 0, 2) === 'BM') return bmp(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && bytes.length >= 12 && ascii(bytes, 8, 12) === 'WEBP') return webp(bytes);
  return null;
}
