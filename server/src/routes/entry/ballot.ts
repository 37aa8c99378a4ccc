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
import { ITEM_CODE_PATTERN, type BallotCheckRequest } from '#contract/entry';
import { fail, ok } from '../../lib/envelope.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { BallotCheckCache, ballotSummaries, publicBallot } from '../../services/entry/ballot-check.ts';
import { raceIdSchema } from '../registration/screen-common.ts';

/** Browsers and proxies keep a public ballot answer this long (a draw or a reveal shows within seconds). */
export const BALLOT_CACHE_CONTROL = 'public, max-age=5';
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

export default async function ballotRoutes(app: FastifyInstance) {
  const limited = { onRequest: app.rateLimit(LIMITS.lookup) };
  const cache = new BallotCheckCache(app.repos, app.config.now);

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.ballotList,
    { ...limited, schema: { querystring: listQuery } },
    async (request, reply) => {
      const ballots = await ballotSummaries(app.repos, request.query.raceId);
      reply.header('cache-control', BALLOT_CACHE_CONTROL);
      return ok(ballots);
    },
  );

  app.get<{ Querystring: { raceId: string; itemCode: string; round?: number } }>(
    API_PATHS.ballotPublic,
    { ...limited, schema: { querystring: publicQuery } },
    async (request, reply) => {
      const { raceId, itemCode, round } = request.query;
      const ballot = await publicBallot(app.repos, raceId, itemCode, round);
      if (!ballot) {
        reply.header('cache-control', 'no-store');
        return fail(404, 'ballotMissing');
      }
      reply.header('cache-control', BALLOT_CACHE_CONTROL);
      return ok(ballot);
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
