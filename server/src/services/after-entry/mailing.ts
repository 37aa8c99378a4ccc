/**
 * Race-pack mailing after sign-up (issue 15 §5): the parcel a runner who chose mailing on /post follows, the
 * organiser's mailing list and the import of tracking numbers (mailing-export / mailing-import, run by
 * cli/mailing-commands.ts, and the console's mailing page, routes/admin/mailing.ts: the same functions, the same
 * audit records).
 *
 * A row of the list is keyed by the runner's account id (`key`): mailing_choices holds one choice per account
 * and race, so the id names the parcel, and the import file sends it back with the carrier and tracking number.
 */
import type { ParcelView } from '#contract/after-entry';
import {
  CONSOLE_LIST_PAGE_SIZE,
  PARCEL_STATES,
  TRACKING_COLUMNS,
  type MailingCounts,
  type MailingPageAnswer,
  type MailingRowView,
  type TrackingChange,
  type TrackingProblem,
  type TrackingProblemCode,
  type TrackingRowView,
} from '#contract/console-mailing';
import { ENTRY_STATUSES, type EntrySettings } from '#contract/entry';
import { formatRaceTime } from '#contract/race-clock';
import { regionNames } from '#contract/region-data';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { Repositories } from '../../db/repositories.ts';
import type { MailingRecord } from '../../db/runner-choices-repository.ts';
import { readTable, tableProblem } from '../../lib/csv-table.ts';
import { maskMobile } from '../../lib/race-center.ts';
import { smsContent } from '../../lib/sms/kinds.ts';
import { tableFile, type ExportFormat } from '../console/table-file.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

/** What a runner who chose mailing sees of the parcel; undefined for a pick-up choice. */
export function parcelView(record: MailingRecord): ParcelView | undefined {
  if (record.method !== 'mail') return undefined;
  const shipment = record.shipment ?? null;
  return shipment
    ? { state: 'shipped', carrier: shipment.carrier, trackingNo: shipment.trackingNo, shippedAt: shipment.shippedAt }
    : { state: 'waiting', carrier: null, trackingNo: null, shippedAt: null };
}

export const MAILING_LIST_COLUMNS = [
  'key',
  'name',
  'phone',
  'province',
  'city',
  'district',
  'address',
  'entries',
  'carrier',
  'trackingNo',
  'shippedAt',
  'updatedAt',
] as const;

export { TRACKING_COLUMNS };
export const CARRIER_MAX = 40;
/** Courier numbers: letters, digits and dashes (SF1234567890123, JDX000123456789, 7700-1234-5678). */
export const TRACKING_NO_PATTERN = /^[A-Za-z0-9-]{4,40}$/;

const entrySettings = (race: RaceInfo): EntrySettings | undefined => (race as { entry?: EntrySettings }).entry;

/** A runner who chose mail, with the WHOLE phone (for the courier); views mask it unless told. */
type MailingRow = MailingRowView & { userId: number };

/**
 * The race's mailing list: every runner who chose mail, oldest change first, with WHOLE phone numbers and the
 * entries that hold a place in the race (number, item, bib); and the counts.
 */
export async function mailingRows(
  repos: Repositories,
  race: RaceInfo,
): Promise<{ rows: MailingRow[]; counts: MailingCounts }> {
  const items = new Map((entrySettings(race)?.items ?? []).map((item) => [item.code, item]));
  const entries = new Map<number, string[]>();
  for (const entry of await repos.entries.listForRace(race.raceId)) {
    if (entry.status !== ENTRY_STATUSES.won) continue;
    const item = items.get(entry.itemCode);
    const text = [entry.entryNo, entry.itemCode, item ? item.name.zh : '', entry.bib ? `bib ${entry.bib}` : '']
      .filter((part) => part !== '')
      .join(' ');
    entries.set(entry.userId, [...(entries.get(entry.userId) ?? []), text]);
  }
  const choices = await repos.runnerChoices.mailingList(race.raceId);
  const mail = choices.filter((choice) => choice.method === 'mail');
  const rows = mail.map((choice): MailingRow => ({
    userId: choice.userId,
    key: String(choice.userId),
    name: choice.name,
    phone: choice.phone,
    region: regionNames(choice.region) ?? ['', '', ''],
    address: choice.address,
    entries: entries.get(choice.userId) ?? [],
    state: choice.shipment ? 'shipped' : 'waiting',
    carrier: choice.shipment?.carrier ?? null,
    trackingNo: choice.shipment?.trackingNo ?? null,
    shippedAt: choice.shipment?.shippedAt ?? null,
    updatedAt: choice.updatedAt,
  }));
  const shipped = rows.filter((row) => row.state === 'shipped').length;
  return {
    rows,
    counts: { toSend: rows.length, shipped, waiting: rows.length - shipped, pickups: choices.length - mail.length },
  };
}

