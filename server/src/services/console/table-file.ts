/**
 * A small table made into a file to download or write (the mailing list, the letters roster): .csv (UTF-8 with a
 * BOM, formulas neutralised) or .xlsx, named `<race>-<what>-<UTC time>.<format>` like the entries export.
 */
import { formatCsv } from '../../lib/csv.ts';
import { xlsx } from '../../lib/xlsx.ts';
import { EXPORT_CONTENT_TYPES, EXPORT_FORMATS, type ExportFormat } from './entry-export.ts';

export type { ExportFormat };
export const isExportFormat = (value: unknown): value is ExportFormat =>
  typeof value === 'string' && (EXPORT_FORMATS as readonly string[]).includes(value);

export function tableFile(
  table: readonly (readonly string[])[],
  what: string,
  raceId: string,
  format: ExportFormat,
  now: number,
): { fileName: string; contentType: string; bytes: string | Buffer } {
  const stamp = new Date(now).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return {
    fileName: `${raceId}-${what}-${stamp}.${format}`,
    contentType: EXPORT_CONTENT_TYPES[format],
    bytes: format === 'csv' ? formatCsv(table) : xlsx(`${raceId} ${what}`, table, new Date(now)),
  };
}
