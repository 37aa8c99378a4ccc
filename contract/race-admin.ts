/**
 * The console's races and race settings (issue 33 §3; server/src/routes/admin/races.ts): the organiser's races
 * with their domains, a new race from a few fields, the race's race.json document read and saved with the same
 * checks as `site add-race`, and domains bound and unbound. The rules both the console and the server apply
 * to the fields a person types are here.
 */
import type { RaceInfo } from '#contract/site-config/race-types';

/** A new race's id: 1–64 letters, digits or dashes, starting with a letter or digit (also a path segment). */
export const NEW_RACE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
/** A race name (each language) of a new race: 1–100 characters. */
export const RACE_NAME_MAX = 100;
/** A new race's place (race.json `detailAddress`): at most 200 characters. */
export const RACE_PLACE_MAX = 200;
/** The largest item capacity and fee the console's forms take (race.json itself takes any whole number ≥ 0). */
export const ITEM_CAPACITY_MAX = 1_000_000;
export const ITEM_FEE_FEN_MAX = 100_000_000;

/** What a number typed as a capacity or a fee in fen breaks, or null: a whole number from 0 to `max`. */
export function wholeAmountProblem(value: unknown, max: number): 'notWhole' | 'negative' | 'tooLarge' | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isInteger(value)) return 'notWhole';
  if (value < 0) return 'negative';
  if (value > max) return 'tooLarge';
  return null;
}

/** Yuan typed in a form ('80', '80.5', '1,280.00') as whole fen, or null when it is not an amount of money. */
export function yuanTextToFen(text: string): number | null {
  const clean = text.trim().replaceAll(',', '');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(clean)) return null;
  const [whole = '0', cents = ''] = clean.split('.');
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'));
}

/** POST /api/admin/organiser/races: a new race (sign-up closed, no items yet: the race page adds them). */
export interface NewRaceRequest {
  raceId: string;
  raceName: { zh: string; en: string };
  /** YYYY-MM-DD HH:mm:ss on the race's clock. */
  startTime: string;
  /** YYYY-MM-DD HH:mm:ss, after the start (optional). */
  endTime?: string;
  /** An IANA time zone; Asia/Shanghai when absent. */
  timeZone?: string;
  /** Where the race starts (race.json detailAddress). */
  place?: string;
}

/** A domain of a race in the races list: whether a site configuration is published for it, and when. */
export interface RaceDomainView {
  domainName: string;
  boundAt: number;
  publishedAt: number | null;
}

/** GET /api/admin/organiser/races: one race of the organiser. */
export interface OrganiserRace {
  raceId: string;
  raceName: { zh: string; en: string };
  startTime: string | null;
  timeZone: string;
  place: string | null;
  /** signUpOpenStatus 1. */
  signUpOpen: boolean;
  itemCount: number;
  domains: RaceDomainView[];
}

export interface OrganiserRaces {
  races: OrganiserRace[];
  /** Whether the member may create races (not when limited to some races). */
  mayCreate: boolean;
}

/** GET /api/admin/races/:raceId/settings: the race.json document, its version, and what entries already hold. */
export interface RaceSettingsView {
  race: RaceInfo;
  /** Sent back with a save: a save over a newer version (another save, entry-open…) is refused. */
  version: number;
  /** Places of each item's pools: what the capacity cannot go below. */
  places: { itemCode: string; pool: 'main' | 'charity'; capacity: number; taken: number }[];
  /** Entries of each item code (every status): an item with entries cannot be removed, renamed or remodelled. */
  entriesByItem: Record<string, number>;
  /** Pick-up slots (`YYYY-MM-DD HH:mm`) with their bookings. */
  slots: { slotId: string; capacity: number; booked: number }[];
}

/** POST /api/admin/races/:raceId/settings (and …/check, which saves nothing). */
export interface RaceSaveRequest {
  race: unknown;
  version?: number;
}

/** A problem of a race document: its JSON path and what is wrong (the same words as `site add-race`). */
export interface RaceProblem {
  path: string;
  message: string;
}

/** The answer of …/check: every problem (none: the document may be saved, unless entries refuse it). */
export interface RaceCheckAnswer {
  problems: RaceProblem[];
}

/** POST /api/admin/domains/bind. `move`: take the domain from the race it is bound to. */
export interface DomainBindRequest {
  domain: string;
  raceId: string;
  move?: boolean;
}
