/**
 * Bibs (issue 14; one bib, one runner: issue 28): an item's entries that may get a bib (won / registered, paid
 * or free, none yet) get the next bibs of a series `<prefix><number padded to width>`, in entry order. A bib
 * already held is skipped when it is this item's (an earlier run) or an imported registration's of the race
 * (the registrations import; it refuses a bib an entry holds in turn); another item's entry's bib refuses the
 * whole run. All under the race's bib lock (race-center-repository.ts bibLock), in one transaction: either
 * every planned bib is given or none. The CLI's `bibs-assign` (and later a web console) call it.
 */
import { checkBib } from '#contract/rules';
import { bibLock } from '../../db/race-center-repository.ts';
import type { Repositories } from '../../db/repositories.ts';

/** What a series may be: its prefix (upper case), its first number and its width (the CLI's options). */
export const BIB_SERIES = {
  prefix: /^[A-Z0-9]{0,10}$/,
  from: { min: 1, max: 999_999_999, default: 1 },
  width: { min: 1, max: 10, default: 5 },
} as const;

export interface BibSeries {
  raceId: string;
  itemCode: string;
  /** Letters or digits (upper case), at most 10; '' for numbers only. */
  prefix: string;
  /** The first number of the series (≥ 1). */
  from: number;
  /** The digits of the number (1–10), zero-padded. */
  width: number;
  now: number;
}

export type BibsOutcome =
  | { ok: true; given: { entryNo: string; bib: string }[] }
  /** The series meets a bib of another item's entry: nothing given. */
  | { ok: false; reason: 'otherItem'; bib: string; itemCode: string }
  /** The series runs past its width (or makes a bib the bib rule refuses): nothing given. */
  | { ok: false; reason: 'tooWide'; bib: string };

/** Gives the next bibs of a series to the item's entries awaiting one (see the file's comment). */
export async function assignBibs(repos: Repositories, series: BibSeries): Promise<BibsOutcome> {
  const { raceId, itemCode, prefix, from, width, now } = series;
  const bibOf = (n: number) => `${prefix}${String(n).padStart(width, '0')}`;
  return repos.transaction(async (tx): Promise<BibsOutcome> => {
    await tx.db.lock(bibLock(raceId));
    const waiting = await tx.entryAdmin.entriesAwaitingBib(raceId, itemCode);
    if (waiting.length === 0) return { ok: true, given: [] };
    const held = await tx.entryAdmin.bibs(raceId);
    const imported = await tx.raceCenter.registrationBibs(raceId);
    const plan: { id: number; entryNo: string; bib: string }[] = [];
    let n = from;
    for (const entry of waiting) {
      // Skipped: this item's series already given (an earlier run) and bibs of imported runners.
      while (held.get(bibOf(n)) === itemCode || imported.has(bibOf(n))) n += 1;
      const bib = bibOf(n);
      const other = held.get(bib);
      if (other !== undefined) return { ok: false, reason: 'otherItem', bib, itemCode: other };
      if (String(n).length > width || checkBib(bib)) return { ok: false, reason: 'tooWide', bib };
      plan.push({ ...entry, bib });
      n += 1;
    }
    const given: { entryNo: string; bib: string }[] = [];
    for (const entry of plan) {
      if (await tx.entryAdmin.assignBib(entry.id, entry.bib, now))
        given.push({ entryNo: entry.entryNo, bib: entry.bib });
    }
    return { ok: true, given };
  });
}
