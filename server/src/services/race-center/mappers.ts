/**
 * race-center answers: a database row turned into the shape a lookup answers. Pure functions: the race's
 * names and date and the certificate's signature come in as arguments (race-center-service.ts finds them).
 */
import { PARTICIPANT_KEYS, type EntryModel } from '#contract/entry';
import { formatRaceTime } from '#contract/race-clock';
import type {
  OnlineRegistration,
  OrderRow,
  RegistrationRow,
  ResultRow,
  SplitRow,
} from '../../db/race-center-repository.ts';
import {
  ageOn,
  CHANNEL_KEYS,
  formatDuration,
  formatPace,
  ITEMS,
  maskCertNo,
  maskMobile,
  maskName,
  type ItemCatalog,
  type ItemDef,
  REGISTRATION_STATUS_KEYS,
  type RegistrationChannel,
  type RegistrationQueryType,
} from '../../lib/race-center.ts';

/** What the answers say of a race: its names, its date (YYYY-MM-DD, from the start time) and its items. */
export interface RaceFacts {
  raceName: string;
  raceNameEn: string;
  raceDate: string;
  /** Its time zone (contract/time-zone.ts raceTimeZone): the times of its orders are shown in it. */
  zone?: string;
  /** The race's items (lib/race-center.ts itemCatalog): names and distance of any item code it has. */
  items?: ItemCatalog;
  /** How each item of its sign-up (race.json `entry`) gives its places, by code. */
  models?: Record<string, EntryModel>;
}

/** The item of a row: the race's own, else the standard M, H, 10K. */
const itemOf = (race: RaceFacts | undefined, code: string): ItemDef | undefined =>
  race?.items?.get(code) ?? ITEMS[code];

/** The link of a result's certificate: `raceId:bib` and its signature. */
export interface CertificateLink {
  id: string;
  sig: string;
}

/** A duration rounded to whole seconds, as formatDuration shows it. */
const wholeSeconds = (ms: number) => Math.round(ms / 1000) * 1000;

/** One result as the score and history lookups answer it. */
export function toResult(row: ResultRow, race: RaceFacts | undefined, certificate: CertificateLink) {
  const def = itemOf(race, row.item);
  const splits = (JSON.parse(row.splits_json) as SplitRow[]).map((s, i, all) => {
    const prev = i > 0 ? all[i - 1] : undefined;
    return {
      checkpoint: s.checkpoint,
      distanceKm: s.distanceKm,
      time: formatDuration(s.chipMs),
      // This segment's own time, from the shown (whole-second) cumulative times, so the splits add up.
      split: formatDuration(wholeSeconds(s.chipMs) - wholeSeconds(prev?.chipMs ?? 0)),
      pace: formatPace(s.chipMs - (prev?.chipMs ?? 0), s.distanceKm - (prev?.distanceKm ?? 0)),
    };
  });
  return {
    raceId: row.race_id,
    raceName: race?.raceName ?? row.race_id,
    raceNameEn: race?.raceNameEn ?? '',
    raceDate: race?.raceDate ?? '',
    bib: row.bib,
    name: row.name,
    gender: row.gender,
    item: row.item,
    itemName: def?.name ?? row.item,
    itemNameEn: def?.nameEn ?? row.item,
    distanceKm: def?.distanceKm ?? 0,
    gunTime: formatDuration(row.gun_ms),
    chipTime: formatDuration(row.chip_ms),
    gunMs: row.gun_ms,
    chipMs: row.chip_ms,
    pace: formatPace(row.chip_ms, def?.distanceKm ?? 0),
    splits,
    ranks: {
      overall: row.rank_overall,
      gender: row.rank_gender,
      ageGroup: row.rank_age_group,
      ageGroupLabel: row.age_group,
      finishers: row.finishers,
    },
    certificate,
  };
}

export type ResultAnswer = ReturnType<typeof toResult>;

/** Latest race first, then by item. */
export const byResultOrder = (a: ResultAnswer, b: ResultAnswer) =>
  b.raceDate.localeCompare(a.raceDate) || a.item.localeCompare(b.item);

/** A personal best: the result's item, time and race, without splits, ranks or certificate. */
export const toPersonalBest = (r: ResultAnswer) => ({
  item: r.item,
  itemName: r.itemName,
  itemNameEn: r.itemNameEn,
  chipTime: r.chipTime,
  chipMs: r.chipMs,
  pace: r.pace,
  raceId: r.raceId,
  raceName: r.raceName,
  raceNameEn: r.raceNameEn,
  raceDate: r.raceDate,
  bib: r.bib,
});

