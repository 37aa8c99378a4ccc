/**
 * The console's results and photos imports (issue 32 §1; contract/console-imports.ts): the preview reads the
 * file exactly as the CLI's import-results / import-photos does (race-center-import/import-table.ts readImport,
 * lib/csv-table.ts) and writes nothing; the import is the CLI's own (import-csv.ts), so the same file is refused
 * or written the same way: nothing when any row is bad, else every row in one transaction (results replace
 * those of the same bib; ranks recomputed). Each import is recorded in the audit log (import.results,
 * import.photos, from the console or the CLI), and the log is the race's history of imports.
 */
import {
  IMPORT_PREVIEW_ROWS,
  IMPORT_PROBLEMS_MAX,
  type ConsoleImportKind,
  type ImportDone,
  type ImportHistoryItem,
  type ImportPreview,
  type ImportPreviewRow,
  type ImportProblem,
} from '#contract/console-imports';
import type { PhotoRow, ResultRow } from '../../db/race-center-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { formatDuration } from '../../lib/race-center.ts';
import { importCsv } from '../race-center-import/import-csv.ts';
import { readImport, type Importer } from '../race-center-import/import-table.ts';
import { photosImporter } from '../race-center-import/photos.ts';
import { resultsImporter } from '../race-center-import/results.ts';
import { appendAudit, auditPage, type AuditActor } from '../staff/audit.ts';

/** The audit log's action of an import of `kind`. */
export const importAction = (kind: ConsoleImportKind) => `import.${kind}` as const;

const GENDERS: Record<number, string> = { 1: 'M', 2: 'F' };

/** A result as the preview shows it: what the public lookup will show (never the certificate's hash). */
function resultShown(row: ResultRow): ImportPreviewRow {
  const splits = JSON.parse(row.splits_json || '[]') as { checkpoint: string; chipMs: number }[];
  return {
    bib: row.bib,
    name: row.name,
    gender: GENDERS[row.gender] ?? String(row.gender),
    item: row.item,
    ageGroup: row.age_group,
    chipTime: formatDuration(row.chip_ms),
    gunTime: formatDuration(row.gun_ms),
    splits: splits.map((s) => `${s.checkpoint} ${formatDuration(s.chipMs)}`).join(', '),
  };
}

const photoShown = (row: PhotoRow): ImportPreviewRow => ({ bib: row.bib, url: row.url, takenAt: row.taken_at });

const COLUMNS: Record<ConsoleImportKind, string[]> = {
  results: ['bib', 'name', 'gender', 'item', 'ageGroup', 'chipTime', 'gunTime', 'splits'],
  photos: ['bib', 'url', 'takenAt'],
};

/** A problem text of the CLI as the console gets it: its line apart when it has one. */
const problemOf = (text: string): ImportProblem => {
  const line = /^line (\d+):/.exec(text)?.[1];
  return line === undefined ? { text } : { line: Number(line), text };
};

/** How many of `bibs` the race's results already hold (an import replaces those). */
async function replacedCount(repos: Repositories, kind: ConsoleImportKind, raceId: string, bibs: readonly string[]) {
  if (kind !== 'results') return 0;
  const held = await repos.raceCenter.resultBibs(raceId);
  return bibs.filter((bib) => held.has(bib)).length;
}

async function previewOf<Row>(
  repos: Repositories,
  kind: ConsoleImportKind,
  importer: Importer<Row>,
  shown: (row: Row) => ImportPreviewRow,
  bibOf: (row: Row) => string,
  raceId: string,
  text: string,
): Promise<ImportPreview> {
  const read = await readImport(repos.races, importer, raceId, text);
  const empty = { kind, goodRows: 0, totalRows: 0, columns: COLUMNS[kind], rows: [], replaces: 0, moreProblems: 0 };
  if (!read.ok) return { ...empty, problems: read.problems.map(problemOf) };
  const { rows, problems } = read.table;
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const badLines = new Set(problems.map((p) => p.line));
  return {
    kind,
    goodRows: rows.length,
    totalRows: rows.length + badLines.size,
    columns: COLUMNS[kind],
    rows: rows.slice(0, IMPORT_PREVIEW_ROWS).map(shown),
    replaces: await replacedCount(repos, kind, raceId, rows.map(bibOf)),
    problems: sorted.slice(0, IMPORT_PROBLEMS_MAX).map((p) => ({ line: p.line, text: p.text })),
    moreProblems: Math.max(0, sorted.length - IMPORT_PROBLEMS_MAX),
  };
}

/** The preview of a file: the first rows as they will be written and every problem. Writes nothing. */
export function previewImport(
  repos: Repositories,
  kind: ConsoleImportKind,
  raceId: string,
  text: string,
): Promise<ImportPreview> {
  return kind === 'results'
    ? previewOf(repos, kind, resultsImporter(repos.raceCenter), resultShown, (r) => r.bib, raceId, text)
    : previewOf(repos, kind, photosImporter(repos.raceCenter), photoShown, (r) => r.bib, raceId, text);
}

export type ImportRunOutcome =
  { ok: true; done: ImportDone; summary: string } | { ok: false; problems: ImportProblem[] };

/**
 * Imports a file (the CLI's import, the same rule: nothing written when any row is bad) and records it in the
 * audit log with how many rows it wrote and replaced.
 */
export async function runImportFile(
  repos: Repositories,
  input: { kind: ConsoleImportKind; raceId: string; text: string; fileName?: string; actor: AuditActor; now: number },
): Promise<ImportRunOutcome> {
  const { kind, raceId, text, fileName, actor, now } = input;
  // What it replaces, counted from the rows it will write (a bad file is refused below and counts nothing).
  const read =
    kind === 'results' ? await readImport(repos.races, resultsImporter(repos.raceCenter), raceId, text) : undefined;
  const replaced = read?.ok
    ? await replacedCount(
        repos,
        kind,
        raceId,
        read.table.rows.map((r) => r.bib),
      )
    : 0;
  const outcome = await importCsv(repos, kind, raceId, text);
  if (!outcome.ok) return { ok: false, problems: outcome.problems.map(problemOf) };
  const done: ImportDone = { kind, rows: outcome.rows, replaced };
  await appendAudit(
    repos,
    actor,
    {
      action: importAction(kind),
      raceId,
      target: fileName ?? kind,
      after: { rows: done.rows, replaced: done.replaced, ...(fileName === undefined ? {} : { fileName }) },
    },
    now,
  );
  return { ok: true, done, summary: outcome.summary };
}

/** The race's imports of results and photos, newest first (from the audit log: console and CLI). */
export async function importHistory(repos: Repositories, raceId: string): Promise<ImportHistoryItem[]> {
  const kinds: ConsoleImportKind[] = ['results', 'photos'];
  const found = await Promise.all(
    kinds.map(async (kind) =>
      (await auditPage(repos, { action: importAction(kind), raceId, limit: 50 })).records.map((record) => {
        const after = (record.after === null ? {} : JSON.parse(record.after)) as Record<string, unknown>;
        return {
          at: record.at,
          kind,
          actor: record.actorName,
          ...(typeof after.fileName === 'string' ? { fileName: after.fileName } : {}),
          rows: Number(after.rows ?? 0),
          replaced: Number(after.replaced ?? 0),
        };
      }),
    ),
  );
  return found.flat().sort((a, b) => b.at - a.at);
}

/** Whether race `raceId` exists (an import's race). */
export const importRaceExists = async (repos: Repositories, raceId: string): Promise<boolean> =>
  (await repos.races.findById(raceId)) !== undefined;
