/**
 * The rules of the race-center lookups: what a lookup may answer and to whom, the race memo, the
 * certificates' signatures and the score export. Routes (routes/race-center/) parse the request and turn
 * these results into answers; the SQL stays in the repositories this service is given.
 */
import type { RaceCenterRepository, ResultRow } from '../../db/race-center-repository.ts';
import type { RacesRepository } from '../../db/races-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { ExportLanguage } from '#contract/score-export';
import { raceTimeZone } from '#contract/time-zone';
import {
  ITEM_CODES,
  itemCatalog,
  ITEMS,
  normalizeBib,
  normalizeName,
  signCertificate,
  verifySignature,
  type RegistrationQueryType,
} from '../../lib/race-center.ts';
import {
  byResultOrder,
  onlineRegistrationRow,
  toCertificateFacts,
  toPersonalBest,
  toRegistrationInfo,
  toRegistrationStatus,
  toResult,
  type RaceFacts,
} from './mappers.ts';
import { spreadsheetXml } from './score-export.ts';

/** The most rows one score export holds. */
export const EXPORT_ROW_CAP = 50_000;

export interface RaceCenterServiceDeps {
  raceCenter: RaceCenterRepository;
  races: RacesRepository;
  /** The key of the certificates' signatures (lib/secrets.ts certificateSecret). */
  certificateSecret: string;
  /** The app's clock (epoch ms, `app.config.now`): the race memo expires by it. */
  now: () => number;
}

/** What the answers say of a race (mappers.ts RaceFacts). */
export function raceFactsOf(race: RaceInfo): RaceFacts {
  return {
    raceName: race.raceName,
    raceNameEn: race.raceNameEn ?? '',
    raceDate: (race.startTime ?? '').slice(0, 10),
    zone: raceTimeZone(race),
    items: itemCatalog(race),
    models: Object.fromEntries((race.entry?.items ?? []).map((item) => [item.code, item.model])),
  };
}

/** How long the race memo keeps a race's names and date. */
export const RACE_MEMO_MS = 60_000;

/** A person's key to their own registration and results. */
export interface PersonKey {
  name: string;
  certificateNumber: string;
}

