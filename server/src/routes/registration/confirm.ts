/**
 * /confirm (issue 13 §4): the runner finds their registration by name + certificate after a passed slider
 * check (confirmSearch: the captcha pass is redeemed once, as the code sends do), then confirms the details
 * (confirm: only within CONFIRM_AFTER_SEARCH_MS of this account's search of that registration). Both need
 * login (registered behind the runner's session, plugins/sessions.ts) and count against the lookups' per-IP
 * limit. The rules live in services/registration/confirmation.ts.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { ConfirmRequest, ConfirmSearchRequest } from '#contract/registration-screens';
import { fail, ok } from '../../lib/envelope.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { createRegistrationConfirmation } from '../../services/registration/confirmation.ts';
import {
  raceIdSchema,
  refuseFields,
  runnerKeyProperties,
  runnerKeyRequired,
  runnerKeyRefusals,
} from './screen-common.ts';

/** A passed slider check (contract CaptchaPass) in a request body; entrySubmit takes the same. */
export const captchaSchema = {
  type: 'object',
  required: ['token', 'sig', 'sessionId', 'scene'],
  properties: {
    token: { type: 'string', maxLength: 200 },
    sig: { type: 'string', maxLength: 200 },
    sessionId: { type: 'string', maxLength: 100 },
    scene: { type: 'string', maxLength: 50 },
  },
} as const;

const confirmBody = {
  type: 'object',
  required: ['raceId', ...runnerKeyRequired],
  properties: { raceId: raceIdSchema, ...runnerKeyProperties },
} as const;

const searchBody = {
  type: 'object',
  required: [...confirmBody.required],
  properties: { ...confirmBody.properties, captcha: captchaSchema },
} as const;

export default async function confirmRoutes(app: FastifyInstance) {
  const limited = { onRequest: app.rateLimit(LIMITS.lookup) };
  const confirmation = createRegistrationConfirmation({
    repos: app.repos,
    certificateSecret: app.secrets.cert,
    now: app.config.now,
  });

  app.post<{ Body: ConfirmSearchRequest }>(
    API_PATHS.confirmSearch,
    { ...limited, schema: { body: searchBody } },
    async (request) => {
      const refusals = runnerKeyRefusals(request.body);
      if (Object.keys(refusals).length > 0) return refuseFields(refusals);
      const { captcha } = request.body;
      if (!captcha) return fail(400, 'slideFirst');
      if (!(await app.captcha.redeem(captcha))) return fail(400, 'verificationFailed');
      const found = await confirmation.search(request.body, request.runner.id);
      return found ? ok(found) : fail(404, 'registrationMissing');
    },
  );

  app.post<{ Body: ConfirmRequest }>(
    API_PATHS.confirm,
    { ...limited, schema: { body: confirmBody } },
    async (request) => {
      const refusals = runnerKeyRefusals(request.body);
      if (Object.keys(refusals).length > 0) return refuseFields(refusals);
      const confirmed = await confirmation.confirm(request.body, request.runner.id);
      if (confirmed === 'slideFirst') return fail(400, 'slideFirst');
      if (confirmed === 'registrationMissing') return fail(404, 'registrationMissing');
      return ok(confirmed.registration);
    },
  );
}
