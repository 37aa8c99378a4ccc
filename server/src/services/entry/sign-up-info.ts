/**
 * What the sign-up page reads before a submission (issue 14 §1, §2): the race's sign-up information and the
 * check of an invitation code. The routes: routes/entry/index.ts.
 */
import {
  INVITATION_CODE_PATTERN,
  normalizeCode,
  paymentMinutes,
  peoplePerAccount,
  type CodeCheckAnswer,
  type CodeCheckRequest,
  type EntryInfo,
} from '#contract/entry';
import { closedChannels, entryRefusalFor } from '#contract/season';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { Repositories } from '../../db/repositories.ts';
import { maskName } from '../../lib/race-center.ts';
import { toSummary } from './ballot.ts';
import { formChannelOf, itemOf, signUpWindow } from './views.ts';

/** The race's sign-up information at `now`: its window, rules and items with the places left. */
export async function entryInfo(repos: Repositories, race: RaceInfo, now: number): Promise<EntryInfo> {
  const settings = race.entry;
  const places = await repos.entries.places(race.raceId);
  const left = (code: string, pool: 'main' | 'charity', capacity: number) => {
    const row = places.find((p) => p.itemCode === code && p.pool === pool);
    return Math.max(0, row ? row.capacity - row.taken : capacity);
  };
  const closures = await repos.season.closures(race.raceId);
  const items: EntryInfo['items'] = [];
  for (const item of settings?.items ?? []) {
    if (item.codeOnly) continue;
    const closed = closedChannels(closures, item.code);
    const ballot = item.model === 'firstCome' ? undefined : await repos.ballots.latest(race.raceId, item.code);
    items.push({
      code: item.code,
      name: item.name,
      feeFen: item.feeFen,
      model: item.model,
      capacity: item.capacity,
      left: item.model === 'firstCome' ? left(item.code, 'main', item.capacity) : null,
      ...(item.minAge === undefined ? {} : { minAge: item.minAge }),
      ...(item.maxAge === undefined ? {} : { maxAge: item.maxAge }),
      paymentMinutes: paymentMinutes(item),
      ...(item.charity
        ? {
            charity: {
              capacity: item.charity.capacity,
              left: left(item.code, 'charity', item.charity.capacity),
              feeFen: item.charity.feeFen,
            },
          }
        : {}),
      ...(item.teams ? { teams: item.teams } : {}),
      ...(ballot ? { ballot: toSummary(ballot) } : {}),
      ...(closed.length > 0 ? { closedChannels: closed } : {}),
    });
  }
  return {
    raceId: race.raceId,
    ...(race.signUpStartTime ? { signUpStartTime: race.signUpStartTime } : {}),
    ...(race.signUpEndTime ? { signUpEndTime: race.signUpEndTime } : {}),
    windowState: signUpWindow(race, now),
    allowMultiple: settings?.allowMultiple ?? false,
    peoplePerAccount: peoplePerAccount(settings),
    formChannel: formChannelOf(settings),
    items,
    now,
  };
}

/**
 * An invitation code the runner may redeem now, as the sign-up form shows it; else the refusal: a revoked
 * code (entryCodeRevoked), its item's code channel closed by the organiser (entryChannelClosed), or no such
 * usable code (redemptionCodeMissing).
 */
export async function checkInvitationCode(
  repos: Repositories,
  request: CodeCheckRequest,
  now: number,
): Promise<CodeCheckAnswer | 'redemptionCodeMissing' | 'entryCodeRevoked' | 'entryChannelClosed'> {
  const { raceId, code: sent } = request;
  const code = INVITATION_CODE_PATTERN.test(sent.trim())
    ? await repos.entries.findCode(raceId, normalizeCode(sent))
    : undefined;
  const race = code ? await repos.races.findById(raceId) : undefined;
  const item = itemOf(race?.entry, code?.itemCode ?? '');
  if (code && item && code.revokedAt !== null) return 'entryCodeRevoked';
  if (!race || !code || !item || code.used >= code.maxUses || (code.expiresAt !== null && code.expiresAt <= now)) {
    return 'redemptionCodeMissing';
  }
  const refusal = entryRefusalFor(race, await repos.season.closures(raceId), item.code, 'code', now);
  if (refusal) return 'entryChannelClosed';
  return {
    code: code.code,
    itemCode: code.itemCode,
    itemName: item.name,
    ...(code.kind === 'named' && code.namedName ? { namedFor: maskName(code.namedName) } : {}),
    usesLeft: code.maxUses - code.used,
    expiresAt: code.expiresAt,
  };
}
