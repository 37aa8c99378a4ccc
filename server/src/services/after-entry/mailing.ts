/**
 * Race-pack mailing after sign-up (issue 15 §5): the parcel a runner who chose mailing on /post follows, the
 * organiser's mailing list and the import of tracking numbers (mailing-export / mailing-import, run by
 * cli/mailing-commands.ts).
 *
 * A row of the list is keyed by the runner's account id (`key`): mailing_choices holds one choice per account
 * and race, so the id names the parcel, and the import file sends it back with the carrier and tracking number.
 */
import type { ParcelView } from '#contract/after-entry';
import { ENTRY_STATUSES, type EntrySettings } from '#contract/entry';
import { formatRaceTime } from '#contract/race-clock';
import { regionNames } from '#contract/region-data';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { Repositories } from '../../db/repositories.ts';
import type { MailingRecord } from '../../db/runner-choices-repository.ts';
import { CsvSyntaxError, parseCsv } from '../../lib/csv.ts';
import { smsContent } from '../../lib/sms/kinds.ts';
import { systemText } from '../messages/templates.ts';

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

/** The columns of the tracking file: the key of the list, then the carrier and the tracking number. */
export const TRACKING_COLUMNS = ['key', 'carrier', 'trackingNo'] as const;
export const CARRIER_MAX = 40;
/** Courier numbers: letters, digits and dashes (SF1234567890123, JDX000123456789, 7700-1234-5678). */
export const TRACKING_NO_PATTERN = /^[A-Za-z0-9-]{4,40}$/;

const entrySettings = (race: RaceInfo): EntrySettings | undefined => (race as { entry?: EntrySettings }).entry;

/**
 * The race's mailing list: every runner who chose mail, oldest change first, with WHOLE phone numbers (for the
 * courier) and the entries that hold a place in the race (number, item, bib).
 */
export async function mailingList(
  repos: Repositories,
  race: RaceInfo,
): Promise<{ rows: string[][]; pickups: number; shipped: number }> {
  const zone = raceTimeZone(race);
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
  const rows = mail.map((choice) => {
    const names = regionNames(choice.region) ?? ['', '', ''];
    return [
      String(choice.userId),
      choice.name,
      choice.phone,
      names[0] ?? '',
      names[1] ?? '',
      names[2] ?? '',
      choice.address,
      (entries.get(choice.userId) ?? []).join('; '),
      choice.shipment?.carrier ?? '',
      choice.shipment?.trackingNo ?? '',
      choice.shipment ? formatRaceTime(choice.shipment.shippedAt, undefined, zone) : '',
      formatRaceTime(choice.updatedAt, undefined, zone),
    ];
  });
  return { rows, pickups: choices.length - mail.length, shipped: mail.filter((c) => c.shipment).length };
}

export interface TrackingImportOutcome {
  /** The whole file could not be read: nothing imported. */
  fileProblem?: string;
  /** Parcels newly marked shipped, or whose carrier / tracking number changed. */
  shipped: number;
  /** Rows that repeat what is already recorded. */
  unchanged: number;
  /** `line N: …` of each refused row (the good rows are imported regardless). */
  problems: string[];
}

/**
 * Imports tracking numbers (columns key,carrier,trackingNo): each good row marks the runner's parcel shipped
 * and queues a message (zh + en) with the carrier and number; each bad row is reported by its line number and
 * skipped. The same file again changes nothing and sends nothing.
 */
export async function importTracking(
  repos: Repositories,
  race: RaceInfo,
  text: string,
  now: number,
): Promise<TrackingImportOutcome> {
  const outcome: TrackingImportOutcome = { shipped: 0, unchanged: 0, problems: [] };
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ...outcome, fileProblem: error.message };
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) return { ...outcome, fileProblem: 'the file is empty (expected a header row key,carrier,trackingNo)' };
  const columns = header.fields.map((field) => field.trim());
  const at = Object.fromEntries(TRACKING_COLUMNS.map((name) => [name, columns.indexOf(name)])) as Record<
    (typeof TRACKING_COLUMNS)[number],
    number
  >;
  const missing = TRACKING_COLUMNS.filter((name) => at[name] < 0);
  if (missing.length > 0)
    return { ...outcome, fileProblem: `line ${header.line}: missing column(s): ${missing.join(', ')}` };
  if (rows.length === 0) return { ...outcome, fileProblem: 'the file has no data rows' };

  const choices = new Map(
    (await repos.runnerChoices.mailingList(race.raceId)).map((choice) => [String(choice.userId), choice]),
  );
  const seen = new Map<string, number>();
  for (const record of rows) {
    const refuse = (message: string) => outcome.problems.push(`line ${record.line}: ${message}`);
    const field = (index: number) => (record.fields[index] ?? '').trim();
    const key = field(at.key);
    const carrier = field(at.carrier);
    const trackingNo = field(at.trackingNo).toUpperCase();
    const choice = choices.get(key);
    if (key === '') refuse('key: empty');
    else if (!choice) refuse(`key: ${key} has no mailing choice in ${race.raceId}`);
    else if (choice.method !== 'mail') refuse(`key: ${key} chose to collect the pack (pick-up), not mailing`);
    else if (seen.has(key)) refuse(`key: ${key} is already on line ${seen.get(key)}`);
    else if (carrier === '') refuse('carrier: empty');
    else if (carrier.length > CARRIER_MAX) refuse(`carrier: longer than ${CARRIER_MAX} characters`);
    else if (trackingNo === '') refuse('trackingNo: empty');
    else if (!TRACKING_NO_PATTERN.test(trackingNo)) refuse('trackingNo: 4-40 letters, digits or "-"');
    else {
      seen.set(key, record.line);
      const changed = await repos.transaction(async (tx) => {
        if (!(await tx.runnerChoices.ship(race.raceId, choice.userId, carrier, trackingNo, now))) return false;
        await sendShipped(tx, race, choice.userId, carrier, trackingNo, now);
        return true;
      });
      if (changed) outcome.shipped += 1;
      else outcome.unchanged += 1;
    }
  }
  return outcome;
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
  const sms = smsContent('packShipped', {
    race: race.raceName,
    raceEn: race.raceNameEn || race.raceName,
    carrier,
    trackingNo,
  });
  // The race's own wording of the kind, if it has one (services/messages/templates.ts).
  const text = await systemText(tx, race.raceId, userId, sms, shippedText(race, carrier, trackingNo));
  await tx.outbox.add({ ...contact, ...text, createdAt: now, sms, userId, raceId: race.raceId });
}
