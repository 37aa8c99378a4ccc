/** The score export (.xls): SpreadsheetML 2003, written without a library. */
import type { ResultRow } from '../../db/race-center-repository.ts';
import { formatDuration, formatPace, ITEMS, type ItemCatalog } from '../../lib/race-center.ts';

const xmlEscape = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

/** SpreadsheetML 2003: opens in Excel, WPS and LibreOffice without a library. No personal numbers. */
export function spreadsheetXml(title: string, rows: ResultRow[], items?: ItemCatalog): string {
  const head = [
    '项目',
    '号码',
    '姓名',
    '性别',
    '枪声成绩',
    '净成绩',
    '配速',
    '总排名',
    '性别排名',
    '年龄组',
    '年龄组排名',
  ];
  const cell = (v: string | number) =>
    typeof v === 'number'
      ? `<Cell><Data ss:Type="Number">${v}</Data></Cell>`
      : `<Cell><Data ss:Type="String">${xmlEscape(v)}</Data></Cell>`;
  const lines = rows.map((r) => {
    const def = items?.get(r.item) ?? ITEMS[r.item];
    return `<Row>${[
      def?.name ?? r.item,
      r.bib,
      r.name,
      r.gender === 2 ? '女' : r.gender === 1 ? '男' : '',
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
