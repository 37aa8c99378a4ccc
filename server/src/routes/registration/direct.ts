/**
 * /direct (issue 13 §4) and the lookups of the registration form's fields: directMine and directSave (the
 * runner's direct-pass application, login), myResults (the runner's own finishes for pastEvents and own score
 * claims, login, rate-limited like the lookups) and sizeStock (public, cached 10 s). Types:
 * contract/registration-screens.ts; rules: services/registration/direct-applications.ts.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { CHANNEL_PATTERN, DEFAULT_FORM_CHANNEL, FIELD_KEY_PATTERN } from '#contract/registration-form';
import type { DirectSaveRequest, MyResultsRequest } from '#contract/registration-screens';
import { fail, ok } from '../../lib/envelope.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { createDirectApplications } from '../../services/registration/direct-applications.ts';
import { ownResults } from '../../services/registration/own-results.ts';
import {
  raceIdQuery,
  raceIdSchema,
  refuseFields,
  runnerKeyProperties,
  runnerKeyRequired,
  runnerKeyRefusals,
} from './screen-common.ts';

export const SIZE_STOCK_CACHE_CONTROL = 'public, max-age=10';

const saveBody = {
  type: 'object',
  required: ['raceId', 'values', 'submit'],
  properties: {
    raceId: raceIdSchema,
    values: { type: 'object', maxProperties: 200, additionalProperties: true },
    submit: { type: 'boolean' },
  },
} as const;

const myResultsBody = {
  type: 'object',
  required: runnerKeyRequired,
  properties: { ...runnerKeyProperties, raceId: raceIdSchema },
} as const;

const sizesQuery = {
  type: 'object',
  required: ['raceId', 'field'],
  properties: {
    raceId: raceIdSchema,
    channel: { type: 'string', pattern: CHANNEL_PATTERN.source },
    field: { type: 'string', pattern: FIELD_KEY_PATTERN.source },
  },
} as const;

/** directMine, directSave and myResults: behind the runner's session (plugins/sessions.ts). */
export async function directRunnerRoutes(app: FastifyInstance) {
  const direct = createDirectApplications({ repos: app.repos, files: app.files, now: app.config.now });

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.directMine,
    { schema: { querystring: raceIdQuery } },
    async (request) => {
      const user = request.runner;
      const mine = await direct.mine(request.query.raceId, user.id);
      return mine ? ok(mine) : fail(404, 'raceNotFound');
    },
  );

  app.post<{ Body: DirectSaveRequest }>(API_PATHS.directSave, { schema: { body: saveBody } }, async (request) => {
    const user = request.runner;
    const { raceId, values, submit } = request.body;
    const saved = await direct.save(raceId, user.id, values, submit);
    if (saved.ok) return ok(saved.application);
    const { refusal } = saved;
    return refusal.kind === 'fields' ? refuseFields(refusal.fields) : fail(refusal.status, refusal.code);
  });

  app.post<{ Body: MyResultsRequest }>(
    API_PATHS.myResults,
    { onRequest: app.rateLimit(LIMITS.lookup), schema: { body: myResultsBody } },
    async (request) => {
      const refusals = runnerKeyRefusals(request.body);
      if (Object.keys(refusals).length > 0) return refuseFields(refusals);
      return ok(await ownResults(app.repos, request.body, request.body.raceId));
    },
  );
}

/** sizeStock: public. */
export default async function directRoutes(app: FastifyInstance) {
  const direct = createDirectApplications({ repos: app.repos, files: app.files, now: app.config.now });

  app.get<{ Querystring: { raceId: string; channel?: string; field: string } }>(
    API_PATHS.sizeStock,
    { schema: { querystring: sizesQuery } },
    async (request, reply) => {
      const { raceId, channel = DEFAULT_FORM_CHANNEL, field } = request.query;
      const left = await direct.sizesLeft(raceId, channel, field);
      if (typeof left === 'string') {
        void reply.header('cache-control', 'no-store');
        return left === 'noForm' ? fail(404, 'registrationFormMissing') : fail(404, 'notFound');
      }
      void reply.header('cache-control', SIZE_STOCK_CACHE_CONTROL);
      return ok(left);
    },
  );
}
