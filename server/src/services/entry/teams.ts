/**
 * Teams (issue 14 §5): a captain creates a team of an item that allows teams while sign-up is open; its
 * members join with its code when they submit (services/entry/submit/). The routes: routes/entry/index.ts.
 */
import type { TeamCreateRequest, TeamInfo } from '#contract/entry';
import { normalizeCode } from '#contract/entry';
import type { MessageCode } from '#contract/messages';
import type { TeamRecord } from '../../db/entries-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskName } from '../../lib/race-center.ts';
import { entryRefusalFor } from '#contract/season';
import { itemOf } from './views.ts';

/** A team as its members see it (names masked), `isCaptain` for `userId`. */
async function teamInfo(repos: Repositories, team: TeamRecord, userId: number): Promise<TeamInfo> {
  const members = await repos.entries.teamMembers(team.id);
  return {
    teamCode: team.teamCode,
    name: team.name,
    itemCode: team.itemCode,
    minSize: team.minSize,
    maxSize: team.maxSize,
    members: members.map((m) => ({ maskedName: maskName(m.name), entryNo: m.entryNo })),
    isCaptain: team.captainUserId === userId,
  };
}

/** Creates a team captained by `userId`, or the refusal (envelope code and message). */
export async function createTeam(
  repos: Repositories,
  userId: number,
  request: TeamCreateRequest,
  now: () => number,
): Promise<{ team: TeamInfo } | { status: number; code: MessageCode }> {
  const { raceId, itemCode, name } = request;
  const race = await repos.races.findById(raceId);
  if (!race) return { status: 404, code: 'raceNotFound' };
  const item = itemOf(race.entry, itemCode);
  if (!item || item.codeOnly) return { status: 404, code: 'entryItemMissing' };
  if (!item.teams) return { status: 400, code: 'teamNotAllowed' };
  // The one rule (contract/season.ts): the team channel of the item closed, or the race's window.
  const refusal = entryRefusalFor(race, await repos.season.closures(raceId), item.code, 'team', now());
  if (refusal) return { status: 400, code: refusal };
  const team = await repos.entries.createTeam({
    raceId,
    itemCode,
    name: name.trim(),
    captainUserId: userId,
    minSize: item.teams.minSize,
    maxSize: item.teams.maxSize,
    now: now(),
  });
  return { team: await teamInfo(repos, team, userId) };
}

/** The team of a race with the code the runner typed, as `userId` sees it; undefined when there is none. */
export async function teamByCode(
  repos: Repositories,
  raceId: string,
  teamCode: string,
  userId: number,
): Promise<TeamInfo | undefined> {
  const team = await repos.entries.findTeamByCode(raceId, normalizeCode(teamCode));
  return team ? teamInfo(repos, team, userId) : undefined;
}
