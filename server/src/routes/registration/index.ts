/**
 * Registration forms (issue 13 §1): the published registration-form document of a race and entry channel,
 * for the SPA's form renderer. Public and the same for every visitor: cached 60 s by browsers and proxies,
 * so a new publication shows within a minute.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { CHANNEL_PATTERN, DEFAULT_FORM_CHANNEL } from '#contract/registration-form';
import { envelopeSchema, fail, ok } from '../../lib/envelope.ts';
import { publishedForm } from '../../services/registration/published-forms.ts';
import confirmRoutes from './confirm.ts';
import directRoutes, { directRunnerRoutes } from './direct.ts';
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

/**
 * The registration screens' logged-in calls (issue 13 §4): /direct and the own-results lookup, /confirm,
 * /post and /upload. Registered behind the runner's session (plugins/sessions.ts, app.ts).
 */
export async function registrationRunnerRoutes(app: FastifyInstance) {
  await app.register(directRunnerRoutes);
  await app.register(confirmRoutes);
  await app.register(packAndDocumentRoutes);
}

export default async function registrationRoutes(app: FastifyInstance) {
  // The public lookups of the registration form's fields (sizeStock).
  await app.register(directRoutes);

  app.get<{ Querystring: { raceId: string; channel?: string } }>(
    API_PATHS.registrationForm,
    { schema: { querystring: formQuery, response: { 200: envelopeSchema(publishedFormSchema) } } },
    async (request, reply) => {
      const { raceId, channel = DEFAULT_FORM_CHANNEL } = request.query;
      const published = await publishedForm(app.repos, raceId, channel);
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
