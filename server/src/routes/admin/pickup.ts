/**
 * The console's pick-up calls (issue 32), under /api/admin/races/:raceId/pickup:
 * - the organiser's (permission `pickup`): the slots with their live booked/collected figures and the staff
 *   check-in keys (GET), a slot's capacity (saved in the race info as add-race saves it), issuing a key (shown
 *   once) and revoking one, the bookings as .xlsx/.csv;
 * - the volunteer's check-in screen (permission `checkIn`): a pass looked up (nothing written), and the
 *   hand-over, with the nonce the device made once for it (a resend of a queued hand-over is the same one).
 * The rules are the CLI's (services/after-entry/pickup.ts, services/console/pickup-admin.ts); each change is
 * in the audit log with the CLI's action names (pickup.capacity, pickup.staffKeyIssue, pickup.staffKeyRevoke,
 * pickup.checkIn, pickup.export).
 */
import type { FastifyInstance } from 'fastify';
import { normalizePassCode } from '#contract/after-entry';
import {
  HANDOVER_NONCE_PATTERN,
  STAFF_KEY_LABEL_MAX,
  type ConsoleHandOverAnswer,
  type ConsoleHandOverRequest,
  type ConsoleIssuedKey,
} from '#contract/console-pickup';
import { fail, ok } from '../../lib/envelope.ts';
import { formatCsv } from '../../lib/csv.ts';
import { xlsx } from '../../lib/xlsx.ts';
import {
  checkInPass,
  issueStaffKey,
  pickupExportTable,
  revokeStaffKey,
  type PickupOutcome,
} from '../../services/after-entry/pickup.ts';
import { lookUpPass, pickupAdminView, setSlotCapacity } from '../../services/console/pickup-admin.ts';
import { EXPORT_CONTENT_TYPES } from '../../services/console/entry-export.ts';
import { raceById } from '../../services/races.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

const raceId = { type: 'string', minLength: 1, maxLength: 64 } as const;
const raceParams = { type: 'object', required: ['raceId'], properties: { raceId } } as const;
const passParams = {
  type: 'object',
  required: ['raceId', 'code'],
  properties: { raceId, code: { type: 'string', minLength: 1, maxLength: 40 } },
} as const;
const labelBody = {
  type: 'object',
  required: ['label'],
  properties: { label: { type: 'string', maxLength: 200 } },
} as const;
const capacityBody = {
  type: 'object',
  required: ['slotId', 'capacity'],
  properties: { slotId: { type: 'string', minLength: 1, maxLength: 40 }, capacity: { type: 'number' } },
} as const;
const exportQuery = { type: 'object', properties: { format: { type: 'string', maxLength: 10 } } } as const;
const checkInBody = {
  type: 'object',
  required: ['passCode', 'nonce'],
  properties: {
    passCode: { type: 'string', maxLength: 40 },
    nonce: { type: 'string', maxLength: 100 },
    outsideSlotConfirmed: { type: 'boolean' },
    handedAt: { type: 'number' },
  },
} as const;

const answer = <T>(outcome: PickupOutcome<T>) => {
  if (outcome.ok) return ok(outcome.value);
  const { status, code, params, data } = outcome.refusal;
  // The console says who collected it too.
  const refused = code === 'pickupCollected' ? fail(status, 'pickupCollectedBy', params) : fail(status, code, params);
  return data === undefined ? refused : { ...refused, data };
};

/** A key's label as kept: trimmed, 1-40 characters; undefined when it is not one. */
const labelOf = (raw: string) => {
  const label = raw.trim();
  return label.length >= 1 && label.length <= STAFF_KEY_LABEL_MAX ? label : undefined;
};

type RaceRequest = { Params: { raceId: string } };

