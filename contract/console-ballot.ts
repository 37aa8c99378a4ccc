/**
 * The console's ballot and bib pages (issue 32; server/src/routes/admin/ballot.ts, admin/src/pages/ballot,
 * admin/src/pages/bibs): what the server answers and the ways a place is freed for the wait list.
 */
import type { DrawRecheck } from './ballot.ts';
import type { EntryStatus } from './entry.ts';
import type { LocalText } from './registration-form.ts';

/**
 * How a place of a ballot item was freed (order-transitions.ts givePlacesBack): the key names it in the
 * console's texts; the English text is what the promoted entry's 'promoted' step keeps in its note,
 * `place of <entry numbers> (<text>)` (the CLI's ballot-waitlist prints it as it is).
 */
export const PLACE_FREED = {
  unpaid: 'unpaid at the payment deadline',
  refundApproved: 'refund approved',
  deferralApproved: 'deferral approved',
  cancelledByOrganiser: 'cancelled by the organiser',
  refundedByOrganiser: 'refunded by the organiser',
  givenBack: 'given back',
} as const;

export type PlaceFreedHow = keyof typeof PLACE_FREED;

/** The note of a promotion: whose place and how it was freed. */
export const promotionNote = (entryNos: readonly string[], how: PlaceFreedHow) =>
  `place of ${entryNos.join(', ')} (${PLACE_FREED[how]})`;

/** A promotion's note read back: the entries whose place it was and how it was freed (null: not one of ours). */
export function readPromotionNote(note: string): { entryNos: string[]; how: PlaceFreedHow | null; text: string } {
  const match = /^place of (.+) \(([^()]+)\)$/.exec(note.trim());
  if (!match) return { entryNos: [], how: null, text: note };
  const how = (Object.keys(PLACE_FREED) as PlaceFreedHow[]).find((key) => PLACE_FREED[key] === match[2]) ?? null;
  return { entryNos: match[1]!.split(', '), how, text: match[2]! };
}

/** The public ballot page's route in the site (PATHS.ballot; reached at `/#/ballot`, docs/ballot.md). */
export const BALLOT_PAGE_ROUTE = '/ballot';

/** The longest beacon name or value (the CLI's --beacon and --beacon-value). */
export const BEACON_MAX = 500;

/** One round of an item's ballot as staff see it. */
export interface ConsoleBallotRound {
  round: number;
  commitment: string;
  beacon: string;
  committedAt: number;
  drawnAt: number | null;
  /** Whether the seed is published. */
  revealed: boolean;
  seed: string | null;
  places: number | null;
  entries: number;
  winners: number;
  waitList: number;
  /** The draw re-run on the server from the public record (once revealed), else null. */
  check: DrawRecheck | null;
  /** The public record's JSON (GET, what ballot-verify takes). */
  recordPath: string;
}

/** One entry of the wait list, in order, with its promotion. */
export interface ConsoleWaitListRow {
  position: number;
  entryNo: string;
  maskedName: string;
  status: EntryStatus;
  listedAt: number;
  promotedAt: number | null;
  /** Whose place it got, and how that place was freed (how null: a note not of ours; its text kept). */
  freed: { entryNos: string[]; how: PlaceFreedHow | null; text: string } | null;
}

/** An item's ballot. */
export interface ConsoleBallotItem {
  itemCode: string;
  itemName: LocalText;
  model: 'ballot' | 'payThenDraw';
  capacity: number;
  /** Whether the item keeps a wait list (ballot model, waitList not false). */
  keepsWaitList: boolean;
  /**
   * What the next draw draws over now: its round (the latest if not drawn, else the next), the entries in the
   * pool and the places; null when there is no further round (pay first, then draw, once drawn).
   */
  pool: { round: number; entries: number; places: number } | null;
  rounds: ConsoleBallotRound[];
  waitList: ConsoleWaitListRow[];
}

export interface ConsoleBallotAnswer {
  raceId: string;
  timeZone: string;
  /** The sign-up window's end (race clock) and whether entry is open now. */
  signUpEnd: number | null;
  entryOpen: boolean;
  /** Whether the window has closed (commit of round 1 refused; the draw allowed). */
  windowClosed: boolean;
  /** The public ballot page's address on the site (`/#/ballot`): the console is served on the same origin. */
  publicPath: string;
  items: ConsoleBallotItem[];
}

/** The bibs of an item. */
export interface ConsoleBibItem {
  itemCode: string;
  itemName: LocalText;
  withBib: number;
  awaiting: number;
  series: { prefix: string; width: number; count: number; first: string; last: string }[];
}

export interface ConsoleBibsAnswer {
  items: ConsoleBibItem[];
  /** The series' limits (BIB_SERIES). */
  limits: {
    prefixMax: number;
    fromMin: number;
    fromMax: number;
    widthMin: number;
    widthMax: number;
    widthDefault: number;
  };
}

/** A series' preview: how many bibs it would give, its first and last. */
export interface ConsoleBibsPreview {
  count: number;
  first: string | null;
  last: string | null;
}
