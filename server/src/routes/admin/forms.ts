/**
 * The console's registration-form editor (issue 33 §3), for staff with 'site' (owner, service): a race's entry
 * channels with their published version and draft, a channel's draft (the saved one, else the published
 * version, else a starter form; also what the SPA's form preview reads with the staff session), saving it as
 * typed, the checks without saving, publishing it as the next version (refused with every problem by JSON path,
 * as `site form-publish`), and the versions published. The same service as the CLI
 * (services/registration/form-editor.ts); saving and publishing are in the audit log (form.draft, form.publish).
 * Every answer of the console is no-store (routes/admin/index.ts).
 */
import type { FastifyInstance } from 'fastify';
import { FORM_DRAFT_MAX_CHARS, type FormProblemsData } from '#contract/form-editor';
import { fail, ok } from '../../lib/envelope.ts';
import {
  checkFormDraft,
  formChannels,
  formVersions,
  publishFormText,
  readFormDraft,
  saveFormDraft,
  type FormEditorOutcome,
} from '../../services/registration/form-editor.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

const raceParams = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const channelParams = {
  type: 'object',
  required: ['raceId', 'channel'],
  properties: {
    raceId: { type: 'string', minLength: 1, maxLength: 64 },
    channel: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;
const textBody = {
  type: 'object',
  required: ['text'],
  properties: { text: { type: 'string', maxLength: FORM_DRAFT_MAX_CHARS } },
} as const;

type ChannelRequest = { Params: { raceId: string; channel: string } };
type TextRequest = ChannelRequest & { Body: { text: string } };

function answer<T>(outcome: FormEditorOutcome<T>) {
  if (outcome.ok) return ok(outcome.value);
  if (outcome.reason !== 'problems') {
    return outcome.reason === 'noRace' ? fail(404, 'raceNotFound') : fail(400, 'formChannelInvalid');
  }
  const data: FormProblemsData = { problems: outcome.problems };
  return { ...fail(422, 'formProblems', { count: outcome.problems.length }), data };
}

export function formsRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, actor, refused } = helpers;
  const base = `${prefix}/races/:raceId/forms`;
  const now = () => app.config.now();

  scope.get<{ Params: { raceId: string } }>(
    base,
    { schema: { params: raceParams } },
    async (request) =>
      refused(request, 'site', request.params.raceId) ?? answer(await formChannels(app.repos, request.params.raceId)),
  );

  scope.get<ChannelRequest>(`${base}/:channel/draft`, { schema: { params: channelParams } }, async (request) => {
    const { raceId, channel } = request.params;
    return refused(request, 'site', raceId) ?? answer(await readFormDraft(app.repos, raceId, channel));
  });

  scope.post<TextRequest>(
    `${base}/:channel/draft`,
    { schema: { params: channelParams, body: textBody } },
    async (request) => {
      const { raceId, channel } = request.params;
      return (
        refused(request, 'site', raceId) ??
        answer(await saveFormDraft(app.repos, actor(request), { raceId, channel, text: request.body.text }, now()))
      );
    },
  );

  scope.post<TextRequest>(
    `${base}/:channel/check`,
    { schema: { params: channelParams, body: textBody } },
    async (request) => {
      const { raceId, channel } = request.params;
      return (
        refused(request, 'site', raceId) ??
        answer(await checkFormDraft(app.repos, { raceId, channel, text: request.body.text }))
      );
    },
  );

  scope.post<TextRequest>(
    `${base}/:channel/publish`,
    { schema: { params: channelParams, body: textBody } },
    async (request) => {
      const { raceId, channel } = request.params;
      return (
        refused(request, 'site', raceId) ??
        answer(await publishFormText(app.repos, actor(request), { raceId, channel, text: request.body.text }, now()))
      );
    },
  );

  scope.get<ChannelRequest>(`${base}/:channel/versions`, { schema: { params: channelParams } }, async (request) => {
    const { raceId, channel } = request.params;
    return refused(request, 'site', raceId) ?? answer(await formVersions(app.repos, raceId, channel));
  });
}
