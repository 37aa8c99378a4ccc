/**
 * The runner's "my messages" in the personal centre (issue 32 §2; contract/api.ts myMessages, types in
 * contract/runner-messages.ts): GET ?lang=zh|en → MyMessage[], the messages sent to the caller (never another
 * runner's), newest first. `lang`, the language the centre is read in, is kept as the runner's: their next
 * messages are written in it. Behind the runner's session (plugins/sessions.ts); private (no-store).
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { ok } from '../../lib/envelope.ts';
import { myMessages } from '../../services/messages/campaigns.ts';

const query = { type: 'object', properties: { lang: { type: 'string', enum: ['zh', 'en'] } } } as const;

export default async function myMessagesRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { lang?: 'zh' | 'en' } }>(
    API_PATHS.myMessages,
    { schema: { querystring: query } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return ok(await myMessages(app.repos, request.runner.id, request.query.lang));
    },
  );
}