/** What a verified certificate shows of its result. */
export const toCertificateFacts = (r: ResultAnswer) => ({
  raceId: r.raceId,
  raceName: r.raceName,
  raceNameEn: r.raceNameEn,
  raceDate: r.raceDate,
  name: r.name,
  bib: r.bib,
  item: r.item,
  itemName: r.itemName,
  itemNameEn: r.itemNameEn,
  gunTime: r.gunTime,
  chipTime: r.chipTime,
  ranks: r.ranks,
});

/** What every answer of the registration lookup says: race, status, item, bib and the channel. */
function registrationFacts(row: RegistrationRow, race: RaceFacts | undefined) {
  const def = itemOf(race, row.item);
  const model = race?.models && Object.hasOwn(race.models, row.item) ? race.models[row.item] : undefined;
  return {
    raceId: row.race_id,
    raceName: race?.raceName ?? row.race_id,
    raceNameEn: race?.raceNameEn ?? '',
    status: row.status,
    statusKey: REGISTRATION_STATUS_KEYS[row.status] ?? 'submitted',
    // The item's entry model (contract entryStatusLabel words the status by it); absent for an item sign-up does not list.
    ...(model ? { model } : {}),
    item: row.item,
    itemName: def?.name ?? row.item,
    itemNameEn: def?.nameEn ?? row.item,
    /** How the item gives its places (first come, ballot…), when the race's sign-up has the item. */
    ...(model ? { model } : {}),
    bib: row.bib ?? '',
    channel: row.channel,
    channelKey: CHANNEL_KEYS[row.channel as RegistrationChannel] ?? 'web',
    channelName: row.channel_name ?? '',
    channelNameEn: row.channel_name_en ?? '',
  };
}

/** Query type 1: the status, without the orders or the participant's other fields. */
export const toRegistrationStatus = (row: RegistrationRow, race: RaceFacts | undefined) => ({
  queryType: 1,
  ...registrationFacts(row, race),
  participant: { name: maskName(row.name) },
});

/**
 * Query types 2, 3, 5: the registration info, personal numbers masked. The certificate number is masked from
 * `certNo`, the one the lookup gave (its hash found the row): the table keeps no mask of it beside the
 * birthday, which together would rebuild the number (issue 27, migration 17).
 */
export function toRegistrationInfo(
  row: RegistrationRow,
  race: RaceFacts | undefined,
  queryType: RegistrationQueryType,
  certNo: string,
) {
  const age = ageOn(row.birthday, race?.raceDate || row.birthday);
  return {
    queryType,
    ...registrationFacts(row, race),
    participant: {
      name: row.name,
      gender: row.gender,
      certificateType: row.cert_type,
      certificateNumber: maskCertNo(certNo),
      phone: row.phone_masked,
      emergencyName: row.emergency_name,
      emergencyPhone: row.emergency_phone_masked,
      birthday: row.birthday,
      age,
      adult: age >= 18,
    },
    orders: JSON.parse(row.orders_json) as unknown[],
  };
}

/** A value of an entry's form as text ('' when absent). */
const formText = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * An entry made on the site as the row of an imported registration, so that both answer alike: made on the
 * website (channel 3), its numbers masked as an import masks them, its orders' times in the race's clock and
 * amounts in yuan as an import's orders have them.
 */
export function onlineRegistrationRow(entry: OnlineRegistration, certHash: string, race: RaceFacts | undefined) {
  const time = (ms: number | null) => (ms === null ? '' : formatRaceTime(ms, undefined, race?.zone));
  const paid = (status: number) => status === 3 || status === 5;
  const orders = entry.orders.map((o): OrderRow => ({
    orderNo: o.orderNo,
    subOrderNo: o.subOrderNo,
    createTime: time(o.createdAt),
    serialNo: o.serialNo ?? '',
    payTime: time(o.paidAt),
    amountPaid: paid(o.status) ? o.amountFen / 100 : 0,
    orderAmount: o.amountFen / 100,
    coupon: '',
    discount: 0,
  }));
  const row: RegistrationRow = {
    race_id: entry.raceId,
    bib: entry.bib,
    name: entry.name,
    gender: entry.gender,
    birthday: entry.birthday,
    cert_type: entry.certType,
    cert_hash: certHash,
    phone_masked: maskMobile(entry.phone),
    emergency_name: formText(entry.values[PARTICIPANT_KEYS.emergencyName]),
    emergency_phone_masked: maskMobile(formText(entry.values[PARTICIPANT_KEYS.emergencyPhone])),
    item: entry.itemCode,
    status: entry.status,
    orders_json: JSON.stringify(orders),
    channel: 3,
    channel_name: null,
    channel_name_en: null,
  };
  return row;
}