/** The list as a table (MAILING_LIST_COLUMNS), times in the race's zone. */
function mailingTable(race: RaceInfo, rows: readonly MailingRowView[]): string[][] {
  const zone = raceTimeZone(race);
  return [
    [...MAILING_LIST_COLUMNS],
    ...rows.map((row) => [
      row.key,
      row.name,
      row.phone,
      row.region[0] ?? '',
      row.region[1] ?? '',
      row.region[2] ?? '',
      row.address,
      row.entries.join('; '),
      row.carrier ?? '',
      row.trackingNo ?? '',
      row.shippedAt === null ? '' : formatRaceTime(row.shippedAt, undefined, zone),
      formatRaceTime(row.updatedAt, undefined, zone),
    ]),
  ];
}

const viewOf = ({ userId: _userId, ...row }: MailingRow, wholePhones: boolean): MailingRowView =>
  wholePhones ? row : { ...row, phone: maskMobile(row.phone) };

export interface MailingQuery {
  state?: string;
  page?: number;
}

/** The console's page of the list, filtered by the parcel's state; phones masked unless `wholePhones`. */
export async function mailingPage(
  repos: Repositories,
  race: RaceInfo,
  query: MailingQuery,
  wholePhones: boolean,
): Promise<{ ok: true; answer: MailingPageAnswer } | { ok: false; field: 'state' | 'page' }> {
  const state = query.state === undefined || query.state === '' ? undefined : query.state;
  if (state !== undefined && !(PARCEL_STATES as readonly string[]).includes(state))
    return { ok: false, field: 'state' };
  const page = query.page ?? 1;
  if (!Number.isInteger(page) || page < 1) return { ok: false, field: 'page' };
  const { rows, counts } = await mailingRows(repos, race);
  const matching = state === undefined ? rows : rows.filter((row) => row.state === state);
  const pageSize = CONSOLE_LIST_PAGE_SIZE;
  return {
    ok: true,
    answer: {
      counts,
      rows: matching.slice((page - 1) * pageSize, page * pageSize).map((row) => viewOf(row, wholePhones)),
      total: matching.length,
      page,
      pageSize,
      wholePhones,
    },
  };
}

/**
 * The mailing list as a file (mailing-export, the console's download), recorded in the audit log with its
 * format, row count and whether the phones in it are whole (the courier's copy; the CLI's always is).
 */
export async function exportMailing(
  repos: Repositories,
  race: RaceInfo,
  options: { format: ExportFormat; wholePhones: boolean },
  actor: AuditActor,
  now: number,
) {
  const { rows, counts } = await mailingRows(repos, race);
  const views = rows.map((row) => viewOf(row, options.wholePhones));
  await appendAudit(
    repos,
    actor,
    {
      action: 'mailing.export',
      raceId: race.raceId,
      target: race.raceId,
      after: { format: options.format, rows: views.length, wholePhones: options.wholePhones },
    },
    now,
  );
  return {
    ...tableFile(mailingTable(race, views), 'mailing', race.raceId, options.format, now),
    rows: views.length,
    counts,
  };
}

/** A good row of a tracking file: the parcel it ships and what it changes. */
type TrackingRow = TrackingRowView & { userId: number };

export type TrackingCheck =
  | { ok: true; rows: TrackingRow[]; problems: TrackingProblem[] }
  /** The whole file could not be read: nothing imported. */
  | { ok: false; fileProblem: string };

/**
 * Reads and checks a tracking file (columns key,carrier,trackingNo; others, as in an exported list, are
 * ignored) against the race's mailing choices, writing nothing: each good row with what it will change, and
 * every bad row by its line (an unknown key, a pick-up runner, a key twice, an empty or bad carrier / number).
 */
