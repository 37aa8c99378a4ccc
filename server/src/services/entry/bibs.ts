/**
 * Bibs (issue 14; one bib, one runner: issue 28): an item's entries that may get a bib (won / registered, paid
 * or free, none yet) get the next bibs of a series `<prefix><number padded to width>`, in entry order. A bib
 * already held is skipped when it is this item's (an earlier run) or an imported registration's of the race
 * (the registrations import; it refuses a bib an entry holds in turn); another item's entry's bib refuses the
 * whole run. All under the race's bib lock (race-center-repository.ts bibLock), in one transaction: either
 * every planned bib is given or none. The CLI's `bibs-assign` and the console's bib page (routes/admin/ballot.ts) call it.
 */
import { checkBib } from '#contract/rules';
import { bibLock } from '../../db/race-center-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

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

export type BibsRefusal =
  /** The series meets a bib of another item's entry: nothing given. */
  | { ok: false; reason: 'otherItem'; bib: string; itemCode: string }
  /** The series runs past its width (or makes a bib the bib rule refuses): nothing given. */
  | { ok: false; reason: 'tooWide'; bib: string }
  /** Another run gave one of these bibs meanwhile (the unique index entries_bib): nothing given. */
  | { ok: false; reason: 'conflict'; bib: string };

export type BibsOutcome = { ok: true; given: { entryNo: string; bib: string }[] } | BibsRefusal;

/** What a series would give now: how many bibs, the first and the last (or why it would give none). */
export type BibsPreview = { ok: true; count: number; first: string | null; last: string | null } | BibsRefusal;

/** Whether a series' prefix, first number and width are allowed (BIB_SERIES), else which is not. */
export function seriesProblem(
  series: Pick<BibSeries, 'prefix' | 'from' | 'width'>,
): 'prefix' | 'from' | 'width' | null {
  if (!BIB_SERIES.prefix.test(series.prefix)) return 'prefix';
  const { from, width } = BIB_SERIES;
  if (!Number.isInteger(series.from) || series.from < from.min || series.from > from.max) return 'from';
  if (!Number.isInteger(series.width) || series.width < width.min || series.width > width.max) return 'width';
  return null;
}

type Plan = { ok: true; plan: { id: number; entryNo: string; bib: string }[] } | BibsRefusal;

/** The bibs a series gives the item's entries awaiting one, read from `repos` (see the file's comment). */
async function planBibs(repos: Repositories, series: BibSeries): Promise<Plan> {
  const { raceId, itemCode, prefix, from, width } = series;
  const bibOf = (n: number) => `${prefix}${String(n).padStart(width, '0')}`;
  const waiting = await repos.entryAdmin.entriesAwaitingBib(raceId, itemCode);
  if (waiting.length === 0) return { ok: true, plan: [] };
  const held = await repos.entryAdmin.bibs(raceId);
  const imported = await repos.raceCenter.registrationBibs(raceId);
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
  return { ok: true, plan };
}

/** What `assignBibs` would give now, without giving anything (the console's preview). */
export async function previewBibs(repos: Repositories, series: BibSeries): Promise<BibsPreview> {
  const planned = await planBibs(repos, series);
  if (!planned.ok) return planned;
  return {
    ok: true,
    count: planned.plan.length,
    first: planned.plan[0]?.bib ?? null,
    last: planned.plan.at(-1)?.bib ?? null,
  };
}

/**
 * Gives the next bibs of a series to the item's entries awaiting one (see the file's comment); with `actor`,
 * recorded in the audit log (bibs.assign) in the same transaction.
 */
export async function assignBibs(
  repos: Repositories,
  series: BibSeries & { actor?: AuditActor },
): Promise<BibsOutcome> {
  const { raceId, itemCode, prefix, from, width, now, actor } = series;
  try {
    return await repos.transaction(async (tx): Promise<BibsOutcome> => {
      await tx.db.lock(bibLock(raceId));
      const planned = await planBibs(tx, series);
      if (!planned.ok) return planned;
      const given: { entryNo: string; bib: string }[] = [];
      for (const entry of planned.plan) {
        if (await tx.entryAdmin.assignBib(entry.id, entry.bib, now)) {
          given.push({ entryNo: entry.entryNo, bib: entry.bib });
        }
      }
      if (actor && given.length > 0) {
        await appendAudit(
          tx,
          actor,
          {
            action: 'bibs.assign',
            raceId,
            target: itemCode,
            after: { prefix, from, width, count: given.length, first: given[0]!.bib, last: given.at(-1)!.bib },
          },
          now,
        );
      }
      return { ok: true, given };
    });
  } catch (error) {
    // The unique index entries_bib: another run (or an entry's own bib) took one of these bibs meanwhile.
    const text = error instanceof Error ? error.message : String(error);
    if (/unique|duplicate/i.test(text)) return { ok: false, reason: 'conflict', bib: '' };
    throw error;
  }
}

/** An item's bibs now: entries with a bib, entries awaiting one, and the series (prefix and width) in use. */
export interface ItemBibs {
  itemCode: string;
  withBib: number;
  awaiting: number;
  series: { prefix: string; width: number; count: number; first: string; last: string }[];
}

/** The bibs of each item of a race (the console's bib page). */
export async function bibsOfRace(
  repos: Repositories,
  raceId: string,
  itemCodes: readonly string[],
): Promise<ItemBibs[]> {
  const held = await repos.entryAdmin.bibs(raceId);
  const answer: ItemBibs[] = [];
  for (const itemCode of itemCodes) {
    const series = new Map<string, { prefix: string; width: number; bibs: string[] }>();
    let withBib = 0;
    for (const [bib, item] of held) {
      if (item !== itemCode) continue;
      withBib += 1;
      const [, prefix = bib, digits = ''] = /^(.*?)(\d*)$/.exec(bib) ?? [];
      const key = `${prefix}|${digits.length}`;
      const one = series.get(key) ?? { prefix, width: digits.length, bibs: [] };
      one.bibs.push(bib);
      series.set(key, one);
    }
    const awaiting = (await repos.entryAdmin.entriesAwaitingBib(raceId, itemCode)).length;
    answer.push({
      itemCode,
      withBib,
      awaiting,
      series: [...series.values()].map(({ prefix, width, bibs }) => {
        const sorted = [...bibs].sort();
        return { prefix, width, count: bibs.length, first: sorted[0]!, last: sorted.at(-1)! };
      }),
    });
  }
  return answer;
}
