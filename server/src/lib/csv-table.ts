/**
 * The one reader of an uploaded CSV table (every import: results, registrations, photos, named invitation
 * codes; and the console's import previews): the header's columns, each data row's fields by column name,
 * and every bad row's problems with its line number (`line N: field: problem`), so that a person can fix
 * the whole file at once. What a row means is the caller's (`toValue`); this reads, checks the shape and
 * keeps the problems in line order.
 */
import { CsvSyntaxError, parseCsv, type CsvRecord } from './csv.ts';

/** A data row: its fields by column name, and where its problems go. */
export interface TableRow {
  /** The line the row starts on (1 = the header's first line; a quoted field may span lines). */
  line: number;
  /** The file's column names (trimmed), in order. */
  columns: readonly string[];
  /** The field of a column, trimmed ('' when the column is absent). */
  get(name: string): string;
  /** Whether the column is present and its field not blank. */
  has(name: string): boolean;
  /** The field, with a problem when it is blank. */
  required(name: string): string;
  /**
   * Whether `key` is new to the file; when an earlier line had it, a problem on `field`: "duplicate of line N"
   * (or `message(N)`). Keys share one namespace per file: prefix them (`bib:…`) when two kinds could meet.
   */
  unique(key: string, field: string, message?: (firstLine: number) => string): boolean;
  problem(field: string, message: string): void;
}

/** A problem of one row, by its line. */
export interface TableProblem {
  line: number;
  text: string;
}

export type TableRead<T> =
  /** The rows without a problem (in file order) and every problem of the others, in line order. */
  | { ok: true; columns: string[]; rows: T[]; problems: TableProblem[] }
  /** The file cannot be read as a table (syntax, no header, a column missing or unknown, no data row). */
  | { ok: false; problems: string[] };

/** The columns a table must have, and (when given) the only others it may have. */
export interface TableColumns {
  required: readonly string[];
  optional?: readonly string[];
}

/** A problem of line `line` as every import words it. */
export const tableProblem = (line: number, field: string, message: string): TableProblem => ({
  line,
  text: `line ${line}: ${field}: ${message}`,
});

/** The problems' texts in line order (a row's own problems in the order they were found). */
export const problemTexts = (problems: readonly TableProblem[]): string[] =>
  [...problems].sort((a, b) => a.line - b.line).map((p) => p.text);

/** How many problems an organiser is shown at once. */
export const MAX_SHOWN_PROBLEMS = 200;

/** The first `max` problems, then how many more there are. */
export function shownProblems(texts: readonly string[], max = MAX_SHOWN_PROBLEMS): string[] {
  const shown = texts.slice(0, max);
  if (texts.length > max) shown.push(`… and ${texts.length - max} more problems`);
  return shown;
}

/**
 * Reads a CSV table: its first record names the columns; each later record is a row, turned into a value by
 * `toValue`. A row with the wrong number of fields is a problem of its line (and not given to `toValue`); a
 * row with any problem (or for which `toValue` answers undefined) is left out of `rows`. Never throws on bad
 * input.
 */
export function readTable<T>(
  text: string,
  columnsAllowed: TableColumns,
  toValue: (row: TableRow) => T | undefined,
): TableRead<T> {
  const header = readHeader(text, columnsAllowed);
  if (!header.ok) return header;
  const { columns, records } = header;
  const problems: TableProblem[] = [];
  const rows: T[] = [];
  const seen = new Map<string, number>();
  for (const record of records) {
    if (record.fields.length !== columns.length) {
      problems.push({
        line: record.line,
        text: `line ${record.line}: expected ${columns.length} fields, found ${record.fields.length}`,
      });
      continue;
    }
    const before = problems.length;
    const value = toValue(tableRow(record, columns, seen, problems));
    if (problems.length === before && value !== undefined) rows.push(value);
  }
  return { ok: true, columns, rows, problems };
}

function readHeader(
  text: string,
  columnsAllowed: TableColumns,
): { ok: true; columns: string[]; records: CsvRecord[] } | { ok: false; problems: string[] } {
  let records: CsvRecord[];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ok: false, problems: [error.message] };
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) return { ok: false, problems: ['the file is empty (expected a header row)'] };
  const columns = header.fields.map((f) => f.trim());
  const missing = columnsAllowed.required.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    return { ok: false, problems: [`line ${header.line}: missing column(s): ${missing.join(', ')}`] };
  if (columnsAllowed.optional) {
    const known = [...columnsAllowed.required, ...columnsAllowed.optional];
    const unknown = columns.filter((c) => !known.includes(c));
    if (unknown.length > 0)
      return { ok: false, problems: [`line ${header.line}: unknown column(s): ${unknown.join(', ')}`] };
  }
  if (rows.length === 0) return { ok: false, problems: ['the file has no data rows'] };
  return { ok: true, columns, records: rows };
}

function tableRow(
  record: CsvRecord,
  columns: readonly string[],
  seen: Map<string, number>,
  problems: TableProblem[],
): TableRow {
  const problem = (field: string, message: string) => problems.push(tableProblem(record.line, field, message));
  const get = (name: string) => {
    const at = columns.indexOf(name);
    return at < 0 ? '' : (record.fields[at] ?? '').trim();
  };
  return {
    line: record.line,
    columns,
    get,
    has: (name) => get(name) !== '',
    required(name) {
      const v = get(name);
      if (v === '') problem(name, 'is required');
      return v;
    },
    unique(key, field, message = (first) => `duplicate of line ${first}`) {
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, record.line);
        return true;
      }
      problem(field, message(first));
      return false;
    },
    problem,
  };
}
