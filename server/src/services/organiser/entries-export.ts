/**
 * The organiser's export of a race's entries (the CLI's entries-export; the console's export of a filtered list,
 * issue 30 §5): one row per entry with its entry facts and EVERY answer of the registration form, one column
 * per form field headed by the form's own label (zh, or en), the answer shown as the runner chose it (an
 * option's label, a size's label, a list joined). Each entry is read against the form version published when
 * it was made. Certificate numbers and phones (the entry's own and the form's certificate-number and phone
 * fields) are masked unless the caller asks for whole numbers (a role that may see them, a flag of the CLI);
 * the money columns are left out for a role without money. The same search and filters as the console's list;
 * rows read a page at a time, so a list of a hundred thousand entries never sits in memory whole.
 */
import { entryStatusLabel, formatFen, type EntryChannel, type EntryModel } from '#contract/entry';
import { ORDER_STATUS_KEYS } from '#contract/enums';
import { formatRaceTime } from '#contract/race-clock';
import type { FormField, PublishedForm } from '#contract/registration-form';
import type { EntryExportRow } from '../../db/entry-search-repository.ts';
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
const COLUMNS = [
  ['entryNo', 'Entry no 报名号'],
  ['item', 'Item 项目'],
  ['itemName', 'Item name 项目名称'],
  ['channel', 'Channel 渠道'],
  ['status', 'Status 状态'],
  ['statusZh', 'Status (zh) 状态'],
  ['name', 'Name 姓名'],
  ['gender', 'Gender 性别'],
  ['birthday', 'Birthday 出生日期'],
  ['certType', 'Certificate type 证件类型'],
  ['certNo', 'Certificate number 证件号码'],
  ['phone', 'Phone 手机号'],
  ['team', 'Team 团队'],
  ['bib', 'Bib 号码布'],
  ['orderNo', 'Order no 订单号'],
  ['orderStatus', 'Order status 订单状态'],
  ['feeYuan', 'Fee (yuan) 报名费（元）'],
  ['paidYuan', 'Paid (yuan) 实付金额（元）'],
  ['paidAt', 'Paid at 支付时间'],
  ['refundedYuan', 'Refunded (yuan) 已退款（元）'],
  ['createdAt', 'Created at 报名时间'],
  ['formVersion', 'Form version 报名表版本'],
] as const;
type ColumnKey = (typeof COLUMNS)[number][0];
/** Columns of money: only for those who may see money (the console's `money` permission; the CLI always). */
const MONEY_COLUMNS: readonly ColumnKey[] = ['feeYuan', 'paidYuan', 'refundedYuan'];

/** The entry columns' headers of an export with or without money. */
export const exportHeaders = (money: boolean): string[] =>
  COLUMNS.filter(([key]) => money || !MONEY_COLUMNS.includes(key)).map(([, header]) => header);

/** Entries read from the database at a time: memory holds one page of the export, whatever the list's length. */
export const EXPORT_PAGE_SIZE = 500;

export interface EntriesExportInput {
  raceId: string;
  /** The console list's search text (services/console/entry-search.ts). */
  q?: string;
  /** Only the entries of one item (any case), one status, one channel. */
  item?: string;
  status?: number;
  channel?: string;
  /** The language of the form's labels and answers and of the entry facts' texts (default zh). */
  language?: ExportLanguage;
  /** Whole certificate numbers and phones; masked otherwise. */
  wholeNumbers?: boolean;
  /** The money columns (fee, paid, refunded); default true. */
  money?: boolean;
}

