/**
 * A minimal .xlsx writer (Office Open XML SpreadsheetML): one worksheet of text and number cells, text as
 * inline strings, packed in a zip written here with node:zlib (deflate, CRC-32) so that no dependency is
 * needed. Enough for the organiser's exports; spreadsheet programs (Excel, LibreOffice, WPS, Numbers) open it.
 * `xlsxStream` writes a long sheet as it is read (a page of rows at a time, deflated on the way): a hundred
 * thousand entries never sit in memory whole; its sheet's zip entry carries a data descriptor (sizes after the
 * data), as every streaming zip writer does.
 *
 * A text cell is never a formula: every cell is written as a value (`t="inlineStr"`), and a text that starts
 * with = + - @ (or a tab or carriage return) is written with the "quote prefix" style, so that a program that
 * re-reads the cell as typed input still keeps it text (spreadsheet formula injection).
 */
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

export type XlsxCell = string | number | null | undefined;

/** Characters that make a typed cell a formula in spreadsheet programs. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Characters XML 1.0 does not allow (control characters other than tab, line feed, carriage return). */
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const escapeXml = (text: string) =>
  text
    .replace(XML_INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** A1-style column letters of a 0-based column index: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

function cellXml(value: XlsxCell, ref: string, header: boolean): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number' && Number.isFinite(value))
    return `<c r="${ref}"${header ? ' s="1"' : ''}><v>${value}</v></c>`;
  const text = String(value);
  // Style 2: quotePrefix (a leading formula character stays text); style 1: the bold header.
  const style = header ? ' s="1"' : FORMULA_START.test(text) ? ' s="2"' : '';
  const space = /^\s|\s$|\n/.test(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}" t="inlineStr"${style}><is><t${space}>${escapeXml(text)}</t></is></c>`;
}

function rowXml(row: readonly XlsxCell[], r: number): string {
  const cells = row.map((value, c) => cellXml(value, `${columnName(c)}${r}`, r === 1)).join('');
  return `<row r="${r}">${cells}</row>`;
}

const FROZEN_HEADER =
  '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';
const sheetHead = (frozen: boolean) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  `${frozen ? FROZEN_HEADER : ''}<sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

function sheetXml(rows: readonly (readonly XlsxCell[])[]): string {
  return sheetHead(rows.length > 1) + rows.map((row, r) => rowXml(row, r + 1)).join('') + SHEET_TAIL;
}

const STYLES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" quotePrefix="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

/** The files of a one-sheet workbook (first row: the header, bold). */
export function workbookFiles(sheetName: string, rows: readonly (readonly XlsxCell[])[]): [string, string][] {
  return workbookParts(sheetName, sheetXml(rows));
}

/** The workbook's files around its one sheet (`sheet`: the worksheet's XML, or a stream of it). */
function workbookParts<S>(sheetName: string, sheet: S): [string, string | S][] {
  const name = escapeXml(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1');
  return [
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        '</Relationships>',
    ],
    [
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        `<sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
        '</Relationships>',
    ],
    ['xl/styles.xml', STYLES],
    // The sheet last: a streamed sheet is written after every small part.
    ['xl/worksheets/sheet1.xml', sheet],
  ];
}

/** DOS date and time of a zip entry (local time fields; 1980-01-01 at the earliest). */
function dosTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

interface ZipEntry {
  name: Buffer;
  crc: number;
  packed: number;
  size: number;
  offset: number;
  /** Sizes and CRC in a data descriptor after the data (flag bit 3), not in the local header. */
  streamed: boolean;
}

const ZIP_LIMIT = 0xffffffff;

function localHeader(entry: ZipEntry, time: number, date: number): Buffer {
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(entry.streamed ? 0x0808 : 0x0800, 6); // flags: UTF-8 names (and a data descriptor)
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt16LE(time, 10);
  local.writeUInt16LE(date, 12);
  // A streamed entry's CRC and sizes are unknown here: zero, then in the descriptor and the directory.
  local.writeUInt32LE(entry.streamed ? 0 : entry.crc, 14);
  local.writeUInt32LE(entry.streamed ? 0 : entry.packed, 18);
  local.writeUInt32LE(entry.streamed ? 0 : entry.size, 22);
  local.writeUInt16LE(entry.name.length, 26);
  local.writeUInt16LE(0, 28);
  return Buffer.concat([local, entry.name]);
}

function dataDescriptor(entry: ZipEntry): Buffer {
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  descriptor.writeUInt32LE(entry.packed, 8);
  descriptor.writeUInt32LE(entry.size, 12);
  return descriptor;
}

/** The central directory and its end record, after the entries (`offset`: where the directory starts). */
function zipDirectory(entries: readonly ZipEntry[], offset: number, time: number, date: number): Buffer {
  const centrals = entries.map((entry) => {
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.streamed ? 0x0808 : 0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.packed, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(entry.name.length, 28);
    central.writeUInt32LE(entry.offset, 42);
    return Buffer.concat([central, entry.name]);
  });
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([directory, end]);
}

