/**
 * The public ballot calls (issue #14 §3; docs/ballot.md): the ballots of a race (ballotList), one round's
 * public record with everything needed to re-run the draw (ballotPublic; the seed only once revealed) and the
 * "am I in?" lookup (ballotCheck). All public and rate-limited as the lookups are.
 *
 * ballotCheck must hold ballot-result day (≥ 10,000 requests a second on one machine): it answers from an
 * in-memory map of the race's entries' outcomes (BallotCheckCache), so a hit touches no database. The map is
 * re-checked every CHECK_REFRESH_MS against one short row (the ballots' draw and reveal states and the latest
 * change of an entry of a ballot item), so every instance on the same database follows a draw, a reveal or a
 * wait-list promotion within seconds, and it is rebuilt only when that row changed.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import {
  ENTRY_STATUSES,
  ITEM_CODE_PATTERN,
  type BallotCheckAnswer,
  type BallotCheckRequest,
  type BallotSummary,
} from '#contract/entry';
import type { Repositories } from '../../db/repositories.ts';
import { fail, ok } from '../../lib/envelope.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { toPublic, toSummary } from '../../services/entry/ballot.ts';
import { raceIdSchema } from '../registration/screen-common.ts';

/** Browsers and proxies keep a public ballot answer this long (a draw or a reveal shows within seconds). */
export const BALLOT_CACHE_CONTROL = 'public, max-age=5';
/** How often an instance re-checks whether a race's ballot outcomes changed. */
export const CHECK_REFRESH_MS = 3000;
/** At most this many races' outcome maps are kept (the oldest is dropped). */
const MAX_RACES = 64;
/** At most this many race ids without a ballot are remembered (then forgotten all at once). */
const MAX_UNKNOWN_RACES = 1000;

const ENTRY_NO_PATTERN = '^[A-Za-z0-9-]{1,32}$';

const listQuery = { type: 'object', required: ['raceId'], properties: { raceId: raceIdSchema } } as const;
const publicQuery = {
  type: 'object',
  required: ['raceId', 'itemCode'],
  properties: {
    raceId: raceIdSchema,
    itemCode: { type: 'string', pattern: ITEM_CODE_PATTERN.source },
    round: { type: 'integer', minimum: 1, maximum: 1000 },
  },
} as const;
const checkBody = {
  type: 'object',
  required: ['raceId', 'entryNo'],
  properties: { raceId: raceIdSchema, entryNo: { type: 'string', pattern: ENTRY_NO_PATTERN } },
} as const;

const checkAnswerSchema = {
  type: 'object',
  properties: {
    code: { type: 'integer' },
    msg: { type: 'string' },
    data: {
      anyOf: [
        {
          type: 'object',
          properties: {
            entryNo: { type: 'string' },
            itemCode: { type: 'string' },
            outcome: { type: 'string' },
            waitListPosition: { type: ['integer', 'null'] },
          },
        },
        { type: 'null' },
      ],
    },
    msgCode: { type: 'string' },
  },
} as const;

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

export default async function ballotRoutes(app: FastifyInstance) {
  const limited = { onRequest: app.rateLimit(LIMITS.lookup) };
  const cache = new BallotCheckCache(app.repos, app.config.now);

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.ballotList,
    { ...limited, schema: { querystring: listQuery } },
    async (request, reply) => {
      const ballots = await app.repos.ballots.list(request.query.raceId);
      reply.header('cache-control', BALLOT_CACHE_CONTROL);
      return ok(ballots.map((b): BallotSummary & { itemCode: string } => ({ itemCode: b.itemCode, ...toSummary(b) })));
    },
  );

  app.get<{ Querystring: { raceId: string; itemCode: string; round?: number } }>(
    API_PATHS.ballotPublic,
    { ...limited, schema: { querystring: publicQuery } },
    async (request, reply) => {
      const { raceId, itemCode, round } = request.query;
      const [race, ballot] = await Promise.all([
        app.repos.races.findById(raceId),
        round === undefined
          ? app.repos.ballots.latest(raceId, itemCode)
          : app.repos.ballots.find(raceId, itemCode, round),
      ]);
      if (!race || !ballot) {
        reply.header('cache-control', 'no-store');
        return fail(404, 'ballotMissing');
      }
      reply.header('cache-control', BALLOT_CACHE_CONTROL);
      return ok(toPublic(ballot, race));
    },
  );

  app.post<{ Body: BallotCheckRequest }>(
    API_PATHS.ballotCheck,
    { ...limited, schema: { body: checkBody, response: { 200: checkAnswerSchema } } },
    async (request) => {
      const answers = await cache.answers(request.body.raceId);
      const answer = answers?.get(request.body.entryNo);
      return answer ? ok(answer) : fail(404, 'ballotEntryMissing');
    },
  );
}
