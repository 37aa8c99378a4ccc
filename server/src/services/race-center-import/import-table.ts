/**
 * What every race-centre CSV import shares: the race it goes into, the reading of the table (lib/csv-table.ts:
 * the header's required columns, the field count of each row, per-row problems as `line N: field: problem`,
 * at most MAX_SHOWN_PROBLEMS shown) and the rule that any bad row means nothing is written. Each kind
 * (results.ts, registrations.ts, photos.ts) only turns one row into the row it stores.
 */
import type { RacesRepository } from '../../db/races-repository.ts';
import {
  MAX_SHOWN_PROBLEMS,
  problemTexts,
  readTable,
  shownProblems,
  type TableRead,
  type TableRow,
} from '../../lib/csv-table.ts';
import { itemCatalog, type ItemCatalog } from '../../lib/race-center.ts';

export type ImportKind = 'results' | 'registrations' | 'photos';

export interface ImportColumns {
  required: string[];
  optional: string[];
}

export type ImportOutcome = { ok: true; rows: number; summary: string } | { ok: false; problems: string[] };

/** One data row of an import: its fields by column name, and where its problems go. */
export type ImportRow = TableRow;

/** The race the rows go into. */
export interface ImportTarget {
  raceId: string;
  /** Its date (YYYY-MM-DD) for ages; 2000-01-01 when it has no start time. */
  raceDate: string;
  /** Its items (race.json `entry.items`, else M, H and 10K): a row's item must be one of them. */
  items: ItemCatalog;
}

/** The problem of an item that is not the race's: the race's own codes listed. */
export const unknownItemProblem = (target: ImportTarget, text: string) =>
  `${text === '' ? 'is required' : `no item "${text}" in race ${target.raceId}`} (its items: ${[...target.items.keys()].join(', ')})`;

/** One kind of import: its columns, how a row becomes the row it stores, and how the rows are stored. */
export interface Importer<Row> {
  kind: ImportKind;
  columns: ImportColumns;
  /** The row to store, or undefined; a row with any problem is never stored. */
  toRow(row: ImportRow, target: ImportTarget): Row | undefined;
  /**
   * Writes every row of a good file at once (one transaction); or writes nothing and answers the problems
   * (`line N: field: problem`) of rows the stored data refuses.
   */
  write(rows: Row[], raceId: string): Promise<void | string[]>;
}

/** A file read for an import: the race it goes into, and its rows and problems (lib/csv-table.ts). */
export type ImportRead<Row> =
  | { ok: true; race: { raceName: string }; target: ImportTarget; table: TableRead<Row> & { ok: true } }
  | { ok: false; problems: string[] };

/** Reads a file for an import into race `raceId`: every row checked, nothing written (the console's preview too). */
export async function readImport<Row>(
  races: RacesRepository,
  importer: Importer<Row>,
  raceId: string,
  text: string,
): Promise<ImportRead<Row>> {
  const race = await races.findById(raceId);
  if (!race)
    return { ok: false, problems: [`race "${raceId}" does not exist (add it with: site add-race <race.json>)`] };
  const target: ImportTarget = {
    raceId,
    raceDate: (race.startTime ?? '').slice(0, 10) || '2000-01-01',
    items: itemCatalog(race as Parameters<typeof itemCatalog>[0]),
  };
  // Other columns are ignored: a results system's export carries more than we read.
  const table = readTable(text, { required: importer.columns.required }, (row) => importer.toRow(row, target));
  if (!table.ok) return table;
  return { ok: true, race, target, table };
}

/** Runs an import: every row is checked first, and the rows are written only when none has a problem. */
export async function runImport<Row>(
  races: RacesRepository,
  importer: Importer<Row>,
  raceId: string,
  text: string,
): Promise<ImportOutcome> {
  const read = await readImport(races, importer, raceId, text);
  if (!read.ok) return read;
  const { race, table } = read;
  if (table.problems.length > 0) return { ok: false, problems: shownProblems(problemTexts(table.problems)) };
  const good = table.rows;
  const refused = await importer.write(good, raceId);
  if (refused && refused.length > 0) return { ok: false, problems: refused.slice(0, MAX_SHOWN_PROBLEMS) };
  return {
    ok: true,
    rows: good.length,
    summary: `imported ${good.length} ${importer.kind} into ${raceId} (${race.raceName})`,
  };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** A real calendar date YYYY-MM-DD. */
export function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** 1/M/男 or 2/F/女; null otherwise. */
export function parseGender(s: string): number | null {
  const v = s.trim().toUpperCase();
  if (v === '1' || v === 'M' || v === '男') return 1;
  if (v === '2' || v === 'F' || v === '女') return 2;
  return null;
}
