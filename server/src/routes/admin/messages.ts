/**
 * The console's calls for talking to runners (issue 32 §2), for staff with 'messages' (owner, service), per
 * race: the wording of the system messages (save, reset), who a message would reach (counts and a sample),
 * send now or schedule a message to entrants, its delivery per runner, retry of the failed copies, cancel of a
 * scheduled one. Rules in services/messages/; each change in the audit log (message-template-save,
 * message-template-reset, message-send, message-schedule, message-retry, message-cancel).
 */
import type { FastifyInstance } from 'fastify';
import { MESSAGE_BODY_MAX, MESSAGE_SUBJECT_MAX, type MessageText } from '#contract/runner-messages';
import { fail, ok } from '../../lib/envelope.ts';
import { raceTimeZone } from '#contract/time-zone';
import { raceById } from '../../services/races.ts';
import {
  cancelCampaign,
  campaignsOf,
  checkAudience,
  createCampaign,
  deliveriesOf,
  previewAudience,
  retryDeliveries,
  type CampaignInput,
} from '../../services/messages/campaigns.ts';
import { resetTemplate, saveTemplate, templatesView, type MessagesOutcome } from '../../services/messages/templates.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

const raceParams = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const kindParams = {
  type: 'object',
  required: ['raceId', 'kind'],
  properties: { raceId: raceParams.properties.raceId, kind: { type: 'string', minLength: 1, maxLength: 40 } },
} as const;
const idParams = {
  type: 'object',
  required: ['raceId', 'id'],
  properties: { raceId: raceParams.properties.raceId, id: { type: 'integer', minimum: 1 } },
} as const;
const textSchema = {
  type: 'object',
  properties: {
    subjectZh: { type: 'string', maxLength: MESSAGE_SUBJECT_MAX * 2 },
    bodyZh: { type: 'string', maxLength: MESSAGE_BODY_MAX * 2 },
    subjectEn: { type: 'string', maxLength: MESSAGE_SUBJECT_MAX * 2 },
    bodyEn: { type: 'string', maxLength: MESSAGE_BODY_MAX * 2 },
  },
} as const;
const audienceSchema = {
  type: 'object',
  properties: {
    item: { type: 'string', maxLength: 40 },
    // A status as text (a query) or a number (a body); the service reads either as text. anyOf, not a type list:
    // Ajv's strict mode warns at every start about a type list.
    status: { anyOf: [{ type: 'string', maxLength: 2 }, { type: 'integer' }] },
    channel: { type: 'string', maxLength: 20 },
    letter: { type: 'string', maxLength: 20 },
    pickup: { type: 'string', maxLength: 20 },
    entryNo: { type: 'string', maxLength: 40 },
  },
} as const;
const previewQuery = {
  type: 'object',
  properties: { ...audienceSchema.properties, via: { type: 'string', maxLength: 10 } },
} as const;
const sendBody = {
  type: 'object',
  required: ['text', 'channel'],
  properties: {
    text: textSchema,
    channel: { type: 'string', maxLength: 10 },
    audience: audienceSchema,
    sendAt: { type: 'integer', minimum: 0 },
  },
} as const;
const retryBody = { type: 'object', properties: { copyId: { type: 'integer', minimum: 1 } } } as const;
const deliveriesQuery = { type: 'object', properties: { state: { type: 'string', maxLength: 12 } } } as const;

const answer = <T>(outcome: MessagesOutcome<T>) =>
  outcome.ok ? ok(outcome.value) : fail(outcome.status, outcome.code, outcome.params);

