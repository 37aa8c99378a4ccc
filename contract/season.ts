/**
 * The entry season (issue 32 §1): opening and closing entry per item and channel, and the invitation and
 * direct-pass codes as the console lists them. The one rule "may someone sign up for item I by channel C now"
 * is `entryStateFor`: the server's submission, the public sign-up information (so the sign-up page shows an
 * item's channel closed) and the console's season page all read it.
 *
 * The switches: the race-wide one is race info signUpOpenStatus (`site entry-open` / `entry-close`); below it
 * the organiser may close parts of the season (`--item`, `--channel`, or both): an item on every channel, a
 * channel on every item, or one item's channel. A closed part is closed whatever the window says; an open part
 * follows the race-wide switch and the window, except the code channel, whose valid codes work while public
 * entry is closed (a code is refused only when its item or channel is closed by a switch, or the code itself
 * is used up, expired or revoked).
 */
import {
  ENTRY_CHANNELS,
  signUpWindow,
  type EntryChannel,
  type EntryItemSettings,
  type EntrySettings,
  type SignUpWindowState,
} from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';

/** A part of the season the organiser closed: itemCode '' is every item, channel '' every channel (never both ''). */
export interface EntryClosure {
  itemCode: string;
  channel: EntryChannel | '';
}

/** Whether a closure closes item `itemCode` on `channel`. */
export const closes = (closure: EntryClosure, itemCode: string, channel: EntryChannel): boolean =>
  (closure.itemCode === '' || closure.itemCode === itemCode) && (closure.channel === '' || closure.channel === channel);

/**
 * Where sign-up for `itemCode` by `channel` stands at `now`: 'closed' when a closure covers it; the code
 * channel is otherwise 'open' (a valid code works outside the window and while the race's switch is off);
 * every other channel follows the race (contract/entry.ts signUpWindow: the race-wide switch and the window).
 */
export function entryStateFor(
  race: Pick<RaceInfo, 'signUpOpenStatus' | 'signUpStartTime' | 'signUpEndTime' | 'timeZone'>,
  closures: readonly EntryClosure[],
  itemCode: string,
  channel: EntryChannel,
  now: number,
): SignUpWindowState {
  if (closures.some((closure) => closes(closure, itemCode, channel))) return 'closed';
  if (channel === 'code') return 'open';
  return signUpWindow(race, now);
}

/**
 * The refusal of a submission for `itemCode` by `channel` at `now` under the one rule, or null when it may go
 * on: entryChannelClosed when a closure covers it, else entryNotOpen / entryClosed from the race's window.
 */
export function entryRefusalFor(
  race: Pick<RaceInfo, 'signUpOpenStatus' | 'signUpStartTime' | 'signUpEndTime' | 'timeZone'>,
  closures: readonly EntryClosure[],
  itemCode: string,
  channel: EntryChannel,
  now: number,
): 'entryChannelClosed' | 'entryNotOpen' | 'entryClosed' | null {
  if (closures.some((closure) => closes(closure, itemCode, channel))) return 'entryChannelClosed';
  const state = entryStateFor(race, closures, itemCode, channel, now);
  return state === 'open' ? null : state === 'notYet' ? 'entryNotOpen' : 'entryClosed';
}

/**
 * The channels an item offers: public (unless only codes open it), direct (where the race has direct-pass
 * applications, unless it turned direct pass off), code, team (where the item has teams), charity (where it
 * has charity places).
 */
export function itemChannels(
  item: Pick<EntryItemSettings, 'codeOnly' | 'teams' | 'charity'>,
  settings: Pick<EntrySettings, 'directPass'> | undefined,
  hasDirect = true,
): EntryChannel[] {
  return ENTRY_CHANNELS.filter((channel) => {
    if (channel === 'public') return !item.codeOnly;
    if (channel === 'direct') return hasDirect && settings?.directPass !== false && !item.codeOnly;
    if (channel === 'team') return !!item.teams;
    if (channel === 'charity') return !!item.charity;
    return true;
  });
}

/** The item's channels a closure covers (for the public sign-up information). */
export const closedChannels = (closures: readonly EntryClosure[], itemCode: string): EntryChannel[] =>
  ENTRY_CHANNELS.filter((channel) => closures.some((closure) => closes(closure, itemCode, channel)));

export const isEntryChannel = (text: unknown): text is EntryChannel =>
  typeof text === 'string' && (ENTRY_CHANNELS as readonly string[]).includes(text);

// ---------------------------------------------------------------------------------------------------------
// The console's season page (GET /api/admin/races/:raceId/season, …/codes)
// ---------------------------------------------------------------------------------------------------------

/** One item of the season page: its channels and the state of each under the one rule. */
export interface SeasonItem {
  code: string;
  name: { zh: string; en: string };
  /** The item's own switch (every channel): closed by `--item` alone. */
  closed: boolean;
  channels: SeasonCell[];
}

export interface SeasonCell {
  channel: EntryChannel;
  /** The state under the one rule (entryStateFor). */
  state: SignUpWindowState;
  /** Closed by a switch of this item and channel itself. */
  closed: boolean;
}

export interface SeasonView {
  raceId: string;
  /** The race-wide switch (signUpOpenStatus 1). */
  open: boolean;
  /** The race's public window at `now` (signUpWindow). */
  windowState: SignUpWindowState;
  signUpStartTime: string | null;
  signUpEndTime: string | null;
  timeZone: string;
  /** The channels closed on every item (`--channel` alone). */
  closedChannels: EntryChannel[];
  items: SeasonItem[];
  now: number;
}

/** A switch change: no item and no channel is the race-wide switch. */
export interface SeasonSwitchRequest {
  open: boolean;
  itemCode?: string;
  channel?: EntryChannel;
}

/** A code's state as lists show it. */
export const CODE_STATES = ['usable', 'usedUp', 'expired', 'revoked'] as const;
export type CodeState = (typeof CODE_STATES)[number];

export function codeState(
  code: { used: number; maxUses: number; expiresAt: number | null; revokedAt: number | null },
  now: number,
): CodeState {
  if (code.revokedAt !== null) return 'revoked';
  if (code.used >= code.maxUses) return 'usedUp';
  if (code.expiresAt !== null && code.expiresAt <= now) return 'expired';
  return 'usable';
}

/** One code in the console's list (the codes are secrets: the list is the owner's only). */
export interface SeasonCode {
  code: string;
  itemCode: string;
  kind: 'named' | 'single' | 'multi';
  /** The named person, masked. */
  namedFor: string | null;
  maxUses: number;
  used: number;
  expiresAt: number | null;
  revokedAt: number | null;
  note: string;
  createdAt: number;
  state: CodeState;
  /** The entries that used the code (entry numbers). */
  entries: string[];
}

export interface SeasonCodesPage {
  codes: SeasonCode[];
  total: number;
  /** Counts of the whole race's codes by state. */
  counts: Record<CodeState, number>;
}

/** The import's answer: the rows it would write (preview) or wrote, and those skipped. */
export interface CodesImportAnswer {
  written: boolean;
  /** Every bad row of the file as `line N: field: problem` (nothing is written while there is one). */
  problems: string[];
  imported: { line: number; code: string; itemCode: string; name: string }[];
  skipped: { line: number; existing: string; itemCode: string; name: string }[];
}

/** The answer of an issue: how many codes, and the batch (their createdAt) to list or download them by. */
export interface CodesIssueAnswer {
  itemCode: string;
  count: number;
  batch: number;
}

/** The most codes one console issue makes (the CLI takes more, into a file). */
export const CONSOLE_CODES_PER_ISSUE_MAX = 10_000;