/** One small file deflated whole: its entry and its bytes (local header and data). */
function packedEntry(fileName: string, content: string | Buffer, offset: number, time: number, date: number) {
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const packed = deflateRawSync(data);
  const entry: ZipEntry = {
    name: Buffer.from(fileName, 'utf8'),
    crc: crc32(data),
    packed: packed.length,
    size: data.length,
    offset,
    streamed: false,
  };
  return { entry, bytes: Buffer.concat([localHeader(entry, time, date), packed]) };
}

/** A zip archive (deflate) of the files, names in UTF-8. */
export function zip(files: readonly [string, string | Buffer][], modified = new Date()): Buffer {
  const { time, date } = dosTime(modified);
  const entries: ZipEntry[] = [];
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [fileName, content] of files) {
    const { entry, bytes } = packedEntry(fileName, content, offset, time, date);
    entries.push(entry);
    parts.push(bytes);
    offset += bytes.length;
  }
  return Buffer.concat([...parts, zipDirectory(entries, offset, time, date)]);
}

/** Until the stream takes more (drain) or is gone (close, an error included); no listener is left behind. */
const drainedOrClosed = (stream: NodeJS.EventEmitter) =>
  new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });

/**
 * Deflates a stream of texts as it comes (UTF-8), counting into `sums` the CRC-32 and size of what went in and
 * the size of what came out. Backpressure: the source is read only as fast as the output is taken.
 */
async function* deflated(
  source: AsyncIterable<string>,
  sums: { crc: number; size: number; packed: number },
): AsyncGenerator<Buffer> {
  const deflate = createDeflateRaw();
  const feed = (async () => {
    try {
      for await (const text of source) {
        if (deflate.destroyed) return;
        const data = Buffer.from(text, 'utf8');
        sums.crc = crc32(data, sums.crc);
        sums.size += data.length;
        if (!deflate.write(data)) await drainedOrClosed(deflate);
      }
      deflate.end();
    } catch (error) {
      deflate.destroy(error as Error);
    }
  })();
  for await (const out of deflate as AsyncIterable<Buffer>) {
    sums.packed += out.length;
    yield out;
  }
  await feed;
}

/**
 * A zip archive written as it goes: the small files whole, then the last file (`last`) from a stream of texts,
 * deflated on the way, with a data descriptor.
 */
export async function* zipStream(
  files: readonly [string, string | Buffer][],
  last: [string, AsyncIterable<string>],
  modified = new Date(),
): AsyncGenerator<Buffer> {
  const { time, date } = dosTime(modified);
  const entries: ZipEntry[] = [];
  let offset = 0;
  for (const [fileName, content] of files) {
    const { entry, bytes } = packedEntry(fileName, content, offset, time, date);
    entries.push(entry);
    offset += bytes.length;
    yield bytes;
  }
  const sums = { crc: 0, size: 0, packed: 0 };
  const stream: ZipEntry = { name: Buffer.from(last[0], 'utf8'), ...sums, offset, streamed: true };
  const header = localHeader(stream, time, date);
  yield header;
  for await (const chunk of deflated(last[1], sums)) yield chunk;
  // Beyond 4 GiB a zip needs ZIP64, which this writer does not write.
  if (sums.size > ZIP_LIMIT || offset + header.length + sums.packed > ZIP_LIMIT) {
    throw new Error('the sheet is too large for a zip without ZIP64');
  }
  Object.assign(stream, sums);
  entries.push(stream);
  const descriptor = dataDescriptor(stream);
  yield descriptor;
  yield zipDirectory(entries, offset + header.length + sums.packed + descriptor.length, time, date);
}

/** A one-sheet .xlsx file of the rows (the first row is the header). */
export function xlsx(sheetName: string, rows: readonly (readonly XlsxCell[])[], modified?: Date): Buffer {
  return zip(workbookFiles(sheetName, rows), modified);
}

/**
 * A one-sheet .xlsx file written as its rows are read: the header row, then each page of rows as it comes
 * (`pages`), with the header frozen. Memory holds one page, not the sheet.
 */
export function xlsxStream(
  sheetName: string,
  header: readonly XlsxCell[],
  pages: AsyncIterable<readonly (readonly XlsxCell[])[]>,
  modified?: Date,
): AsyncGenerator<Buffer> {
  async function* sheet(): AsyncGenerator<string> {
    yield sheetHead(true) + rowXml(header, 1);
    let r = 1;
    for await (const page of pages) {
      let xml = '';
      for (const row of page) xml += rowXml(row, (r += 1));
      yield xml;
    }
    yield SHEET_TAIL;
  }
  const parts = workbookParts(sheetName, null);
  const small = parts.filter((part): part is [string, string] => part[1] !== null);
  return zipStream(small, ['xl/worksheets/sheet1.xml', sheet()], modified);
}