export async function checkTracking(repos: Repositories, race: RaceInfo, text: string): Promise<TrackingCheck> {
  const choices = new Map(
    (await repos.runnerChoices.mailingList(race.raceId)).map((choice) => [String(choice.userId), choice]),
  );
  const coded: TrackingProblem[] = [];
  const seen = new Map<string, number>();
  const read = readTable(text, { required: TRACKING_COLUMNS }, (row): TrackingRow | undefined => {
    const refuse = (
      field: string,
      code: TrackingProblemCode,
      message: string,
      params: TrackingProblem['params'] = {},
    ) => {
      row.problem(field, message);
      coded.push({ line: row.line, code, params, text: tableProblem(row.line, field, message).text });
      return undefined;
    };
    const key = row.get('key');
    const carrier = row.get('carrier');
    const trackingNo = row.get('trackingNo').toUpperCase();
    const choice = choices.get(key);
    const first = seen.get(key);
    if (key === '') return refuse('key', 'keyEmpty', 'empty');
    if (!choice) return refuse('key', 'keyUnknown', `${key} has no mailing choice in ${race.raceId}`, { key });
    if (choice.method !== 'mail')
      return refuse('key', 'keyPickup', `${key} chose to collect the pack (pick-up), not mailing`, { key });
    if (first !== undefined) return refuse('key', 'keyDuplicate', `${key} is already on line ${first}`, { key, first });
    if (carrier === '') return refuse('carrier', 'carrierEmpty', 'empty');
    if (carrier.length > CARRIER_MAX)
      return refuse('carrier', 'carrierTooLong', `longer than ${CARRIER_MAX} characters`, { max: CARRIER_MAX });
    if (trackingNo === '') return refuse('trackingNo', 'trackingEmpty', 'empty');
    if (!TRACKING_NO_PATTERN.test(trackingNo))
      return refuse('trackingNo', 'trackingInvalid', '4-40 letters, digits or "-"');
    // A key is taken by its first good row: a bad row may be corrected further down the file.
    seen.set(key, row.line);
    const shipment = choice.shipment ?? null;
    const change: TrackingChange = !shipment
      ? 'new'
      : shipment.carrier === carrier && shipment.trackingNo === trackingNo
        ? 'same'
        : 'changed';
    return { line: row.line, key, userId: choice.userId, name: choice.name, carrier, trackingNo, change };
  });
  if (!read.ok) return { ok: false, fileProblem: read.problems.join('; ') };
  const problems = [...read.problems]
    .sort((a, b) => a.line - b.line)
    .map(
      (problem): TrackingProblem =>
        coded.find((c) => c.line === problem.line && c.text === problem.text) ?? {
          // readTable's own: a row with another number of fields than the header.
          line: problem.line,
          code: 'fieldCount',
          params: {},
          text: problem.text,
        },
    );
  return { ok: true, rows: read.rows, problems };
}

export interface TrackingImportOutcome {
  /** The whole file could not be read: nothing imported. */
  fileProblem?: string;
  /** Parcels newly marked shipped, or whose carrier / tracking number changed. */
  shipped: number;
  /** Rows that repeat what is already recorded. */
  unchanged: number;
  /** Each refused row by its line (the good rows are imported regardless). */
  problems: TrackingProblem[];
}

/**
 * Imports tracking numbers (mailing-import, the console's import after its preview): the file is checked as
 * checkTracking does, then every good row, in one transaction with its audit record, marks the runner's parcel
 * shipped and queues a message (zh + en) with the carrier and number; each bad row is reported by its line and
 * skipped. The same file again changes nothing and sends nothing.
 */
export async function importTracking(
  repos: Repositories,
  race: RaceInfo,
  text: string,
  actor: AuditActor,
  now: number,
): Promise<TrackingImportOutcome> {
  const checked = await checkTracking(repos, race, text);
  if (!checked.ok) return { shipped: 0, unchanged: 0, problems: [], fileProblem: checked.fileProblem };
  const { rows, problems } = checked;
  return repos.transaction(async (tx) => {
    let shipped = 0;
    for (const row of rows) {
      if (!(await tx.runnerChoices.ship(race.raceId, row.userId, row.carrier, row.trackingNo, now))) continue;
      await sendShipped(tx, race, row.userId, row.carrier, row.trackingNo, now);
      shipped += 1;
    }
    const unchanged = rows.length - shipped;
    await appendAudit(
      tx,
      actor,
      {
        action: 'mailing.import',
        raceId: race.raceId,
        target: race.raceId,
        after: { shipped, unchanged, refused: problems.length },
      },
      now,
    );
    return { shipped, unchanged, problems };
  });
}

/** The runner's message: the parcel is on its way, with the carrier and tracking number (zh + en). */
export function shippedText(race: RaceInfo, carrier: string, trackingNo: string): { subject: string; body: string } {
  const raceEn = race.raceNameEn || race.raceName;
  return {
    subject: `参赛物资已寄出 Race pack shipped: ${race.raceName}`,
    body:
      `${race.raceName}：您的参赛物资已寄出，快递公司 ${carrier}，运单号 ${trackingNo}。\n` +
      `${raceEn}: your race pack has been shipped by ${carrier}, tracking number ${trackingNo}.`,
  };
}

async function sendShipped(
  tx: Repositories,
  race: RaceInfo,
  userId: number,
  carrier: string,
  trackingNo: string,
  now: number,
): Promise<void> {
  const contact = await tx.ballots.contactOf(userId);
  if (!contact) return;
  await tx.outbox.add({
    ...contact,
    ...shippedText(race, carrier, trackingNo),
    createdAt: now,
    sms: smsContent('packShipped', {
      race: race.raceName,
      raceEn: race.raceNameEn || race.raceName,
      carrier,
      trackingNo,
    }),
  });
}