export interface EntriesExport {
  ok: true;
  /** The header row. */
  header: string[];
  /** The entries the export holds (those found when it was opened). */
  total: number;
  /** The rows, a page at a time, in the order the entries were made. */
  pages: () => AsyncGenerator<string[][]>;
  /** The form fields that have a column (their keys, in column order). */
  formFields: string[];
  /** Entries whose numbers or answers this server's key cannot read (among the rows written so far). */
  unreadable: () => number;
  wholeNumbers: boolean;
  money: boolean;
  language: ExportLanguage;
  /** The item code the item filter named (as the race spells it). */
  itemCode?: string;
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

const orderStatusText = (status: number | null, language: ExportLanguage) => {
  const key = status === null ? undefined : ORDER_STATUS_KEYS[status];
  return key ? enums(language).orderStatuses[key] : '';
};

/**
 * The export of the race's entries the filter finds (the console list's search and filters): its header, its
 * size, and its rows read a page at a time (EXPORT_PAGE_SIZE) when written; or why there is none. The entries
 * are those found when it is opened (their ids): an entry made while it is written is not in it.
 */
export async function openEntriesExport(
  repos: Repositories,
  input: EntriesExportInput,
): Promise<EntriesExport | { ok: false; field: 'race' | 'item'; problem: string }> {
  const language = input.language ?? 'zh';
  const wholeNumbers = input.wholeNumbers ?? false;
  const money = input.money ?? true;
  const race = await raceContext(repos, input.raceId);
  if (!race)
    return {
      ok: false,
      field: 'race',
      problem: `No race "${input.raceId}". Add it first with: site add-race <race.json>`,
    };
  let itemCode: string | undefined;
  if (input.item !== undefined && input.item !== '') {
    itemCode = findItem(race, input.item);
    if (!itemCode) return { ok: false, field: 'item', problem: unknownItemText(race, input.item) };
  }
  const settings = entrySettings(race.race);
  const items = new Map((settings?.items ?? []).map((i) => [i.code, i]));
  const versions = await repos.registrationForms.versions(input.raceId, formChannelOf(settings));
  const fields = columnFields(versions);
  const filter = { raceId: input.raceId, q: input.q, itemCode, status: input.status, channel: input.channel };
  const ids = await repos.entrySearch.exportIds(filter);
  const time = (ms: number | null) => (ms === null ? '' : formatRaceTime(ms, undefined, race.zone));
  const number = (text: string, mask: (value: string) => string) => (wholeNumbers || text === '' ? text : mask(text));
  const fieldLabel = (field: FormField) => (language === 'en' ? field.label.en || field.label.zh : field.label.zh);
  const yuan = (fen: number) => formatFen(fen);

  let unreadable = 0;
  const row = (e: EntryExportRow): string[] => {
    const cert = repos.entryAdmin.decrypt(e.certEnc);
    const phone = repos.entryAdmin.decrypt(e.phoneEnc);
    const values = repos.entryAdmin.decryptValues(e.valuesEnc);
    if (!cert || values === undefined) unreadable += 1;
    const item = items.get(e.itemCode);
    const form = formAt(versions, e.createdAt);
    const own = new Map(form?.form.fields.map((f) => [f.key, f]) ?? []);
    const facts: Record<ColumnKey, string> = {
      entryNo: e.entryNo,
      item: e.itemCode,
      itemName: item ? `${item.name.zh} / ${item.name.en}` : '',
      channel: e.channel,
      status: entryStatusText(e.status, 'en', item?.model, e.channel),
      statusZh: entryStatusText(e.status, 'zh', item?.model, e.channel),
      name: e.name,
      gender: genderText(e.gender, language),
      birthday: e.birthday,
      certType: certificateTypeText(e.certType, language),
      certNo: number(cert, maskCertNo),
      phone: number(phone, maskMobile),
      team: e.teamCode ? `${e.teamCode} ${e.teamName ?? ''}`.trim() : '',
      bib: e.bib ?? '',
      orderNo: e.orderNo ?? '',
      orderStatus: orderStatusText(e.orderStatus, language),
      feeYuan: yuan(e.feeFen),
      paidYuan: e.paidAt === null ? '' : yuan(e.paidFen),
      paidAt: time(e.paidAt),
      refundedYuan: e.refundedFen > 0 ? yuan(e.refundedFen) : '',
      createdAt: time(e.createdAt),
      formVersion: form ? String(form.version) : '',
    };
    return [
      ...COLUMNS.filter(([key]) => money || !MONEY_COLUMNS.includes(key)).map(([key]) => facts[key]),
      ...fields.map((field) => answerText(own.get(field.key) ?? field, values?.[field.key], language, wholeNumbers)),
    ];
  };
  async function* pages(): AsyncGenerator<string[][]> {
    for (let at = 0; at < ids.length; at += EXPORT_PAGE_SIZE) {
      yield (await repos.entrySearch.exportRows(ids.slice(at, at + EXPORT_PAGE_SIZE))).map(row);
    }
  }
  return {
    ok: true,
    header: [...exportHeaders(money), ...fields.map(fieldLabel)],
    total: ids.length,
    pages,
    formFields: fields.map((f) => f.key),
    unreadable: () => unreadable,
    wholeNumbers,
    money,
    language,
    itemCode,
  };
}
