/**
 * The console's results and photos imports (issue 32 §1; services/console/imports.ts, admin/src/pages/imports):
 * a preview of the rows as they will be written and every bad row by its line, then the import itself (the
 * CLI's import-results / import-photos: nothing written when any row is bad). The problems are the CLI's
 * English texts (`line N: field: problem`); importProblemText words them in the console's language.
 */

export const CONSOLE_IMPORT_KINDS = ['results', 'photos'] as const;
export type ConsoleImportKind = (typeof CONSOLE_IMPORT_KINDS)[number];
export const isConsoleImportKind = (value: unknown): value is ConsoleImportKind =>
  typeof value === 'string' && (CONSOLE_IMPORT_KINDS as readonly string[]).includes(value);

/** The largest file the console takes: a 30,000-row results file with splits is about 6 MB. */
export const IMPORT_FILE_MAX_BYTES = 16 * 1024 * 1024;
/** How many rows a preview shows. */
export const IMPORT_PREVIEW_ROWS = 20;
/** How many problems an answer carries at most (a file that bad is fixed from the first ones). */
export const IMPORT_PROBLEMS_MAX = 2000;

/** The header of each kind's template file. */
export const IMPORT_TEMPLATE_HEADERS: Record<ConsoleImportKind, readonly string[]> = {
  results: [
    'bib',
    'name',
    'gender',
    'certificateNumber',
    'birthday',
    'item',
    'chipTime',
    'gunTime',
    '5K',
    '10K',
    'HALF',
  ],
  photos: ['bib', 'url', 'takenAt'],
};

/** A problem of the file: its line (absent for the whole file) and the CLI's text. */
export interface ImportProblem {
  line?: number;
  text: string;
}

/** One row of a preview as it will be written (certificate numbers never: they are kept hashed). */
export type ImportPreviewRow = Record<string, string>;

export interface ImportPreview {
  kind: ConsoleImportKind;
  /** The rows without a problem, and all the file's data rows. */
  goodRows: number;
  totalRows: number;
  /** The columns of `rows`, in order. */
  columns: string[];
  rows: ImportPreviewRow[];
  /** Rows that replace stored ones (results: the same bib). */
  replaces: number;
  /** Every problem (at most IMPORT_PROBLEMS_MAX; `moreProblems` counts the rest): none means it can import. */
  problems: ImportProblem[];
  moreProblems: number;
}

export interface ImportDone {
  kind: ConsoleImportKind;
  rows: number;
  replaced: number;
}

/** An import as the history lists it (from the audit log). */
export interface ImportHistoryItem {
  at: number;
  kind: ConsoleImportKind;
  actor: string;
  fileName?: string;
  rows: number;
  replaced: number;
}

type Language = 'zh' | 'en';

/** The CLI's problem texts and their Chinese, as patterns over the English (`$1`… the captured parts). */
const PROBLEM_ZH: readonly (readonly [RegExp, string])[] = [
  [/^is required$/, '必填'],
  [/^at most (\d+) characters$/, '最多 $1 个字符'],
  [/^duplicate of line (\d+)$/, '与第 $1 行重复'],
  [/^must be 1\/M\/男 or 2\/F\/女$/, '须为 1/M/男 或 2/F/女'],
  [/^must be a date YYYY-MM-DD$/, '须为日期 YYYY-MM-DD'],
  [/^no item "(.*)" in race (\S+) \(its items: (.*)\)$/, '赛事 $2 没有项目“$1”（可选项目：$3）'],
  [/^is required \(its items: (.*)\)$/, '必填（可选项目：$1）'],
  [/^must be a time H:MM:SS$/, '须为时间 H:MM:SS'],
  [/^cannot be less than the chip time$/, '不能小于净成绩'],
  [/^is beyond the (.*) distance$/, '超出 $1 的距离'],
  [/^must be less than the chip time$/, '须小于净成绩'],
  [/^checkpoint times must increase with distance$/, '分段成绩须随距离递增'],
  [
    /^must be an http\(s\) URL or a path on the file host such as (.*)$/,
    '须为 http(s) 网址或文件服务器上的路径，例如 $1',
  ],
  [/^must be YYYY-MM-DD HH:mm:ss$/, '须为 YYYY-MM-DD HH:mm:ss'],
  [/^expected (\d+) fields, found (\d+)$/, '应有 $1 列，实际 $2 列'],
  [/^missing column\(s\): (.*)$/, '缺少列：$1'],
  [/^unknown column\(s\): (.*)$/, '未知列：$1'],
  [/^the file is empty \(expected a header row\)$/, '文件为空（第一行应为表头）'],
  [/^the file has no data rows$/, '文件没有数据行'],
  [/^text after a closing quote$/, '右引号后还有文字'],
  [/^a quote inside an unquoted field$/, '未加引号的字段中出现了引号'],
  [/^a quoted field is not closed$/, '引号未闭合'],
];

/** A problem's text in the console's language: the line and field kept, the CLI's wording in Chinese when known. */
export function importProblemText(problem: ImportProblem, language: Language): string {
  const match = /^line (\d+): (?:([^:\s]+): )?(.*)$/.exec(problem.text);
  const [field, message] = match ? [match[2], match[3] ?? ''] : [undefined, problem.text];
  let said = message;
  if (language === 'zh') {
    for (const [pattern, zh] of PROBLEM_ZH) {
      if (pattern.test(message)) {
        said = message.replace(pattern, zh);
        break;
      }
    }
  }
  if (field === undefined || field === '') return said;
  return language === 'zh' ? `${field}：${said}` : `${field}: ${said}`;
}
