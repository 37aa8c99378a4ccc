/**
 * Opening and closing a race's sign-up by hand (the CLI's entry-open and entry-close, the console's season
 * page): the race-wide switch is race info signUpOpenStatus 1 or 0; with an item, a channel or both, a part of
 * the season is closed or opened again (entry_closures; contract/season.ts entryStateFor is the one rule that
 * reads them). The public answers cached from the race's data are dropped on every instance (race-center data
 * versions), so the site shows the change within seconds. Each change is in the audit log, as signUp.open or
 * signUp.close, from the CLI and the console alike.
 */
import { ENTRY_CHANNELS, type EntryChannel } from '#contract/entry';
import { isEntryChannel } from '#contract/season';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { Repositories } from '../../db/repositories.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { findItem, raceContext, unknownItemText } from './race-items.ts';

export type SignUpSwitchOutcome = { ok: true; race: RaceInfo; changed: boolean } | { ok: false; reason: 'noRace' };

/** Sets the race's sign-up open or closed: the race as it was, and whether anything changed. */
export async function setSignUpOpen(
  repos: Repositories,
  raceId: string,
  open: boolean,
  now: number,
  actor?: AuditActor,
): Promise<SignUpSwitchOutcome> {
  const race = await repos.races.findById(raceId);
  if (!race) return { ok: false, reason: 'noRace' };
  const status = open ? 1 : 0;
  if (race.signUpOpenStatus === status) return { ok: true, race, changed: false };
  await repos.transaction(async (tx) => {
    // Read again inside the transaction: an edit of the race meanwhile (add-race) is kept.
    const current = (await tx.races.findById(raceId)) ?? race;
    await tx.races.save({ ...current, signUpOpenStatus: status }, now);
    await tx.entryAdmin.bumpRaceVersion(raceId);
    if (actor) {
      await appendAudit(
        tx,
        actor,
        {
          action: open ? 'signUp.open' : 'signUp.close',
          raceId,
          target: raceId,
          before: { signUpOpenStatus: race.signUpOpenStatus ?? null },
          after: { signUpOpenStatus: status },
        },
        now,
      );
    }
  });
  return { ok: true, race, changed: true };
}

export interface EntrySwitchInput {
  raceId: string;
  open: boolean;
  /** An item code (compared without case); absent: every item. */
  item?: string;
  /** An entry channel; absent: every channel. Neither item nor channel: the race-wide switch. */
  channel?: string;
  actor: AuditActor;
  now: number;
}

export type EntrySwitchOutcome =
  | { ok: true; race: RaceInfo; changed: boolean; itemCode: string | null; channel: EntryChannel | null }
  | { ok: false; reason: 'noRace' | 'noItem' | 'noChannel'; problem: string };

/** The words of a part of the season: "item M, channel public", "every item, channel code", "the race". */
export function partText(itemCode: string | null, channel: string | null): string {
  if (itemCode === null && channel === null) return 'the race';
  return `${itemCode === null ? 'every item' : `item ${itemCode}`}, ${channel === null ? 'every channel' : `channel ${channel}`}`;
}

/**
 * Opens or closes the race (no item, no channel: signUpOpenStatus), or a part of it: an item on every channel,
 * a channel on every item, or one item's channel. The change, the race's data version and the audit record
 * are one transaction.
 */
export async function setEntrySwitch(repos: Repositories, input: EntrySwitchInput): Promise<EntrySwitchOutcome> {
  const { raceId, open, actor, now } = input;
  const context = await raceContext(repos, raceId);
  if (!context) {
    return {
      ok: false,
      reason: 'noRace',
      problem: `No race "${raceId}". Add it first with: site add-race <race.json>`,
    };
  }
  let itemCode: string | null = null;
  if (input.item !== undefined) {
    itemCode = findItem(context, input.item.trim()) ?? null;
    if (itemCode === null) return { ok: false, reason: 'noItem', problem: unknownItemText(context, input.item) };
  }
  let channel: EntryChannel | null = null;
  if (input.channel !== undefined) {
    if (!isEntryChannel(input.channel)) {
      return {
        ok: false,
        reason: 'noChannel',
        problem: `No channel "${input.channel}" (channels: ${ENTRY_CHANNELS.join(', ')}).`,
      };
    }
    channel = input.channel;
  }
  if (itemCode === null && channel === null) {
    const outcome = await setSignUpOpen(repos, raceId, open, now, actor);
    if (!outcome.ok) return { ok: false, reason: 'noRace', problem: `No race "${raceId}".` };
    return { ...outcome, itemCode, channel };
  }
  const closure = { itemCode: itemCode ?? '', channel: channel ?? ('' as const) };
  const changed = await repos.transaction(async (tx) => {
    const done = open ? await tx.season.reopen(raceId, closure) : await tx.season.close(raceId, closure, now);
    if (!done) return false;
    await tx.entryAdmin.bumpRaceVersion(raceId);
    await appendAudit(
      tx,
      actor,
      {
        action: open ? 'signUp.open' : 'signUp.close',
        raceId,
        target: `${raceId}: ${partText(itemCode, channel)}`,
        before: { closed: open },
        after: { closed: !open, item: itemCode, channel },
      },
      now,
    );
    return true;
  });
  return { ok: true, race: context.race, changed, itemCode, channel };
}
