/**
 * The ballot anyone can verify (issue #14 §3). Before the sign-up window closes the organiser publishes a
 * commitment: the SHA-256 of a secret seed (and, optionally, names a public beacon: a value nobody knows yet,
 * such as a lottery result of a later date). After the window the draw is this deterministic function of the
 * seed, the beacon and the published entry list; then the seed is revealed. Anyone re-runs `drawBallot` on the
 * published page's values (the SPA's ballot page does it in the browser, `npm run site -- ballot-verify` on a
 * command line) and gets the same winners, and checks that SHA-256(seed) is the commitment published before.
 *
 * The draw: entries are grouped into units (a team is one unit: all in or all out); each unit's key is
 * SHA-256(seed ":" beacon ":" unitId); units in key order take places while their members fit; the rest,
 * in the same order, form the wait list. No imports beyond crypto-js, so the browser and Node run the very same code.
 */
import SHA256 from 'crypto-js/sha256.js';
import Hex from 'crypto-js/enc-hex.js';

/** A seed: 32 random bytes as 64 lower-case hex digits. */
export const SEED_PATTERN = /^[0-9a-f]{64}$/;

export const sha256Hex = (text: string): string => SHA256(text).toString(Hex);

/** The commitment of a seed: its SHA-256, hex. */
export const commitmentOf = (seed: string): string => sha256Hex(seed);

/** True when the revealed seed is the one committed to. */
export const seedMatches = (seed: string, commitment: string): boolean =>
  SEED_PATTERN.test(seed) && commitmentOf(seed) === commitment;

/** One published entry of the list: its number and its unit (a team's id; null for a single runner). */
export interface DrawEntry {
  entryNo: string;
  unit: string | null;
}

export interface DrawUnit {
  id: string;
  /** Entry numbers, in list order. */
  members: string[];
}

/** The units of a list: a single runner is a unit of its own (id = entry number), a team's members one unit. */
export function unitsOf(entries: readonly DrawEntry[]): DrawUnit[] {
  const units = new Map<string, DrawUnit>();
  for (const entry of entries) {
    const id = entry.unit ?? entry.entryNo;
    const unit = units.get(id);
    if (unit) unit.members.push(entry.entryNo);
    else units.set(id, { id, members: [entry.entryNo] });
  }
  return [...units.values()];
}

/** The sort key of a unit. */
export const unitKey = (seed: string, beacon: string, unitId: string): string =>
  sha256Hex(`${seed}:${beacon}:${unitId}`);

export interface DrawResult {
  /** Entry numbers that won, in draw order. */
  winners: string[];
  /** Entry numbers of the wait list, in draw order (a team's members together). */
  waitList: string[];
  /** The units in draw order with their keys (for showing the work). */
  order: { id: string; key: string; members: string[]; won: boolean }[];
}

/** The draw: units by key (then id), each wins while its members fit in the places left. */
export function drawBallot(seed: string, beacon: string, entries: readonly DrawEntry[], places: number): DrawResult {
  const keyed = unitsOf(entries).map((unit) => ({ ...unit, key: unitKey(seed, beacon, unit.id) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let left = Math.max(0, Math.floor(places));
  const winners: string[] = [];
  const waitList: string[] = [];
  const order = keyed.map((unit) => {
    const won = unit.members.length <= left;
    if (won) {
      left -= unit.members.length;
      winners.push(...unit.members);
    } else {
      waitList.push(...unit.members);
    }
    return { id: unit.id, key: unit.key, members: unit.members, won };
  });
  return { winners, waitList, order };
}

/** A re-run of a published draw: the seed against the commitment, the winners and the wait list. */
export interface DrawRecheck {
  seedMatches: boolean;
  winnersIdentical: boolean;
  waitListIdentical: boolean;
  /** Winners the re-run drew, and winners published. */
  redrawn: number;
  published: number;
  /** Numbers among the winners of one list and not the other (both ways). */
  differing: number;
}

const onlyInOne = (a: readonly string[], b: readonly string[]) => {
  const inA = new Set(a);
  const inB = new Set(b);
  return a.filter((v) => !inB.has(v)).length + b.filter((v) => !inA.has(v)).length;
};

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Re-runs a revealed draw from its published record (`npm run site -- ballot-verify`, the console's check on
 * the server): anyone with the record gets the same answer.
 */
export function recheckDraw(published: {
  seed: string;
  commitment: string;
  beacon: string;
  entries: readonly DrawEntry[];
  places: number;
  winners: readonly string[];
  waitList: readonly string[];
}): DrawRecheck {
  const result = drawBallot(published.seed, published.beacon, published.entries, published.places);
  return {
    seedMatches: seedMatches(published.seed, published.commitment),
    winnersIdentical: sameList(result.winners, published.winners),
    waitListIdentical: sameList(result.waitList, published.waitList),
    redrawn: result.winners.length,
    published: published.winners.length,
    differing: onlyInOne(result.winners, published.winners),
  };
}
