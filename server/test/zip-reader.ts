/**
 * A strict reader of the zip archives and sheets our .xlsx writer makes (server/src/lib/xlsx.ts), for tests: it
 * walks the central directory, checks each entry's local header, inflates its data and checks the CRC-32 and
 * sizes (in the local header, or for a streamed entry in the data descriptor after the data), and that the
 * archive holds nothing else. A second opinion besides Python's zipfile where that is installed.
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { expect } from 'vitest';
import { columnName } from '../src/lib/xlsx.ts';

/** The entries of a zip (names → contents as UTF-8), every structure checked. */
export function unzip(bytes: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  const end = bytes.length - 22;
  expect(bytes.readUInt32LE(end), 'end of central directory record').toBe(0x06054b50);
  const count = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  let at = bytes.readUInt32LE(end + 16);
  expect(at + directorySize).toBe(end);
  let dataEnd = 0;
  for (let i = 0; i < count; i += 1) {
    expect(bytes.readUInt32LE(at), 'central directory header').toBe(0x02014b50);
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const crc = bytes.readUInt32LE(at + 16);
    const packedSize = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const localAt = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(localAt, `${name} starts where the one before ended`).toBe(dataEnd);
    expect(bytes.readUInt32LE(localAt), `${name}: local header`).toBe(0x04034b50);
    expect(bytes.readUInt16LE(localAt + 6), `${name}: the same flags`).toBe(flags);
    const streamed = (flags & 0x08) !== 0;
    if (!streamed) {
      expect(bytes.readUInt32LE(localAt + 14)).toBe(crc);
      expect(bytes.readUInt32LE(localAt + 18)).toBe(packedSize);
      expect(bytes.readUInt32LE(localAt + 22)).toBe(size);
    }
    const localName = bytes.subarray(localAt + 30, localAt + 30 + bytes.readUInt16LE(localAt + 26)).toString('utf8');
    expect(localName).toBe(name);
    const dataAt = localAt + 30 + bytes.readUInt16LE(localAt + 26) + bytes.readUInt16LE(localAt + 28);
    const packed = bytes.subarray(dataAt, dataAt + packedSize);
    const data = method === 8 ? inflateRawSync(packed) : packed;
    expect(data.length, `${name}: size`).toBe(size);
    expect(crc32(data), `${name}: CRC-32`).toBe(crc);
    dataEnd = dataAt + packedSize;
    if (streamed) {
      // The data descriptor (with its signature): CRC-32, packed size, size.
      expect(bytes.readUInt32LE(dataEnd), `${name}: data descriptor`).toBe(0x08074b50);
      expect([
        bytes.readUInt32LE(dataEnd + 4),
        bytes.readUInt32LE(dataEnd + 8),
        bytes.readUInt32LE(dataEnd + 12),
      ]).toEqual([crc, packedSize, size]);
      dataEnd += 16;
    }
    files.set(name, data.toString('utf8'));
    at += 46 + nameLength + extraLength + commentLength;
  }
  expect(dataEnd, 'the central directory follows the last entry').toBe(bytes.readUInt32LE(end + 16));
  return files;
}

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

export interface SheetCell {
  text: string;
  style: string | undefined;
  type: string | undefined;
}

/** The cells of sheet1.xml: reference → { text, style, type }; a formula is never there. */
export function sheetCells(sheet: string): Map<string, SheetCell> {
  const found = new Map<string, SheetCell>();
  expect(sheet).not.toContain('<f>');
  for (const match of sheet.matchAll(/<c r="([A-Z]+\d+)"([^>]*)>(.*?)<\/c>/g)) {
    const attributes = match[2]!;
    const text = /<t[^>]*>(.*?)<\/t>/.exec(match[3]!)?.[1] ?? /<v>(.*?)<\/v>/.exec(match[3]!)?.[1] ?? '';
    found.set(match[1]!, {
      text: unescapeXml(text),
      style: / s="(\d+)"/.exec(attributes)?.[1],
      type: / t="(\w+)"/.exec(attributes)?.[1],
    });
  }
  return found;
}

/** The sheet as rows of texts (row 1 the header), `width` columns each. */
export function sheetRows(sheet: string, width: number): string[][] {
  const cells = sheetCells(sheet);
  const rows = Math.max(0, ...[...cells.keys()].map((ref) => Number(/\d+$/.exec(ref)![0])));
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: width }, (_, c) => cells.get(`${columnName(c)}${r + 1}`)?.text ?? ''),
  );
}