export function createRaceCenterService({
  raceCenter: repo,
  races,
  certificateSecret: secret,
  now: clock,
}: RaceCenterServiceDeps) {
  // Race names for the answers; races change rarely (the CLI), so a short-lived memo is enough.
  const raceCache = new Map<string, { at: number; facts: RaceFacts | undefined }>();
  const raceFacts = async (id: string): Promise<RaceFacts | undefined> => {
    const now = clock();
    const hit = raceCache.get(id);
    if (hit && now - hit.at < RACE_MEMO_MS) return hit.facts;
    const race = await races.findById(id);
    const facts = race ? raceFactsOf(race) : undefined;
    if (raceCache.size > 1000) raceCache.clear();
    raceCache.set(id, { at: now, facts });
    return facts;
  };

  /** What a certificate signs: the result's race, bib, name, item and chip time. */
  const signedFacts = (row: ResultRow) => ({
    raceId: row.race_id,
    bib: row.bib,
    name: row.name,
    item: row.item,
    chipMs: row.chip_ms,
  });

  const result = async (row: ResultRow) =>
    toResult(row, await raceFacts(row.race_id), {
      id: `${row.race_id}:${row.bib}`,
      sig: signCertificate(secret, signedFacts(row)),
    });

  /**
   * A person's registration in a race as the row of the lookups, imported or made on the site alike (the
   * repository's `registration` says which answers when there are both), with its race's facts.
   */
  const registrationOf = async (raceId: string, person: PersonKey) => {
    const certHash = repo.certHash(person.certificateNumber);
    const found = await repo.registration(raceId, certHash, normalizeName(person.name));
    if (!found) return undefined;
    const race = await raceFacts(raceId);
    const row = found.source === 'imported' ? found.row : onlineRegistrationRow(found.entry, certHash, race);
    return { row, race, certHash };
  };

  /** A person's results (every race, or one), matched by certificate number and name. */
  const resultsOf = (person: PersonKey, raceId?: string) =>
    repo.resultsByCert(repo.certHash(person.certificateNumber), normalizeName(person.name), raceId);

  return {
    /**
     * The registration lookup (spec §3): query type 1 answers the status; 2, 3 and 5 the registration info,
     * only for a registration made through that channel. Undefined: nothing to answer.
     */
    async registration(raceId: string, person: PersonKey, queryType: RegistrationQueryType) {
      const found = await registrationOf(raceId, person);
      if (!found) return undefined;
      const { row, race } = found;
      if (queryType === 1) return toRegistrationStatus(row, race);
      // The info of one channel answers only for a registration made through it (entries on the site: web, 3).
      if (row.channel !== queryType) return undefined;
      return toRegistrationInfo(row, race, queryType, person.certificateNumber);
    },

    /**
     * A person's registration info of whatever channel it came through (/confirm), with the certificate hash
     * it is kept under; undefined: no registration.
     */
    async registrationInfo(raceId: string, person: PersonKey) {
      const found = await registrationOf(raceId, person);
      if (!found) return undefined;
      const { row, race, certHash } = found;
      return {
        certHash,
        info: toRegistrationInfo(row, race, row.channel as RegistrationQueryType, person.certificateNumber),
      };
    },

    /** The result of a bib (public): a list of one, or undefined. */
    async scoreByBib(raceId: string, bib: string) {
      const row = await repo.resultByBib(raceId, normalizeBib(bib));
      return row ? [await result(row)] : undefined;
    },

    /** A person's results in one race (empty: none). */
    async scoreOf(raceId: string, person: PersonKey) {
      return Promise.all((await resultsOf(person, raceId)).map(result));
    },

    /** A person's best chip time per item, in the order of ITEMS (empty: no results). */
    async personalBests(person: PersonKey) {
      const best = new Map<string, ResultRow>();
      for (const row of await resultsOf(person)) {
        const seen = best.get(row.item);
        if (!seen || row.chip_ms < seen.chip_ms) best.set(row.item, row);
      }
      // M, H, 10K first, then any other item code (a race's own: 5K, 30K, a trail) in code order.
      const order = (item: string) => (item in ITEMS ? Object.keys(ITEMS).indexOf(item) : ITEM_CODES.length);
      const rows = [...best.values()].sort((a, b) => order(a.item) - order(b.item) || a.item.localeCompare(b.item));
      return (await Promise.all(rows.map(result))).map(toPersonalBest);
    },

    /** A person's results, latest race first, in the given races only when `raceIds` has any (empty: none). */
    async history(person: PersonKey, raceIds?: string[]) {
      const only = raceIds && raceIds.length > 0 ? new Set(raceIds) : null;
      const rows = (await resultsOf(person)).filter((row) => only === null || only.has(row.race_id));
      return (await Promise.all(rows.map(result))).sort(byResultOrder);
    },

    /** The photos of a bib (public). */
    async photos(raceId: string, bib: string) {
      return (await repo.photos(raceId, normalizeBib(bib))).map((p) => ({ url: p.url, takenAt: p.taken_at }));
    },

    /**
     * The races of the organiser of `raceId` (same organizationId; the race itself when it has none) that
     * have results, latest first: the score page offers them, so a visitor of next year's site still finds
     * last year's result. Undefined: no such race.
     */
    async racesWithResults(raceId: string) {
      const race = await races.findById(raceId);
      if (!race) return undefined;
      const counts = await repo.resultCountsByRace();
      const family = race.organizationId
        ? (await races.list()).filter((r) => r.organizationId === race.organizationId)
        : [race];
      return family
        .filter((r) => counts.has(r.raceId))
        .map((r) => ({
          raceId: r.raceId,
          raceName: r.raceName,
          raceNameEn: r.raceNameEn ?? '',
          raceDate: (r.startTime ?? '').slice(0, 10),
          results: counts.get(r.raceId) ?? 0,
        }))
        .sort((a, b) => b.raceDate.localeCompare(a.raceDate) || a.raceId.localeCompare(b.raceId));
    },

    /** A certificate `raceId:bib` with its signature: what it certifies, or undefined when it is not valid. */
    async verifyCertificate(id: string, sig: string) {
      const at = id.indexOf(':');
      const row = at > 0 ? await repo.resultByBib(id.slice(0, at), normalizeBib(id.slice(at + 1))) : undefined;
      if (!row || !verifySignature(secret, signedFacts(row), sig)) return undefined;
      return toCertificateFacts(await result(row));
    },

    /** The results of a race (one item, or all) as a spreadsheet; undefined when there are none. */
    async scoreSheet(raceId: string, item: string | undefined, language: ExportLanguage = 'zh') {
      const rows = await repo.resultsForExport(raceId, item, EXPORT_ROW_CAP);
      if (rows.length === 0) return undefined;
      const facts = await raceFacts(raceId);
      const title = (language === 'en' ? facts?.raceNameEn || facts?.raceName : facts?.raceName) ?? raceId;
      return spreadsheetXml(title, rows, facts?.items, language);
    },
  };
}

export type RaceCenterService = ReturnType<typeof createRaceCenterService>;

/** The service over the app's repositories (what a route or a service holding `Repositories` hands it). */
export const raceCenterServiceOn = (
  repos: Repositories,
  options: Omit<RaceCenterServiceDeps, 'raceCenter' | 'races'>,
): RaceCenterService => createRaceCenterService({ raceCenter: repos.raceCenter, races: repos.races, ...options });
