/** The score export (.xls): SpreadsheetML 2003, written without a library. */
import { SCORE_EXPORT_TEXT, type ExportLanguage } from '#contract/score-export';
import type { ResultRow } from '../../db/race-center-repository.ts';
import { formatDuration, formatPace, ITEMS, type ItemCatalog } from '../../lib/race-center.ts';

const xmlEscape = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

/**
 * SpreadsheetML 2003: opens in Excel, WPS and LibreOffice without a library. No personal numbers. Headers,
 * genders and item names in the visitor's language (an item's English name, else its Chinese one).
 */
export function spreadsheetXml(
  title: string,
  rows: ResultRow[],
  items?: ItemCatalog,
  language: ExportLanguage = 'zh',
): string {
  const { columns: head, genders } = SCORE_EXPORT_TEXT[language];
  const cell = (v: string | number) =>
    typeof v === 'number'
      ? `<Cell><Data ss:Type="Number">${v}</Data></Cell>`
      : `<Cell><Data ss:Type="String">${xmlEscape(v)}</Data></Cell>`;
  const lines = rows.map((r) => {
    const def = items?.get(r.item) ?? ITEMS[r.item];
    return `<Row>${[
      (language === 'en' ? def?.nameEn || def?.name : def?.name) ?? r.item,
      r.bib,
      r.name,
      r.gender === 1 || r.gender === 2 ? genders[r.gender] : '',
      formatDuration(r.gun_ms),
      formatDuration(r.chip_ms),
      formatPace(r.chip_ms, def?.distanceKm ?? 0),
      r.rank_overall,
      r.rank_gender,
      r.age_group,
      r.rank_age_group,
    ]
      .map(cell)
      .join('')}</Row>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<?mso-application progid="Excel.Sheet"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
<Worksheet ss:Name="${xmlEscape(title.slice(0, 31))}"><Table>
<Row>${head.map(cell).join('')}</Row>
${lines.join('\n')}
</Table></Worksheet></Workbook>
`;
}
