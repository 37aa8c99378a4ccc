/**
 * A small zip reader (the other half of lib/xlsx.ts's writer), for the files a payment provider publishes as a
 * zip (Alipay's daily bill: a .csv.zip). Reads the central directory, then each entry's data: stored or
 * deflated, its CRC-32 checked. No zip64, no encryption, no multi-disk archives: such a file is refused with
 * UnzipError, like any archive that is damaged.
 */
import { crc32, inflateRawSync } from 'node:zlib';

export class UnzipError extends Error {}

export interface UnzippedFile {
  /** The name as stored: UTF-8 when the entry says so (flag bit 11), otherwise the raw bytes (often GBK). */
  name: Buffer;
  /** Whether the name is marked UTF-8. */
  utf8Name: boolean;
  data: Buffer;
}

/** Whether the bytes start like a zip archive (a local file header). */
export const looksLikeZip = (content: Buffer) => content.length >= 4 && content.readUInt32LE(0) === 0x04034b50;

/** The end-of-central-directory record's offset, searched from the end (a comment may follow it). */
function endRecord(content: Buffer): number {
  const earliest = Math.max(0, content.length - 22 - 0xffff);
  for (let at = content.length - 22; at >= earliest; at -= 1) {
    if (content.readUInt32LE(at) === 0x06054b50) return at;
  }
  throw new UnzipError('not a zip archive (no central directory)');
}

/** Every file of the archive (directories left out), with its data. Throws UnzipError on a damaged archive. */
export function unzip(content: Buffer, maxFileBytes = 64 * 1024 * 1024): UnzippedFile[] {
  if (content.length < 22) throw new UnzipError('not a zip archive (too short)');
  const end = endRecord(content);
  const count = content.readUInt16LE(end + 10);
  let at = content.readUInt32LE(end + 16);
  const files: UnzippedFile[] = [];
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > content.length || content.readUInt32LE(at) !== 0x02014b50) {
      throw new UnzipError(`damaged zip archive (central directory entry ${i + 1})`);
    }
    const flags = content.readUInt16LE(at + 8);
    const method = content.readUInt16LE(at + 10);
    const crc = content.readUInt32LE(at + 16);
    const packed = content.readUInt32LE(at + 20);
    const size = content.readUInt32LE(at + 24);
    const nameLength = content.readUInt16LE(at + 28);
    const extraLength = content.readUInt16LE(at + 30);
    const commentLength = content.readUInt16LE(at + 32);
    const localAt = content.readUInt32LE(at + 42);
    const name = content.subarray(at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.length > 0 && name[name.length - 1] === 0x2f) continue; // a directory
    if (flags & 0x1) throw new UnzipError('encrypted zip entries are not supported');
    if (size > maxFileBytes) throw new UnzipError(`a file of the archive is too large (${size} bytes)`);
    if (localAt + 30 > content.length || content.readUInt32LE(localAt) !== 0x04034b50) {
      throw new UnzipError(`damaged zip archive (file ${i + 1})`);
    }
    const dataAt = localAt + 30 + content.readUInt16LE(localAt + 26) + content.readUInt16LE(localAt + 28);
    const raw = content.subarray(dataAt, dataAt + packed);
    if (raw.length !== packed) throw new UnzipError(`damaged zip archive (file ${i + 1} is cut short)`);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: maxFileBytes });
      } catch {
        throw new UnzipError(`damaged zip archive (file ${i + 1} does not inflate)`);
      }
    } else throw new UnzipError(`unsupported zip compression method ${method}`);
    if (data.length !== size || crc32(data) !== crc) {
      throw new UnzipError(`damaged zip archive (file ${i + 1} fails its checksum)`);
    }
    files.push({ name: Buffer.from(name), utf8Name: (flags & 0x800) !== 0, data });
  }
  return files;
}
