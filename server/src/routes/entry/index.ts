/**
 * Sign-up calls (issue 14 §1, §2, §5; paths in contract/api.ts, shapes in contract/entry.ts): entryInfo
 * (public, cached 5 s), entryCodeCheck (login, rate-limited like the lookups), teamCreate and teamGet (login),
 * entrySubmit (login, the slider's pass, per-address and per-account limits; rules in services/entry/submit/ and
 * docs/entry-limits.md), myEntries and orderGet (login, the owner only). The logged-in calls are registered
 * behind the runner's session (plugins/sessions.ts: `request.runner` is the caller).
 * Payment and the ballot have their own files in this folder.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import {
  ENTRY_CHANNELS,
  ITEM_CODE_PATTERN,
  MAX_PEOPLE_PER_SUBMISSION,
  type CodeCheckRequest,
  type EntrySubmitRequest,
  type TeamCreateRequest,
} from '#contract/entry';
import { fail, ok } from '../../lib/envelope.ts';
import { LIMITS, tooManyRequests } from '../../plugins/rate-limit.ts';
import { myEntries, ownOrder } from '../../services/entry/my-entries.ts';
import { checkInvitationCode, entryInfo } from '../../services/entry/sign-up-info.ts';
import { createEntrySubmission } from '../../services/entry/submit/index.ts';
import { createTeam, teamByCode } from '../../services/entry/teams.ts';
import { raceById } from '../../services/races.ts';
import { captchaSchema } from '../registration/confirm.ts';
import { raceIdQuery, raceIdSchema, refuseFields } from '../registration/screen-common.ts';

export const ENTRY_INFO_CACHE_CONTROL = 'public, max-age=5';

const itemCodeSchema = { type: 'string', pattern: ITEM_CODE_PATTERN.source } as const;
const codeSchema = { type: 'string', minLength: 1, maxLength: 64 } as const;

const submitBody = {
  type: 'object',
  required: ['raceId', 'itemCode', 'channel', 'participants', 'idempotencyKey'],
  properties: {
    raceId: raceIdSchema,
    itemCode: itemCodeSchema,
    channel: { type: 'string', enum: [...ENTRY_CHANNELS] },
    code: codeSchema,
    participants: {
      type: 'array',
      minItems: 1,
      // One more than the most allowed, so that the service answers its own message for too many.
      maxItems: MAX_PEOPLE_PER_SUBMISSION + 1,
      items: { type: 'object', maxProperties: 200, additionalProperties: true },
    },
    idempotencyKey: { type: 'string', minLength: 8, maxLength: 64, pattern: '^[\\w-]+$' },
    // Optional here so that a submission without it is answered the slider's own message (slideFirst).
    captcha: captchaSchema,
  },
} as const;

const codeCheckBody = {
  type: 'object',
  required: ['raceId', 'code'],
  properties: { raceId: raceIdSchema, code: codeSchema },
} as const;

const teamCreateBody = {
  type: 'object',
  required: ['raceId', 'itemCode', 'name'],
  properties: {
    raceId: raceIdSchema,
    itemCode: itemCodeSchema,
    name: { type: 'string', minLength: 1, maxLength: 40, pattern: '\\S' },
  },
} as const;

const teamQuery = {
  type: 'object',
  required: ['raceId', 'teamCode'],
  properties: { raceId: raceIdSchema, teamCode: codeSchema },
} as const;

const orderQuery = {
  type: 'object',
  required: ['orderNo'],
  properties: { orderNo: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[\\w-]+$' } },
} as const;

/** entryInfo: public. */
export default async function entryRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.entryInfo,
    { schema: { querystring: raceIdQuery } },
    async (request, reply) => {
      const race = await raceById(app.repos, request.query.raceId);
      if (!race) {
        void reply.header('cache-control', 'no-store');
        return fail(404, 'raceNotFound');
      }
      const info = await entryInfo(app.repos, race, app.config.now());
      void reply.header('cache-control', ENTRY_INFO_CACHE_CONTROL);
      return ok(info);
    },
  );
}

/** The logged-in sign-up calls: behind the runner's session (plugins/sessions.ts). */
export async function entryRunnerRoutes(app: FastifyInstance) {
  const submission = createEntrySubmission({
    repos: app.repos,
    files: app.files,
    now: app.config.now,
    captcha: app.captcha,
  });

  app.post<{ Body: CodeCheckRequest }>(
    API_PATHS.entryCodeCheck,
    { onRequest: app.rateLimit(LIMITS.lookup), schema: { body: codeCheckBody } },
    async (request) => {
      const answer = await checkInvitationCode(app.repos, request.body, app.config.now());
      return typeof answer === 'string' ? fail(answer === 'redemptionCodeMissing' ? 404 : 400, answer) : ok(answer);
    },
  );

  app.post<{ Body: TeamCreateRequest }>(API_PATHS.teamCreate, { schema: { body: teamCreateBody } }, async (request) => {
    const created = await createTeam(app.repos, request.runner.id, request.body, app.config.now);
    return 'team' in created ? ok(created.team) : fail(created.status, created.code);
  });

  app.get<{ Querystring: { raceId: string; teamCode: string } }>(
    API_PATHS.teamGet,
    { onRequest: app.rateLimit(LIMITS.lookup), schema: { querystring: teamQuery } },
    async (request) => {
      const { raceId, teamCode } = request.query;
      const team = await teamByCode(app.repos, raceId, teamCode, request.runner.id);
      return team ? ok(team) : fail(404, 'teamMissing');
    },
  );

  app.post<{ Body: EntrySubmitRequest }>(
    API_PATHS.entrySubmit,
    { onRequest: app.rateLimit(LIMITS.entrySubmit), schema: { body: submitBody } },
    async (request, reply) => {
      const user = request.runner;
      const wait = await app.rateLimitAccount(LIMITS.entrySubmitAccount, user.id);
      if (wait > 0) return tooManyRequests(reply, wait);
      const outcome = await submission.submit(user.id, request.body);
      if (outcome.ok) return ok(outcome.answer);
      const { refusal } = outcome;
      return refusal.kind === 'fields'
        ? refuseFields(refusal.fields)
        : fail(refusal.status, refusal.code, refusal.params);
    },
  );

  app.get(API_PATHS.myEntries, async (request) => ok(await myEntries(app.repos, request.runner.id, app.config.now())));

  app.get<{ Querystring: { orderNo: string } }>(
    API_PATHS.orderGet,
    { schema: { querystring: orderQuery } },
    async (request) => {
      // Another account's order answers as a missing one.
      const order = await ownOrder(app.repos, request.runner.id, request.query.orderNo, app.config.now);
      // The ways to pay it: the order page's buttons (PAYMENT_PROVIDER's enabled providers, in its order).
      const payMethods = app.payments.enabled.map((provider) => provider.name);
      return order ? ok({ ...order, payMethods }) : fail(404, 'orderNotFound');
    },
  );
}
