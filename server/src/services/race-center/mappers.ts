/**
 * race-center answers: a database row turned into the shape a lookup answers. Pure functions: the race's
 * names and date and the certificate's signature come in as arguments (race-center-service.ts finds them).
 */
import type { EntryModel } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { RegistrationRow, ResultRow, SplitRow } from '../../db/race-center-repository.ts';
import {
  ageOn,
  CHANNEL_KEYS,
  formatDuration,
  formatPace,
  ITEMS,
  maskName,
  REGISTRATION_STATUS_KEYS,
  type RegistrationChannel,
  type RegistrationQueryType,
} from '../../lib/race-center.ts';

/** What the answers say of a race: its names and its date (YYYY-MM-DD, from the start time). */
export interface RaceFacts {
  raceName: string;
  raceNameEn: string;
  raceDate: string;
  /** How each sign-up item gives its places (race.json `entry`), for the status's wording. */
  itemModels?: Readonly<Record<string, EntryModel>>;
}

/** The facts of a race as the answers use them. */
export function raceFactsOf(race: RaceInfo): RaceFacts {
  return {
    raceName: race.raceName,
    raceNameEn: race.raceNameEn ?? '',
    raceDate: (race.startTime ?? '').slice(0, 10),
    itemModels: Object.fromEntries((race.entry?.items ?? []).map((item) => [item.code, item.model])),
  };
}

/** The link of a result's certificate: `raceId:bib` and its signature. */
export interface CertificateLink {
  id: string;
  sig: string;
}

/** A duration rounded to whole seconds, as formatDuration shows it. */
const wholeSeconds = (ms: number) => Math.round(ms / 1000) * 1000;

/** One result as the score and history lookups answer it. */
export function toResult(row: ResultRow, race: RaceFacts | undefined, certificate: CertificateLink) {
  const def = ITEMS[row.item];
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
  const def = ITEMS[row.item];
  const model = race?.itemModels && Object.hasOwn(race.itemModels, row.item) ? race.itemModels[row.item] : undefined;
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

/** Query types 2, 3, 5: the registration info, personal numbers masked. */
export function toRegistrationInfo(
  row: RegistrationRow,
  race: RaceFacts | undefined,
  queryType: RegistrationQueryType,
) {
  const age = ageOn(row.birthday, race?.raceDate || row.birthday);
  return {
    queryType,
    ...registrationFacts(row, race),
    participant: {
      name: row.name,
      gender: row.gender,
      certificateType: row.cert_type,
      certificateNumber: row.cert_masked,
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
