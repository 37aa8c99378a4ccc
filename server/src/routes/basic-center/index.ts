/**
 * changzheng-basic-center-api: token check (common info) and the ISO country list (spec §7).
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { envelopeSchema, fail, ok } from '../../lib/envelope.ts';
import { countryList } from '../../lib/country-list.ts';
import { sessionAccountId } from '../../services/accounts/accounts.ts';

const countryItemSchema = {
  type: 'object',
  required: [
    'id',
    'twoCode',
    'threeCode',
    'numberCode',
    'cnName',
    'enName',
    'dictCode',
    'itemName',
    'itemCode',
    'itemSort',
  ],
  properties: {
    id: { type: 'integer' },
    twoCode: { type: 'string' },
    threeCode: { type: 'string' },
    numberCode: { type: 'string' },
    cnName: { type: 'string' },
    enName: { type: 'string' },
    dictCode: { type: 'string' },
    itemName: { type: 'string' },
    itemCode: { type: 'string' },
    itemSort: { type: 'integer' },
  },
} as const;

export default async function basicCenterRoutes(app: FastifyInstance) {
  // The body is not used (the SPA posts {}); the answer depends on the `token` header only.
  app.post(
    API_PATHS.commonInfo,
    {
      schema: {
        response: {
          200: envelopeSchema({
            type: 'object',
            required: ['userId'],
            properties: { userId: { type: 'integer' } },
          }),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const raw = request.headers.token;
      const token = typeof raw === 'string' ? raw.trim() : '';
      const userId = await sessionAccountId(app.repos, token, app.config.now());
      if (userId === undefined) return fail(401, 'loginExpired');
      return ok({ userId });
    },
  );

  app.get(
    API_PATHS.countryList,
    { schema: { response: { 200: envelopeSchema({ type: 'array', items: countryItemSchema }) } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=86400');
      return ok(countryList());
    },
  );
}
