/**
 * The console's export of the filtered entry list (issue 30 §5): the list's search and filters, as .xlsx or
 * .csv, with every answer of the registration form (services/organiser/entries-export.ts). What it holds
 * follows the staff member's role: whole certificate numbers and phones only with `entries.personal`, money
 * columns only with `money`. Each export is recorded in the audit log (who, the filters, how many rows,
 * whether whole numbers were in it) before its first byte goes out.
 */
import { roleCan, type StaffRole } from '#contract/staff';
import type { Repositories } from '../../db/repositories.ts';
import { csvStream } from '../../lib/csv.ts';
import { xlsxStream } from '../../lib/xlsx.ts';
import { openEntriesExport, EXPORT_LANGUAGES, type ExportLanguage } from '../organiser/entries-export.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { parseEntryFilters, type EntryListQuery } from './entry-search.ts';

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

export interface EntryExportQuery extends Omit<EntryListQuery, 'page'> {
  format?: string;
  lang?: string;
}

export type EntryExportOutcome =
  | {
      ok: true;
      fileName: string;
      contentType: string;
      rows: number;
      wholeNumbers: boolean;
      /** The file's bytes, written as the entries are read. */
      body: AsyncGenerator<Buffer | string>;
    }
  | { ok: false; refusal: 'raceNotFound' }
  | { ok: false; field: 'q' | 'status' | 'channel' | 'item' | 'format' | 'lang' };

/** The file's name: the race, "entries", the time (UTC) it was made. */
export function exportFileName(raceId: string, format: ExportFormat, now: number): string {
  const stamp = new Date(now).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `${raceId}-entries-${stamp}.${format}`;
}

/** What the export of the filtered list is, checked and recorded; its bytes come as they are read. */
export async function exportEntries(
  repos: Repositories,
  raceId: string,
  query: EntryExportQuery,
  who: { role: StaffRole; actor: AuditActor },
  now: number,
): Promise<EntryExportOutcome> {
  const format = query.format ?? 'xlsx';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) return { ok: false, field: 'format' };
  const language = query.lang === undefined || query.lang === '' ? 'zh' : query.lang;
  if (!(EXPORT_LANGUAGES as readonly string[]).includes(language)) return { ok: false, field: 'lang' };
  const parsed = parseEntryFilters(query);
  if (!parsed.ok) return parsed;
  const wholeNumbers = roleCan(who.role, 'entries.personal');
  const money = roleCan(who.role, 'money');
  const opened = await openEntriesExport(repos, {
    raceId,
    ...parsed.filters,
    language: language as ExportLanguage,
    wholeNumbers,
    money,
  });
  if (!opened.ok)
    return opened.field === 'race' ? { ok: false, refusal: 'raceNotFound' } : { ok: false, field: 'item' };
  const { q, status, channel } = parsed.filters;
  await appendAudit(
    repos,
    who.actor,
    {
      action: 'entries.export',
      raceId,
      target: raceId,
      after: {
        format,
        language,
        // A certificate number or phone searched for is masked by the log itself.
        filters: { q: q ?? null, item: opened.itemCode ?? null, status: status ?? null, channel: channel ?? null },
        rows: opened.total,
        wholeNumbers,
        money,
      },
    },
    now,
  );
  const sheetName = `${raceId} entries`;
  return {
    ok: true,
    fileName: exportFileName(raceId, format as ExportFormat, now),
    contentType: EXPORT_CONTENT_TYPES[format as ExportFormat],
    rows: opened.total,
    wholeNumbers,
    body:
      format === 'csv'
        ? csvStream(opened.header, opened.pages())
        : xlsxStream(sheetName, opened.header, opened.pages(), new Date(now)),
  };
}
