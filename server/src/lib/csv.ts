/**
 * A small RFC 4180 CSV reader: quoted fields (with "" for a quote, commas and line breaks inside), CRLF or
 * LF line ends, an optional UTF-8 BOM. Each record carries the line number it starts on (1 = first line).
 */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'CsvSyntaxError';
  }
}

export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let i = 0;
  let quoted = false;
  let fieldStarted = false;
  const endRecord = () => {
    fields.push(field);
    // A blank line is no record.
    if (!(fields.length === 1 && fields[0] === '' && !fieldStarted)) records.push({ line: start, fields });
    fields = [];
    field = '';
    fieldStarted = false;
  };
  while (i < src.length) {
    const c = src[i] as string;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const next = src[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new CsvSyntaxError(line, 'text after a closing quote');
        }
        continue;
      }
      if (c === '\n') line++;
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (field !== '') throw new CsvSyntaxError(line, 'a quote inside an unquoted field');
      quoted = true;
      fieldStarted = true;
      i++;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      fieldStarted = true;
      i++;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      start = line;
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new CsvSyntaxError(start, 'a quoted field is not closed');
  if (field !== '' || fields.length > 0 || fieldStarted) endRecord();
  return records;
}

/** A CSV field, quoted when it must be (RFC 4180); a leading formula character is neutralised for spreadsheets. */
export function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A CSV file's text: CRLF line ends (one after the last record too) and a UTF-8 byte-order mark, so that
 * spreadsheet programs read the Chinese names.
 */
export function formatCsv(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${csvLines(rows)}`;
}

/** CSV records, each ended by CRLF. */
const csvLines = (rows: readonly (readonly string[])[]) =>
  rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');

/**
 * The same CSV file written as its rows are read: the byte-order mark and the header, then each page of rows as
 * it comes (`pages`). Memory holds one page, not the file.
 */
export async function* csvStream(
  header: readonly string[],
  pages: AsyncIterable<readonly (readonly string[])[]>,
): AsyncGenerator<string> {
  yield `\uFEFF${csvLines([header])}`;
  for await (const page of pages) yield csvLines(page);
}
