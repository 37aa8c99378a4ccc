/**
 * Refunds and deferral (issue 15 §4; paths in contract/api.ts, shapes in contract/after-entry.ts): refundGet
 * (login: the race's terms and the caller's entries with their requests) and refundRequest (login; rules in
 * services/after-entry/refunds.ts). The organiser decides through the CLI (cli/refund-commands.ts). Registered
 * behind the runner's session (plugins/sessions.ts): `request.runner` is the caller.
 */
import type { FastifyInstance } from 'fastify';
import { REFUND_REQUEST_KINDS, type RefundRequestBody } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { fail, ok } from '../../lib/envelope.ts';
import { refundAnswer, requestRefund } from '../../services/after-entry/refunds.ts';
import { raceById } from '../../services/races.ts';
import { raceIdQuery, raceIdSchema, refuseFields } from '../registration/screen-common.ts';

const requestBody = {
  type: 'object',
  required: ['raceId', 'entryNo', 'kind', 'reason'],
  properties: {
    raceId: raceIdSchema,
    entryNo: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[\\w-]+$' },
    kind: { type: 'string', enum: [...REFUND_REQUEST_KINDS] },
    // Longer than the limit, so that the service answers its own field message.
    reason: { type: 'string', maxLength: 2000 },
  },
} as const;

export default async function refundRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.refundGet,
    { schema: { querystring: raceIdQuery } },
    async (request) => {
      const race = await raceById(app.repos, request.query.raceId);
      if (!race) return fail(404, 'raceNotFound');
      return ok(await refundAnswer(app.repos, race, request.runner.id, app.config.now()));
    },
  );

  app.post<{ Body: RefundRequestBody }>(API_PATHS.refundRequest, { schema: { body: requestBody } }, async (request) => {
    const race = await raceById(app.repos, request.body.raceId);
    if (!race) return fail(404, 'raceNotFound');
    const outcome = await requestRefund(app.repos, {
      race,
      userId: request.runner.id,
      body: request.body,
      now: app.config.now(),
    });
    if (outcome.ok) return ok(outcome.view);
    if ('fields' in outcome) return refuseFields(outcome.fields);
    return fail(outcome.status, outcome.code, outcome.params);
  });
}
