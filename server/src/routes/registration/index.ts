/**
 * Registration forms (issue 13 §1): the published registration-form document of a race and entry channel,
 * for the SPA's form renderer. Public and the same for every visitor: cached 60 s by browsers and proxies,
 * so a new publication shows within a minute.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { CHANNEL_PATTERN, DEFAULT_FORM_CHANNEL } from '#contract/registration-form';
import { envelopeSchema, fail, ok } from '../../lib/envelope.ts';
import confirmRoutes from './confirm.ts';
import directRoutes from './direct.ts';
import packAndDocumentRoutes from './pack-and-documents.ts';

const formQuery = {
  type: 'object',
  required: ['raceId'],
  properties: {
    raceId: { type: 'string', minLength: 1, maxLength: 64 },
    channel: { type: 'string', pattern: CHANNEL_PATTERN.source },
  },
} as const;

const publishedFormSchema = {
  type: 'object',
  required: ['raceId', 'channel', 'version', 'md5', 'publishedAt', 'form'],
  properties: {
    raceId: { type: 'string' },
    channel: { type: 'string' },
    version: { type: 'integer' },
    md5: { type: 'string' },
    publishedAt: { type: 'integer' },
    form: { type: 'object', additionalProperties: true },
  },
} as const;

export const FORM_CACHE_CONTROL = 'public, max-age=60';

export default async function registrationRoutes(app: FastifyInstance) {
  // The registration screens (issue 13 §4): /direct and the form's lookups, /confirm, /post and /upload.
  await app.register(directRoutes);
  await app.register(confirmRoutes);
  await app.register(packAndDocumentRoutes);

  app.get<{ Querystring: { raceId: string; channel?: string } }>(
    API_PATHS.registrationForm,
    { schema: { querystring: formQuery, response: { 200: envelopeSchema(publishedFormSchema) } } },
    async (request, reply) => {
      const { raceId, channel = DEFAULT_FORM_CHANNEL } = request.query;
      const published = await app.repos.registrationForms.latest(raceId, channel);
      if (!published) {
        // A refusal in the envelope (HTTP 200, code 404) like the other lookups; not cached, so a form
        // published a moment later shows at once.
        reply.header('cache-control', 'no-store');
        return fail(404, 'registrationFormMissing');
      }
      reply.header('cache-control', FORM_CACHE_CONTROL);
      return ok(published);
    },
  );
}
