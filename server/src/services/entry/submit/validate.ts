/**
 * The checks of a submission that need no person's values, cheapest first (before the form is read): the item
 * and channel (codeOnly items only by code, teams and charity places only where the item has them), the window
 * (contract/season.ts entryRefusalFor: the organiser's closed items and channels, then the race clock and
 * signUpOpenStatus 1; a valid, unrevoked invitation code works while public entry is closed), how many people,
 * the account's limit as read before writing (contract peoplePerAccount; read again under the account's lock by
 * the writer), the team and its room, and a direct-pass application approved for one person.
 */
import {
  MAX_PEOPLE_PER_SUBMISSION,
  normalizeCode,
  peoplePerAccount,
  type EntryItemSettings,
  type EntrySettings,
  type EntrySubmitRequest,
} from '#contract/entry';
import { entryRefusalFor } from '#contract/season';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { InvitationCodeRecord, TeamRecord } from '../../../db/entries-repository.ts';
import type { Repositories } from '../../../db/repositories.ts';
import { itemOf } from '../views.ts';
import { call, type SubmitRefusal } from './refusals.ts';

/** What the checks found: the item, the code or team the submission enters by, and the account's rule. */
export interface CheckedRequest {
  settings: EntrySettings;
  item: EntryItemSettings;
  /** How many people. */
  n: number;
  code: InvitationCodeRecord | undefined;
  team: TeamRecord | undefined;
  /** The certificate hash of the approved direct-pass application (channel direct), else null. */
  directHash: string | null;
  /** The account's most live entries in the race (peoplePerAccount) and the refusal when it would pass it. */
  account: { limit: number; full: SubmitRefusal };
}

export async function checkRequest(
  repos: Repositories,
  race: RaceInfo,
  request: EntrySubmitRequest,
  userId: number,
  accountLive: number,
  at: number,
): Promise<{ ok: true; checked: CheckedRequest } | { ok: false; refusal: SubmitRefusal }> {
  const refused = (refusal: SubmitRefusal) => ({ ok: false as const, refusal });
  const { raceId, itemCode, channel, participants } = request;
  const settings = race.entry;
  const item = itemOf(settings, itemCode);
  if (!settings || !item) return refused(call(404, 'entryItemMissing'));
  if (item.codeOnly && channel !== 'code') return refused(call(404, 'entryItemMissing'));
  if (channel === 'team' && !item.teams) return refused(call(400, 'teamNotAllowed'));
  if (channel === 'charity' && !item.charity) return refused(call(400, 'charityMissing'));

  // The code: a valid one works while public entry is closed; a revoked one is refused as such.
  let code: InvitationCodeRecord | undefined;
  if (channel === 'code') {
    code = request.code ? await repos.entries.findCode(raceId, normalizeCode(request.code)) : undefined;
    if (code && code.revokedAt !== null) return refused(call(400, 'entryCodeRevoked'));
    if (!code || code.used >= code.maxUses || (code.expiresAt !== null && code.expiresAt <= at)) {
      return refused(call(400, 'redemptionCodeMissing'));
    }
    if (code.itemCode !== item.code) return refused(call(400, 'entryCodeItem'));
  }
  // The one rule (contract/season.ts): the organiser's closed items and channels, the race's switch and window.
  const windowRefusal = entryRefusalFor(race, await repos.season.closures(raceId), item.code, channel, at);
  if (windowRefusal) return refused(call(400, windowRefusal));

  const n = participants.length;
  if (n > 1 && !settings.allowMultiple) return refused(call(400, 'noGroupRegistration'));
  if (n > MAX_PEOPLE_PER_SUBMISSION) {
    return refused(call(400, 'entryTooManyPeople', { max: MAX_PEOPLE_PER_SUBMISSION }));
  }
  // The account's live entries in the race, these people included, at most `limit` (docs/entry-limits.md):
  // read here first, then again under the account's lock where the entries are written.
  const limit = peoplePerAccount(settings);
  const full = settings.allowMultiple ? call(400, 'entryAccountLimit', { max: limit }) : call(400, 'alreadyRegistered');
  if (accountLive + n > limit) return refused(full);

  let team: TeamRecord | undefined;
  if (channel === 'team') {
    team = request.code ? await repos.entries.findTeamByCode(raceId, normalizeCode(request.code)) : undefined;
    if (!team || team.itemCode !== item.code) return refused(call(404, 'teamMissing'));
    if ((await repos.entries.teamSize(team.id)) + n > team.maxSize) return refused(call(400, 'teamFull'));
  }
  let directHash: string | null = null;
  if (channel === 'direct') {
    if (settings.directPass === false) return refused(call(400, 'directNotApproved'));
    const application = await repos.directApplications.findForUser(raceId, userId);
    if (application?.status !== 2 || n !== 1) return refused(call(400, 'directNotApproved'));
    directHash = application.certHash;
  }
  return { ok: true, checked: { settings, item, n, code, team, directHash, account: { limit, full } } };
}
