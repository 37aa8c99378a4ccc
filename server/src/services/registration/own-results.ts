/**
 * The runner's own finishes in the organiser's races (issue 13 §2 "past events", "score verification"): the
 * results whose keyed certificate-number hash and name match, as the score lookup by name + certificate
 * finds them, in the races of the same organiser (organizationId) as the given race. The form fields pick
 * from this list (myResults) and the submission check accepts only ids from it (SubmissionContext.ownResult).
 */
import type { OwnResult, RunnerKey } from '#contract/registration-screens';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { ResultRow } from '../../db/race-center-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { formatDuration, normalizeName } from '../../lib/race-center.ts';

/** The race ids of the organiser of `raceId` (the race alone when it names no organiser); undefined: no such race. */
export async function organiserRaceIds(
  repos: Pick<Repositories, 'races'>,
  raceId: string,
): Promise<Set<string> | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  if (!race.organizationId) return new Set([race.raceId]);
  return new Set(
    (await repos.races.list()).filter((r) => r.organizationId === race.organizationId).map((r) => r.raceId),
  );
}

/**
 * The finishes of a name + certificate number, latest race first; in the organiser's races of `raceId` only
 * when it is given (none for an unknown race).
 */
export async function ownResults(
  repos: Pick<Repositories, 'races' | 'raceCenter'>,
  key: Pick<RunnerKey, 'name' | 'certificateNumber'>,
  raceId?: string,
): Promise<OwnResult[]> {
  const name = normalizeName(key.name);
  const certificateNumber = key.certificateNumber.trim();
  if (name === '' || certificateNumber === '') return [];
  const only = raceId === undefined ? undefined : await organiserRaceIds(repos, raceId);
  if (only?.size === 0 || (raceId !== undefined && only === undefined)) return [];
  const rows = (await repos.raceCenter.resultsByCert(repos.raceCenter.certHash(certificateNumber), name)).filter(
    (row) => only === undefined || only.has(row.race_id),
  );
  const races = new Map<string, RaceInfo | undefined>();
  for (const id of new Set(rows.map((row) => row.race_id))) races.set(id, await repos.races.findById(id));
  return rows
    .map((row) => {
      const race = races.get(row.race_id);
      return {
        resultId: `${row.race_id}:${row.bib}`,
        raceId: row.race_id,
        raceName: race?.raceName ?? row.race_id,
        raceNameEn: race?.raceNameEn ?? '',
        item: row.item,
        chipTime: formatDuration(row.chip_ms),
        raceDate: (race?.startTime ?? '').slice(0, 10),
      };
    })
    .sort((a, b) => b.raceDate.localeCompare(a.raceDate) || a.resultId.localeCompare(b.resultId));
}

/** The result an own-result claim names (its resultId, `raceId:bib`), or undefined when it is not in our results. */
export async function resultOfClaim(
  repos: Pick<Repositories, 'raceCenter'>,
  resultId: string,
): Promise<ResultRow | undefined> {
  const at = resultId.indexOf(':');
  return at > 0 ? repos.raceCenter.resultByBib(resultId.slice(0, at), resultId.slice(at + 1)) : undefined;
}
