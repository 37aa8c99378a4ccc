/**
 * /confirm (issue 13 §4): the runner finds their registration by name + certificate after a passed slider
 * check (confirmSearch: the captcha pass is redeemed once, as the code sends do), then confirms the details
 * (confirm: only within CONFIRM_AFTER_SEARCH_MS of this account's search of that registration). Both need
 * login and count against the lookups' per-IP limit. The registration is answered as the registration lookup
 * answers it (numbers masked), with `confirmedAt` once confirmed.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { ConfirmRequest, ConfirmSearchRequest } from '#contract/registration-screens';
import { fail, ok } from '../../lib/envelope.ts';
import { normalizeName } from '../../lib/race-center.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { raceFactsOf, toRegistrationInfo } from '../../services/race-center/mappers.ts';
import {
  loggedInUser,
  raceIdSchema,
  refuseFields,
  runnerKeyProperties,
  runnerKeyRequired,
  runnerKeyRefusals,
} from './screen-common.ts';

/** How long after a search its runner may confirm without sliding again. */
export const CONFIRM_AFTER_SEARCH_MS = 30 * 60_000;

const captchaSchema = {
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

  /** The registration of a runner key and its answer, or undefined. */
  async function findRegistration(body: ConfirmRequest) {
    const certHash = app.repos.raceCenter.certHash(body.certificateNumber);
    const row = await app.repos.raceCenter.registration(body.raceId, certHash, normalizeName(body.name));
    if (!row) return undefined;
    const race = await app.repos.races.findById(row.race_id);
    const facts = race && raceFactsOf(race);
    const answer = async () => {
      const confirmedAt = await app.repos.runnerChoices.confirmedAt(row.race_id, certHash);
      return { ...toRegistrationInfo(row, facts, row.channel as 2 | 3 | 5), ...(confirmedAt ? { confirmedAt } : {}) };
    };
    return { certHash, answer };
  }

  app.post<{ Body: ConfirmSearchRequest }>(
    API_PATHS.confirmSearch,
    { ...limited, schema: { body: searchBody } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const refusals = runnerKeyRefusals(request.body);
      if (Object.keys(refusals).length > 0) return refuseFields(refusals);
      const { captcha } = request.body;
      if (!captcha) return fail(400, 'slideFirst');
      if (!(await app.captcha.redeem(captcha))) return fail(400, 'verificationFailed');
      const found = await findRegistration(request.body);
      if (!found) return fail(404, 'registrationMissing');
      await app.repos.runnerChoices.recordSearch(request.body.raceId, found.certHash, user.id, app.config.now());
      return ok(await found.answer());
    },
  );

  app.post<{ Body: ConfirmRequest }>(
    API_PATHS.confirm,
    { ...limited, schema: { body: confirmBody } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const refusals = runnerKeyRefusals(request.body);
      if (Object.keys(refusals).length > 0) return refuseFields(refusals);
      const { raceId, certificateNumber } = request.body;
      const now = app.config.now();
      // Without a recent search of this account (the slider passed) nothing is told, not even whether it exists.
      const certHash = app.repos.raceCenter.certHash(certificateNumber);
      const searched = await app.repos.runnerChoices.searchedAt(raceId, certHash, user.id);
      if (searched === undefined || now - searched > CONFIRM_AFTER_SEARCH_MS) return fail(400, 'slideFirst');
      const found = await findRegistration(request.body);
      if (!found) return fail(404, 'registrationMissing');
      await app.repos.runnerChoices.confirm(raceId, found.certHash, user.id, now);
      return ok(await found.answer());
    },
  );
}
