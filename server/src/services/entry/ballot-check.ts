/**
 * The public ballot answers (issue #14 §3; docs/ballot.md): the ballots of a race, one round's public record
 * (the seed only once revealed) and the "am I in?" outcomes. The outcomes are answered from an in-memory map
 * of the race's entries' outcomes (BallotCheckCache), so a hit touches no database. The map is re-checked
 * every CHECK_REFRESH_MS against one short row (the ballots' draw and reveal states and the latest change of
 * an entry of a ballot item), so every instance on the same database follows a draw, a reveal or a wait-list
 * promotion within seconds, and it is rebuilt only when that row changed. The routes: routes/entry/ballot.ts.
 */
import { ENTRY_STATUSES, type BallotCheckAnswer, type BallotPublic, type BallotSummary } from '#contract/entry';
import type { Repositories } from '../../db/repositories.ts';
import { toPublic, toSummary } from './ballot.ts';

/** How often an instance re-checks whether a race's ballot outcomes changed. */
export const CHECK_REFRESH_MS = 3000;
/** At most this many races' outcome maps are kept (the oldest is dropped). */
const MAX_RACES = 64;
/** At most this many race ids without a ballot are remembered (then forgotten all at once). */
const MAX_UNKNOWN_RACES = 1000;

/** The ballots of a race, each with its item. */
export async function ballotSummaries(repos: Repositories, raceId: string) {
  const ballots = await repos.ballots.list(raceId);
  return ballots.map((b): BallotSummary & { itemCode: string } => ({ itemCode: b.itemCode, ...toSummary(b) }));
}

/** One round's public record (the latest round when `round` is not given), or undefined. */
export async function publicBallot(
  repos: Repositories,
  raceId: string,
  itemCode: string,
  round: number | undefined,
): Promise<BallotPublic | undefined> {
  const [race, ballot] = await Promise.all([
    repos.races.findById(raceId),
    round === undefined ? repos.ballots.latest(raceId, itemCode) : repos.ballots.find(raceId, itemCode, round),
  ]);
  return race && ballot ? toPublic(ballot, race) : undefined;
}

interface RaceOutcomes {
  version: string;
  checkedAt: number;
  answers: Map<string, BallotCheckAnswer>;
}

/** The outcome of each public and team entry of a race's ballot items, as "am I in?" answers it. */
export async function buildOutcomes(repos: Repositories, raceId: string): Promise<Map<string, BallotCheckAnswer>> {
  const [ballots, rows] = await Promise.all([repos.ballots.list(raceId), repos.ballots.checkRows(raceId)]);
  const everWon = new Set<string>();
  for (const ballot of ballots) for (const no of ballot.result?.winners ?? []) everWon.add(no);
  const ranks = new Map<string, number[]>();
  for (const row of rows) {
    if (row.status === ENTRY_STATUSES.notWon && row.waitRank !== null) {
      ranks.set(row.itemCode, [...(ranks.get(row.itemCode) ?? []), row.waitRank]);
    }
  }
  const positions = new Map<string, Map<number, number>>();
  for (const [item, list] of ranks) {
    const distinct = [...new Set(list)].sort((a, b) => a - b);
    positions.set(item, new Map(distinct.map((rank, index) => [rank, index + 1])));
  }
  const answers = new Map<string, BallotCheckAnswer>();
  for (const row of rows) {
    let outcome: BallotCheckAnswer['outcome'];
    let waitListPosition: number | null = null;
    if (row.status === ENTRY_STATUSES.submitted) outcome = 'pending';
    else if (row.status === ENTRY_STATUSES.won) outcome = 'won';
    else if (row.status === ENTRY_STATUSES.notWon && row.waitRank !== null) {
      outcome = 'waitList';
      waitListPosition = positions.get(row.itemCode)?.get(row.waitRank) ?? null;
    } else if (row.status === ENTRY_STATUSES.notWon) outcome = 'notWon';
    else outcome = everWon.has(row.entryNo) ? 'won' : 'notWon';
    answers.set(row.entryNo, { entryNo: row.entryNo, itemCode: row.itemCode, outcome, waitListPosition });
  }
  return answers;
}

/** The "am I in?" answers of each race, re-checked every CHECK_REFRESH_MS and rebuilt when they changed. */
export class BallotCheckCache {
  private readonly races = new Map<string, RaceOutcomes>();
  /** Races without a ballot, by when that was last seen (so a question about one is not a database call either). */
  private readonly none = new Map<string, number>();
  private readonly pending = new Map<string, Promise<Map<string, BallotCheckAnswer> | undefined>>();

  constructor(
    private readonly repos: Repositories,
    private readonly now: () => number,
  ) {}

  /** The answers of a race (undefined when it has no ballot); a fresh map is answered without a database call. */
  answers(
    raceId: string,
  ): Map<string, BallotCheckAnswer> | undefined | Promise<Map<string, BallotCheckAnswer> | undefined> {
    const cached = this.races.get(raceId);
    if (cached && this.now() - cached.checkedAt < CHECK_REFRESH_MS) return cached.answers;
    const seen = this.none.get(raceId);
    if (seen !== undefined && this.now() - seen < CHECK_REFRESH_MS) return undefined;
    let refresh = this.pending.get(raceId);
    if (!refresh) {
      refresh = this.refresh(raceId, cached).finally(() => this.pending.delete(raceId));
      this.pending.set(raceId, refresh);
    }
    return refresh;
  }

  /** Forgets every race (the next question re-reads). */
  clear(): void {
    this.races.clear();
    this.none.clear();
  }

  private async refresh(raceId: string, cached: RaceOutcomes | undefined) {
    const version = await this.repos.ballots.checkVersion(raceId);
    if (version.startsWith('0|')) {
      this.races.delete(raceId);
      if (this.none.size >= MAX_UNKNOWN_RACES) this.none.clear();
      this.none.set(raceId, this.now());
      return undefined;
    }
    this.none.delete(raceId);
    if (cached && cached.version === version) {
      cached.checkedAt = this.now();
      return cached.answers;
    }
    const answers = await buildOutcomes(this.repos, raceId);
    this.races.delete(raceId);
    if (this.races.size >= MAX_RACES) this.races.delete(this.races.keys().next().value!);
    this.races.set(raceId, { version, checkedAt: this.now(), answers });
    return answers;
  }
}