export function pickupRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, refused, actor } = helpers;
  const base = `${prefix}/races/:raceId/pickup`;
  const now = () => app.config.now();

  scope.get<RaceRequest>(base, { schema: { params: raceParams } }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const { raceId } = request.params;
    return refused(request, 'pickup', raceId) ?? answer(await pickupAdminView(app.repos, raceId, now()));
  });

  scope.post<RaceRequest & { Body: { slotId: string; capacity: number } }>(
    `${base}/capacity`,
    { schema: { params: raceParams, body: capacityBody } },
    async (request) => {
      const { raceId } = request.params;
      return (
        refused(request, 'pickup', raceId) ??
        answer(await setSlotCapacity(app.repos, { raceId, ...request.body, actor: actor(request), now: now() }))
      );
    },
  );

  scope.post<RaceRequest & { Body: { label: string } }>(
    `${base}/keys`,
    { schema: { params: raceParams, body: labelBody } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { raceId } = request.params;
      const no = refused(request, 'pickup', raceId);
      if (no) return no;
      const label = labelOf(request.body.label);
      if (label === undefined) return fail(400, 'pickupKeyLabelInvalid', { max: STAFF_KEY_LABEL_MAX });
      if (!(await raceById(app.repos, raceId))) return fail(404, 'raceNotFound');
      const key = await issueStaffKey(app.repos, raceId, label, now(), actor(request));
      if (key === undefined) return fail(409, 'pickupKeyExists', { label });
      const issued: ConsoleIssuedKey = { label, key };
      return ok(issued);
    },
  );

  scope.post<RaceRequest & { Body: { label: string } }>(
    `${base}/keys/revoke`,
    { schema: { params: raceParams, body: labelBody } },
    async (request) => {
      const { raceId } = request.params;
      const no = refused(request, 'pickup', raceId);
      if (no) return no;
      const label = request.body.label.trim();
      if (!(await revokeStaffKey(app.repos, raceId, label, now(), actor(request)))) {
        return fail(404, 'pickupKeyMissing', { label });
      }
      return ok({ label });
    },
  );

  scope.get<RaceRequest & { Querystring: { format?: string } }>(
    `${base}/export`,
    { schema: { params: raceParams, querystring: exportQuery } },
    async (request, reply) => {
      const { raceId } = request.params;
      const no = refused(request, 'pickup', raceId);
      if (no) return no;
      const format = request.query.format ?? 'xlsx';
      if (format !== 'xlsx' && format !== 'csv') return fail(400, 'staffBadQuery', { field: 'format' });
      const race = await raceById(app.repos, raceId);
      if (!race) return fail(404, 'raceNotFound');
      const at = now();
      const table = await pickupExportTable(app.repos, race, format, actor(request), at);
      const stamp = new Date(at).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', EXPORT_CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="${raceId}-pickup-${stamp}.${format}"`)
        .header('x-export-rows', String(table.length - 1))
        .send(format === 'csv' ? formatCsv(table) : xlsx(`${raceId} pick-up`, table, new Date(at)));
    },
  );

  // The check-in screen: look a pass up (nothing written), then hand its pack over.
  scope.get<{ Params: { raceId: string; code: string } }>(
    `${base}/passes/:code`,
    { schema: { params: passParams } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { raceId, code } = request.params;
      return (
        refused(request, 'checkIn', raceId) ??
        answer(await lookUpPass(app.repos, { raceId, passCode: normalizePassCode(code), now: now() }))
      );
    },
  );

  scope.post<RaceRequest & { Body: ConsoleHandOverRequest }>(
    `${base}/checkin`,
    { schema: { params: raceParams, body: checkInBody } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { raceId } = request.params;
      const no = refused(request, 'checkIn', raceId);
      if (no) return no;
      const { passCode, nonce, outsideSlotConfirmed, handedAt } = request.body;
      if (!HANDOVER_NONCE_PATTERN.test(nonce)) return fail(400, 'pickupNonceInvalid');
      const outcome = await checkInPass(app.repos, {
        raceId,
        passCode: normalizePassCode(passCode),
        by: request.staff.staff.name,
        now: now(),
        outsideSlotConfirmed: outsideSlotConfirmed === true,
        nonce,
        actor: actor(request),
        ...(handedAt === undefined || !Number.isFinite(handedAt) ? {} : { handedAt: Math.trunc(handedAt) }),
      });
      if (!outcome.ok) return answer(outcome);
      const handed: ConsoleHandOverAnswer = { ...outcome.value, repeated: outcome.value.repeated === true };
      return ok(handed);
    },
  );
}
