/**
 * The organiser's export of a race's entries (the CLI's entries-export; the console's export of a filtered list,
 * issue 30 §5): one row per entry with its entry facts and EVERY answer of the registration form, one column
 * per form field headed by the form's own label (zh, or en), the answer shown as the runner chose it (an
 * option's label, a size's label, a list joined). Each entry is read against the form version published when
 * it was made. Certificate numbers and phones (the entry's own and the form's certificate-number and phone
 * fields) are masked unless the caller asks for whole numbers (a role that may see them, a flag of the CLI).
 */
import { entryStatusLabel, formatFen, type EntryChannel, type EntryModel } from '#contract/entry';
import { formatRaceTime } from '#contract/race-clock';
import type { FormField, PublishedForm } from '#contract/registration-form';
import type { Repositories } from '../../db/repositories.ts';
import { maskCertNo, maskMobile } from '../../lib/race-center.ts';
import { formChannelOf } from '../entry/views.ts';
import { entrySettings, findItem, raceContext, unknownItemText } from './race-items.ts';
import enCommon from '../../../../src/locales/en/common.json' with { type: 'json' };
import zhCommon from '../../../../src/locales/zh/common.json' with { type: 'json' };

export type ExportLanguage = 'zh' | 'en';
export const EXPORT_LANGUAGES: readonly ExportLanguage[] = ['zh', 'en'];

type Enums = typeof enCommon.enums;
const enums = (language: ExportLanguage): Enums => (language === 'en' ? enCommon : zhCommon).enums as Enums;

/**
 * The status texts of the SPA (contract entryStatusLabel: by the item's model and the entry's channel; enums of
 * src/locales/{en,zh}/common.json): one wording everywhere.
 */
export const entryStatusText = (status: number, language: ExportLanguage, model?: EntryModel, channel?: string) => {
  const [, group, code] = entryStatusLabel(status, model, channel as EntryChannel).split('.') as [
    'enums',
    'registrationStatuses' | 'registrationStatusesPlaced',
    string,
  ];
  const texts: Record<string, string> = enums(language)[group];
  return texts[code] ?? String(status);
};
const certificateTypeText = (type: unknown, language: ExportLanguage) =>
  enums(language).certificateTypes[String(type) as keyof Enums['certificateTypes']] ?? String(type);
const genderText = (gender: unknown, language: ExportLanguage) =>
  enums(language).genders[String(gender) as keyof Enums['genders']] ?? String(gender);

/** The entry columns (bilingual headers: the organiser's staff read either); the form's answers follow. */
export const EXPORT_HEADERS = [
  'Entry no 报名号',
  'Item 项目',
  'Item name 项目名称',
  'Channel 渠道',
  'Status 状态',
  'Status (zh) 状态',
  'Name 姓名',
  'Gender 性别',
  'Birthday 出生日期',
  'Certificate type 证件类型',
  'Certificate number 证件号码',
  'Phone 手机号',
  'Team 团队',
  'Bib 号码布',
  'Order no 订单号',
  'Paid (yuan) 实付金额（元）',
  'Paid at 支付时间',
  'Created at 报名时间',
  'Form version 报名表版本',
] as const;

export interface EntriesExportInput {
  raceId: string;
  /** Only the entries of one item (any case) and / or one status. */
  item?: string;
  status?: number;
  /** The language of the form's labels and answers (default zh). */
  language?: ExportLanguage;
  /** Whole certificate numbers and phones; masked otherwise. */
  wholeNumbers?: boolean;
}

export interface EntriesExportTable {
  ok: true;
  /** The header row, then one row per entry. */
  table: string[][];
  entries: number;
  /** The form fields that have a column (their keys, in column order). */
  formFields: string[];
  /** Entries whose numbers or answers this server's key cannot read. */
  unreadable: number;
  wholeNumbers: boolean;
}

/** The publication an entry made at `createdAt` was filled on: the last one published by then (else the first). */
function formAt(versions: readonly PublishedForm[], createdAt: number): PublishedForm | undefined {
  let chosen = versions[0];
  for (const version of versions) if (version.publishedAt <= createdAt) chosen = version;
  return chosen;
}

/** The form's fields in column order: the newest version's fields, then fields only earlier versions had. */
function columnFields(versions: readonly PublishedForm[]): FormField[] {
  const fields = new Map<string, FormField>();
  for (const version of [...versions].reverse()) {
    for (const field of version.form.fields) if (!fields.has(field.key)) fields.set(field.key, field);
  }
  return [...fields.values()];
}

