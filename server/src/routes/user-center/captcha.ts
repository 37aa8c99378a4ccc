/**
 * The slider check: GET a challenge, POST the drop position and the drag trail. A right answer yields the
 * fields a send-code call needs (token → nc_token, sig, sessionId, scene).
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { ok } from '../../lib/envelope.ts';
import type { SliderAnswer } from '../../plugins/captcha.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { noStore, reject } from './common.ts';

const answerSchema = {
  type: 'object',
  required: ['sessionId', 'x', 'trail'],
  properties: {
    sessionId: { type: 'string', minLength: 1, maxLength: 128 },
    x: { type: 'number' },
    trail: {
      type: 'array',
      maxItems: 1000,
      items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number' } },
    },
  },
} as const;

export default async function captchaRoutes(app: FastifyInstance) {
  app.get(API_PATHS.captchaChallenge, { onRequest: app.rateLimit(LIMITS.captcha) }, async (_request, reply) => {
    noStore(reply);
    return ok(await app.captcha.issue());
  });

  app.post<{ Body: SliderAnswer }>(
    API_PATHS.captchaVerify,
    { onRequest: app.rateLimit(LIMITS.captcha), schema: { body: answerSchema } },
    async (request, reply) => {
      noStore(reply);
      const pass = await app.captcha.verify(request.body);
      return pass ? ok(pass) : reject(400, 'verificationFailed');
    },
  );
}
