/**
 * Pack pick-up appointment calls (issue 15 §2; paths in contract/api.ts, shapes in contract/after-entry.ts):
 * pickupGet, pickupBook and pickupCancel (login, the caller's own entries only) and pickupCheckIn (staff: the
 * `staffKey` header holds a key the organiser issued with `site staff-key-issue`; rate-limited), and
 * pickupStaffKey, with which the check-in screen checks its key before the first scan. The rules live in
 * services/after-entry/pickup.ts. The runner's three are registered behind the runner's session
 * (plugins/sessions.ts: `request.runner` is the caller), the desk's calls outside it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  normalizePassCode,
  STAFF_KEY_HEADER,
  type PickupBookRequest,
  type PickupCancelRequest,
  type PickupCheckInRequest,
  type PickupStaffKeyAnswer,
  type PickupStaffKeyRequest,
} from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { fail, ok } from '../../lib/envelope.ts';
import type { RateLimit } from '../../plugins/rate-limit.ts';
import {
  bookPickup,
  cancelPickup,
  checkInPass,
  pickupOverview,
  staffOfKey,
  type PickupOutcome,
} from '../../services/after-entry/pickup.ts';
import { raceIdQuery, raceIdSchema } from '../registration/screen-common.ts';

/**
 * Check-in calls per IP: a desk scans a pass every few seconds, several desks may share one address; a key
 * or pass code cannot be guessed at this rate (pass codes: 31^10, keys: 192 random bits).
 */
export const CHECK_IN_LIMIT: RateLimit = { name: 'pickup-check-in', max: 300, windowMs: 60_000 };

const entryNoSchema = { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9-]+$' } as const;

const bookBody = {
  type: 'object',
  required: ['raceId', 'entryNo', 'slotId'],
  properties: {
    raceId: raceIdSchema,
    entryNo: entryNoSchema,
    slotId: { type: 'string', minLength: 1, maxLength: 40 },
  },
} as const;
const cancelBody = {
  type: 'object',
  required: ['raceId', 'entryNo'],
  properties: { raceId: raceIdSchema, entryNo: entryNoSchema },
} as const;
const checkInBody = {
  type: 'object',
  required: ['raceId', 'passCode'],
  properties: {
    raceId: raceIdSchema,
    passCode: { type: 'string', maxLength: 40 },
    outsideSlotConfirmed: { type: 'boolean' },
  },
} as const;
const staffKeyBody = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId: raceIdSchema },
} as const;

const answer = <T>(outcome: PickupOutcome<T>) => {
  if (outcome.ok) return ok(outcome.value);
  const { status, code, params, data } = outcome.refusal;
  return data === undefined ? fail(status, code, params) : { ...fail(status, code, params), data };
};

/** The runner's own pick-up: overview, booking and cancelling (behind the runner's session). */
export async function pickupRunnerRoutes(app: FastifyInstance) {
  const now = () => app.config.now();

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.pickupGet,
    { schema: { querystring: raceIdQuery } },
    async (request) => {
      return answer(
        await pickupOverview(app.repos, { userId: request.runner.id, raceId: request.query.raceId, now: now() }),
      );
    },
  );

  app.post<{ Body: PickupBookRequest }>(API_PATHS.pickupBook, { schema: { body: bookBody } }, async (request) => {
    return answer(await bookPickup(app.repos, { userId: request.runner.id, ...request.body, now: now() }));
  });

  app.post<{ Body: PickupCancelRequest }>(API_PATHS.pickupCancel, { schema: { body: cancelBody } }, async (request) => {
    return answer(await cancelPickup(app.repos, { userId: request.runner.id, ...request.body, now: now() }));
  });
}

/** The check-in desk's calls, authorised by the organiser's staff key. */
export default async function pickupRoutes(app: FastifyInstance) {
  const now = () => app.config.now();

  /** The live staff key of the request's staffKey header for the race, or undefined. */
  const staffOf = (request: FastifyRequest, raceId: string) => {
    const sent = request.headers[STAFF_KEY_HEADER.toLowerCase()];
    return staffOfKey(app.repos, typeof sent === 'string' ? sent.trim() : '', raceId);
  };

  app.post<{ Body: PickupCheckInRequest }>(
    API_PATHS.pickupCheckIn,
    { onRequest: app.rateLimit(CHECK_IN_LIMIT), schema: { body: checkInBody } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const staff = await staffOf(request, request.body.raceId);
      // 403, not 401: the SPA reads an envelope code 401 as "the runner's login expired" (api-client.ts).
      if (!staff) return fail(403, 'staffKeyInvalid');
      return answer(
        await checkInPass(app.repos, {
          raceId: staff.raceId,
          passCode: normalizePassCode(request.body.passCode),
          by: staff.label,
          now: now(),
          outsideSlotConfirmed: request.body.outsideSlotConfirmed === true,
        }),
      );
    },
  );

  // The check-in screen checks the key it is given before the first scan.
  app.post<{ Body: PickupStaffKeyRequest }>(
    API_PATHS.pickupStaffKey,
    { onRequest: app.rateLimit(CHECK_IN_LIMIT), schema: { body: staffKeyBody } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const staff = await staffOf(request, request.body.raceId);
      if (!staff) return fail(403, 'staffKeyInvalid');
      const answer: PickupStaffKeyAnswer = { label: staff.label };
      return ok(answer);
    },
  );
}