/** One answer as the organiser reads it, in `language`, by the field of the entry's own form version. */
export function answerText(field: FormField, value: unknown, language: ExportLanguage, wholeNumbers: boolean): string {
  if (value === undefined || value === null || value === '') return '';
  const label = (text: { zh: string; en: string }) => (language === 'en' ? text.en || text.zh : text.zh);
  const joiner = language === 'en' ? ', ' : '、';
  switch (field.type) {
    case 'radio':
    case 'picker':
    case 'checkbox': {
      const values = Array.isArray(value) ? value : [value];
      return values
        .map((v) => {
          const option = field.options.find((o) => o.value === String(v));
          return option ? label(option.label) : String(v);
        })
        .join(joiner);
    }
    case 'clothingSize': {
      const size = field.sizes.find((s) => s.code === String(value));
      return size ? label(size.label) : String(value);
    }
    case 'gender':
      return genderText(value, language);
    case 'certificateType':
      return certificateTypeText(value, language);
    case 'certificateNumber':
      return wholeNumbers ? String(value) : maskCertNo(String(value));
    case 'phone':
      return wholeNumbers ? String(value) : maskMobile(String(value));
    case 'region':
      return Array.isArray(value) ? value.map(String).join('/') : String(value);
    case 'scoreVerification': {
      const claim = value as Record<string, unknown>;
      if (claim.source === 'own') return `${language === 'en' ? 'own result' : '本赛事成绩'} ${String(claim.resultId)}`;
      if (claim.source === 'outside') {
        return [claim.raceName, claim.raceDate, claim.item, claim.chipTime, claim.certificateImage]
          .map(String)
          .join(' ');
      }
      return JSON.stringify(value);
    }
    default:
      if (Array.isArray(value)) return value.map(String).join(joiner);
      if (typeof value === 'object') return JSON.stringify(value);
      if (typeof value === 'boolean') return language === 'en' ? (value ? 'yes' : 'no') : value ? '是' : '否';
      return String(value);
  }
}

/** The export's table of the race's entries (optionally one item / status), or why there is none. */
export async function entriesExportTable(
  repos: Repositories,
  input: EntriesExportInput,
): Promise<EntriesExportTable | { ok: false; problem: string }> {
  const language = input.language ?? 'zh';
  const wholeNumbers = input.wholeNumbers ?? false;
  const race = await raceContext(repos, input.raceId);
  if (!race) return { ok: false, problem: `No race "${input.raceId}". Add it first with: site add-race <race.json>` };
  let itemCode: string | undefined;
  if (input.item !== undefined) {
    itemCode = findItem(race, input.item);
    if (!itemCode) return { ok: false, problem: unknownItemText(race, input.item) };
  }
  const settings = entrySettings(race.race);
  const items = new Map((settings?.items ?? []).map((i) => [i.code, i]));
  const versions = await repos.registrationForms.versions(input.raceId, formChannelOf(settings));
  const fields = columnFields(versions);
  const entries = await repos.entryAdmin.listEntries(input.raceId, { itemCode, status: input.status });
  const time = (ms: number | null) => (ms === null ? '' : formatRaceTime(ms, undefined, race.zone));
  const number = (text: string, mask: (value: string) => string) => (wholeNumbers || text === '' ? text : mask(text));
  const fieldLabel = (field: FormField) => (language === 'en' ? field.label.en || field.label.zh : field.label.zh);

  let unreadable = 0;
  const table: string[][] = [[...EXPORT_HEADERS, ...fields.map(fieldLabel)]];
  for (const e of entries) {
    const cert = repos.entryAdmin.decrypt(e.certEnc);
    const phone = repos.entryAdmin.decrypt(e.phoneEnc);
    const values = repos.entryAdmin.decryptValues(e.valuesEnc);
    if (!cert || values === undefined) unreadable += 1;
    const item = items.get(e.itemCode);
    const form = formAt(versions, e.createdAt);
    const own = new Map(form?.form.fields.map((f) => [f.key, f]) ?? []);
    table.push([
      e.entryNo,
      e.itemCode,
      item ? `${item.name.zh} / ${item.name.en}` : '',
      e.channel,
      entryStatusText(e.status, 'en', item?.model, e.channel),
      entryStatusText(e.status, 'zh', item?.model, e.channel),
      e.name,
      genderText(e.gender, 'en'),
      e.birthday,
      certificateTypeText(e.certType, 'en'),
      number(cert, maskCertNo),
      number(phone, maskMobile),
      e.teamCode ? `${e.teamCode} ${e.teamName ?? ''}`.trim() : '',
      e.bib ?? '',
      e.orderNo ?? '',
      e.paidAt === null ? '' : formatFen(e.paidFen),
      time(e.paidAt),
      time(e.createdAt),
      form ? String(form.version) : '',
      ...fields.map((field) => answerText(own.get(field.key) ?? field, values?.[field.key], language, wholeNumbers)),
    ]);
  }
  return { ok: true, table, entries: entries.length, formFields: fields.map((f) => f.key), unreadable, wholeNumbers };
}
