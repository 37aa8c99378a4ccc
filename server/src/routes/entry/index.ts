/**
 * Sign-up calls (issue 14 §1, §2, §5; paths in contract/api.ts, shapes in contract/entry.ts): entryInfo
 * (public, cached 5 s), entryCodeCheck (login, rate-limited like the lookups), teamCreate and teamGet (login),
 * entrySubmit (login, the slider's pass, per-address and per-account limits; rules in services/entry/submit/ and
 * docs/entry-limits.md), myEntries and orderGet (login, the owner only).
 * Payment and the ballot have their own files in this folder.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import {
  ENTRY_CHANNELS,
  INVITATION_CODE_PATTERN,
  ITEM_CODE_PATTERN,
  MAX_PEOPLE_PER_SUBMISSION,
  normalizeCode,
  paymentMinutes,
  peoplePerAccount,
  type CodeCheckAnswer,
  type CodeCheckRequest,
  type EntryInfo,
  type EntrySubmitRequest,
  type MyEntriesAnswer,
  type TeamCreateRequest,
  type TeamInfo,
} from '#contract/entry';
import type { TeamRecord } from '../../db/entries-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { fail, ok } from '../../lib/envelope.ts';
import { maskName } from '../../lib/race-center.ts';
import { LIMITS, tooManyRequests } from '../../plugins/rate-limit.ts';
import { createEntrySubmission } from '../../services/entry/submit/index.ts';
import { toSummary } from '../../services/entry/ballot.ts';
import { formChannelOf, itemOf, myEntryViews, signUpWindow } from '../../services/entry/views.ts';
import { captchaSchema } from '../registration/confirm.ts';
import { loggedInUser, raceIdQuery, raceIdSchema, refuseFields } from '../registration/screen-common.ts';

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

async function teamInfo(repos: Repositories, team: TeamRecord, userId: number): Promise<TeamInfo> {
  const members = await repos.entries.teamMembers(team.id);
  return {
    teamCode: team.teamCode,
    name: team.name,
    itemCode: team.itemCode,
    minSize: team.minSize,
    maxSize: team.maxSize,
    members: members.map((m) => ({ maskedName: maskName(m.name), entryNo: m.entryNo })),
    isCaptain: team.captainUserId === userId,
  };
}

export default async function entryRoutes(app: FastifyInstance) {
  const submission = createEntrySubmission({
    repos: app.repos,
    files: app.files,
    now: app.config.now,
    captcha: app.captcha,
  });

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.entryInfo,
    { schema: { querystring: raceIdQuery } },
    async (request, reply) => {
      const race = await app.repos.races.findById(request.query.raceId);
      if (!race) {
        void reply.header('cache-control', 'no-store');
        return fail(404, 'raceNotFound');
      }
      const now = app.config.now();
      const settings = race.entry;
      const places = await app.repos.entries.places(race.raceId);
      const left = (code: string, pool: 'main' | 'charity', capacity: number) => {
        const row = places.find((p) => p.itemCode === code && p.pool === pool);
        return Math.max(0, row ? row.capacity - row.taken : capacity);
      };
      const items: EntryInfo['items'] = [];
      for (const item of settings?.items ?? []) {
        if (item.codeOnly) continue;
        const ballot = item.model === 'firstCome' ? undefined : await app.repos.ballots.latest(race.raceId, item.code);
        items.push({
          code: item.code,
          name: item.name,
          feeFen: item.feeFen,
          model: item.model,
          capacity: item.capacity,
          left: item.model === 'firstCome' ? left(item.code, 'main', item.capacity) : null,
          ...(item.minAge === undefined ? {} : { minAge: item.minAge }),
          ...(item.maxAge === undefined ? {} : { maxAge: item.maxAge }),
          paymentMinutes: paymentMinutes(item),
          ...(item.charity
            ? {
                charity: {
                  capacity: item.charity.capacity,
                  left: left(item.code, 'charity', item.charity.capacity),
                  feeFen: item.charity.feeFen,
                },
              }
            : {}),
          ...(item.teams ? { teams: item.teams } : {}),
          ...(ballot ? { ballot: toSummary(ballot) } : {}),
        });
      }
      const info: EntryInfo = {
        raceId: race.raceId,
        ...(race.signUpStartTime ? { signUpStartTime: race.signUpStartTime } : {}),
        ...(race.signUpEndTime ? { signUpEndTime: race.signUpEndTime } : {}),
        windowState: signUpWindow(race, now),
        allowMultiple: settings?.allowMultiple ?? false,
        peoplePerAccount: peoplePerAccount(settings),
        formChannel: formChannelOf(settings),
        items,
        now,
      };
      void reply.header('cache-control', ENTRY_INFO_CACHE_CONTROL);
      return ok(info);
    },
  );

  app.post<{ Body: CodeCheckRequest }>(
    API_PATHS.entryCodeCheck,
    { onRequest: app.rateLimit(LIMITS.lookup), schema: { body: codeCheckBody } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const { raceId, code: sent } = request.body;
      const code = INVITATION_CODE_PATTERN.test(sent.trim())
        ? await app.repos.entries.findCode(raceId, normalizeCode(sent))
        : undefined;
      const race = code ? await app.repos.races.findById(raceId) : undefined;
      const item = itemOf(race?.entry, code?.itemCode ?? '');
      const now = app.config.now();
      if (!code || !item || code.used >= code.maxUses || (code.expiresAt !== null && code.expiresAt <= now)) {
        return fail(404, 'redemptionCodeMissing');
      }
      const answer: CodeCheckAnswer = {
        code: code.code,
        itemCode: code.itemCode,
        itemName: item.name,
        ...(code.kind === 'named' && code.namedName ? { namedFor: maskName(code.namedName) } : {}),
        usesLeft: code.maxUses - code.used,
        expiresAt: code.expiresAt,
      };
      return ok(answer);
    },
  );

  app.post<{ Body: TeamCreateRequest }>(
    API_PATHS.teamCreate,
    { schema: { body: teamCreateBody } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const { raceId, itemCode, name } = request.body;
      const race = await app.repos.races.findById(raceId);
      if (!race) return fail(404, 'raceNotFound');
      const item = itemOf(race.entry, itemCode);
      if (!item || item.codeOnly) return fail(404, 'entryItemMissing');
      if (!item.teams) return fail(400, 'teamNotAllowed');
      const state = signUpWindow(race, app.config.now());
      if (state !== 'open') return fail(400, state === 'notYet' ? 'entryNotOpen' : 'entryClosed');
      const team = await app.repos.entries.createTeam({
        raceId,
        itemCode,
        name: name.trim(),
        captainUserId: user.id,
        minSize: item.teams.minSize,
        maxSize: item.teams.maxSize,
        now: app.config.now(),
      });
      return ok(await teamInfo(app.repos, team, user.id));
    },
  );

  app.get<{ Querystring: { raceId: string; teamCode: string } }>(
    API_PATHS.teamGet,
    { onRequest: app.rateLimit(LIMITS.lookup), schema: { querystring: teamQuery } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const team = await app.repos.entries.findTeamByCode(request.query.raceId, normalizeCode(request.query.teamCode));
      return team ? ok(await teamInfo(app.repos, team, user.id)) : fail(404, 'teamMissing');
    },
  );

  app.post<{ Body: EntrySubmitRequest }>(
    API_PATHS.entrySubmit,
    { onRequest: app.rateLimit(LIMITS.entrySubmit), schema: { body: submitBody } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
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

  app.get(API_PATHS.myEntries, async (request, reply) => {
    const user = await loggedInUser(app, request, reply);
    if (!user) return fail(401, 'loginExpired');
    const now = app.config.now();
    const entries = await app.repos.entries.listForUser(user.id);
    const answer: MyEntriesAnswer = {
      entries: await myEntryViews(app.repos, entries),
      orders: await app.repos.orders.listForUser(user.id, now),
      now,
    };
    return ok(answer);
  });

  app.get<{ Querystring: { orderNo: string } }>(
    API_PATHS.orderGet,
    { schema: { querystring: orderQuery } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const order = await app.repos.orders.findByNo(request.query.orderNo);
      // Another account's order answers as a missing one.
      if (!order || order.userId !== user.id) return fail(404, 'orderNotFound');
      return ok((await app.repos.orders.view(order.orderNo, app.config.now()))!);
    },
  );
}
