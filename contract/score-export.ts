/**
 * The score export's texts (API_PATHS.exportScores, a .xls the server writes): its column headers and the
 * genders it spells out, in each language of the site (issue 28: the export was Chinese only in English mode).
 * The visitor's language travels in the request (`language`, Chinese when absent).
 */
export const EXPORT_LANGUAGES = ['zh', 'en'] as const;
export type ExportLanguage = (typeof EXPORT_LANGUAGES)[number];

export const SCORE_EXPORT_TEXT = {
  zh: {
    columns: [
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
    ],
    genders: { 1: '男', 2: '女' },
  },
  en: {
    columns: [
      'Item',
      'Bib',
      'Name',
      'Gender',
      'Gun time',
      'Net time',
      'Pace',
      'Overall rank',
      'Gender rank',
      'Age group',
      'Age group rank',
    ],
    genders: { 1: 'Male', 2: 'Female' },
  },
} as const satisfies Record<ExportLanguage, { columns: readonly string[]; genders: Record<1 | 2, string> }>;