export function messagesRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, actor, refused } = helpers;
  const now = () => app.config.now();
  const base = `${prefix}/races/:raceId/messages`;
  type RaceReq = { Params: { raceId: string } };
  const race = async (raceId: string) => raceById(app.repos, raceId);

  scope.get<RaceReq>(base, { schema: { params: raceParams } }, async (request) => {
    const { raceId } = request.params;
    const denied = refused(request, 'messages', raceId);
    if (denied) return denied;
    const found = await race(raceId);
    if (!found) return fail(404, 'raceNotFound');
    return ok({
      campaigns: await campaignsOf(app.repos, raceId),
      items: (found.entry?.items ?? []).map((i) => ({ code: i.code, name: i.name })),
      timeZone: raceTimeZone(found),
      perMinute: app.delivery.messagesPerMinute,
      channels: app.delivery.channels,
    });
  });

  scope.get<RaceReq>(`${base}/templates`, { schema: { params: raceParams } }, async (request) => {
    const { raceId } = request.params;
    return (
      refused(request, 'messages', raceId) ??
      ((await race(raceId)) ? ok(await templatesView(app.repos, raceId)) : fail(404, 'raceNotFound'))
    );
  });

  scope.post<{ Params: { raceId: string; kind: string }; Body: MessageText }>(
    `${base}/templates/:kind`,
    { schema: { params: kindParams, body: textSchema } },
    async (request) => {
      const { raceId, kind } = request.params;
      return (
        refused(request, 'messages', raceId) ??
        ((await race(raceId))
          ? answer(await saveTemplate(app.repos, raceId, kind, request.body ?? {}, actor(request), now()))
          : fail(404, 'raceNotFound'))
      );
    },
  );

  scope.post<{ Params: { raceId: string; kind: string } }>(
    `${base}/templates/:kind/reset`,
    { schema: { params: kindParams } },
    async (request) => {
      const { raceId, kind } = request.params;
      return (
        refused(request, 'messages', raceId) ??
        ((await race(raceId))
          ? answer(await resetTemplate(app.repos, raceId, kind, actor(request), now()))
          : fail(404, 'raceNotFound'))
      );
    },
  );

  scope.get<RaceReq & { Querystring: Record<string, string> }>(
    `${base}/audience`,
    { schema: { params: raceParams, querystring: previewQuery } },
    async (request) => {
      const { raceId } = request.params;
      const denied = refused(request, 'messages', raceId);
      if (denied) return denied;
      const found = await race(raceId);
      if (!found) return fail(404, 'raceNotFound');
      const { via = 'both', ...filters } = request.query;
      if (!['sms', 'email', 'both'].includes(via)) return fail(400, 'messageAudienceInvalid', { field: 'via' });
      const audience = checkAudience(found, filters);
      if (!audience.ok) return answer(audience);
      return ok(await previewAudience(app.repos, found, audience.value, via as 'sms' | 'email' | 'both'));
    },
  );

  scope.post<RaceReq & { Body: CampaignInput }>(
    base,
    { schema: { params: raceParams, body: sendBody } },
    async (request) => {
      const { raceId } = request.params;
      const denied = refused(request, 'messages', raceId);
      if (denied) return denied;
      const found = await race(raceId);
      if (!found) return fail(404, 'raceNotFound');
      const body = { ...request.body, audience: request.body.audience ?? {} };
      return answer(
        await createCampaign(app.repos, found, body, actor(request), now(), app.delivery.messagesPerMinute),
      );
    },
  );

  scope.get<{ Params: { raceId: string; id: number }; Querystring: { state?: string } }>(
    `${base}/:id`,
    { schema: { params: idParams, querystring: deliveriesQuery } },
    async (request) => {
      const { raceId, id } = request.params;
      return (
        refused(request, 'messages', raceId) ?? answer(await deliveriesOf(app.repos, raceId, id, request.query.state))
      );
    },
  );

  scope.post<{ Params: { raceId: string; id: number }; Body: { copyId?: number } }>(
    `${base}/:id/retry`,
    { schema: { params: idParams, body: retryBody } },
    async (request) => {
      const { raceId, id } = request.params;
      return (
        refused(request, 'messages', raceId) ??
        answer(await retryDeliveries(app.repos, raceId, id, request.body?.copyId, actor(request), now()))
      );
    },
  );

  scope.post<{ Params: { raceId: string; id: number } }>(
    `${base}/:id/cancel`,
    { schema: { params: idParams } },
    async (request) => {
      const { raceId, id } = request.params;
      return (
        refused(request, 'messages', raceId) ??
        answer(await cancelCampaign(app.repos, raceId, id, actor(request), now()))
      );
    },
  );
}
