/**
 * The console's refunds and deferrals (issue 32), for staff with 'money' of the race: the queue of requests
 * with the race's rules, approve (through the provider that took the money, once) and reject with the reason
 * the runner reads, the refunds owed with retry; and an entry's payment queried at its provider, its "paid"
 * recorded as its notification would be; the approved deferrals' codes for the next race. The same services as
 * the CLI's refunds-list, refund-approve, refund-reject, refunds-owed, refund-retry and deferrals-issue
 * (services/console/refunds.ts); each change in the audit log.
 */
import type { FastifyInstance } from 'fastify';
import { REFUND_REJECT_REASON_MAX } from '#contract/after-entry';
import { fail, ok } from '../../lib/envelope.ts';
import {
  approveConsoleRequest,
  issueConsoleDeferrals,
  owedRefundsOf,
  queryEntryPayment,
  recordProviderPaid,
  refundQueue,
  rejectConsoleRequest,
  retryConsoleRefund,
  type ConsoleOutcome,
} from '../../services/console/refunds.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

const raceId = { type: 'string', minLength: 1, maxLength: 64 } as const;
const raceParams = { type: 'object', required: ['raceId'], properties: { raceId } } as const;
const entryParams = {
  type: 'object',
  required: ['raceId', 'entryNo'],
  properties: { raceId, entryNo: { type: 'string', minLength: 1, maxLength: 32 } },
} as const;
const refundParams = {
  type: 'object',
  required: ['raceId', 'refundNo'],
  properties: { raceId, refundNo: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const paymentParams = {
  type: 'object',
  required: ['raceId', 'entryNo', 'paymentId'],
  properties: {
    raceId,
    entryNo: { type: 'string', minLength: 1, maxLength: 32 },
    paymentId: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;
const queueQuery = { type: 'object', properties: { status: { type: 'string', maxLength: 16 } } } as const;
// The reason's length is the service's to refuse with its own message (a longer one is cut off here only).
const rejectBody = {
  type: 'object',
  properties: { reason: { type: 'string', maxLength: REFUND_REJECT_REASON_MAX * 4 } },
} as const;

const deferralsBody = {
  type: 'object',
  properties: { toRaceId: { type: 'string', maxLength: 64 }, expires: { type: 'string', maxLength: 40 } },
} as const;

const answer = <T>(outcome: ConsoleOutcome<T>) =>
  outcome.ok ? ok(outcome.value) : fail(outcome.status, outcome.code, outcome.params);

type RaceRequest = { Params: { raceId: string } };
type EntryRequest = { Params: { raceId: string; entryNo: string } };
type PaymentRequest = { Params: { raceId: string; entryNo: string; paymentId: string } };

export function refundsRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, refused, actor } = helpers;
  const deps = () => ({ repos: app.repos, provider: app.payments, now: () => app.config.now() });
  const race = `${prefix}/races/:raceId`;

  scope.get<RaceRequest & { Querystring: { status?: string } }>(
    `${race}/refunds`,
    { schema: { params: raceParams, querystring: queueQuery } },
    async (request) =>
      refused(request, 'money', request.params.raceId) ??
      answer(await refundQueue(deps(), request.params.raceId, request.query.status)),
  );

  scope.post<EntryRequest>(`${race}/refunds/:entryNo/approve`, { schema: { params: entryParams } }, async (request) => {
    const { raceId: id, entryNo } = request.params;
    return refused(request, 'money', id) ?? answer(await approveConsoleRequest(deps(), id, entryNo, actor(request)));
  });

  scope.post<EntryRequest & { Body: { reason?: string } }>(
    `${race}/refunds/:entryNo/reject`,
    { schema: { params: entryParams, body: rejectBody } },
    async (request) => {
      const { raceId: id, entryNo } = request.params;
      return (
        refused(request, 'money', id) ??
        answer(await rejectConsoleRequest(deps(), id, entryNo, request.body?.reason, actor(request)))
      );
    },
  );

  // Codes of the next race for the approved deferrals: money of both races.
  scope.post<RaceRequest & { Body: { toRaceId?: string; expires?: string } }>(
    `${race}/deferrals/issue`,
    { schema: { params: raceParams, body: deferralsBody } },
    async (request) => {
      const { raceId: id } = request.params;
      const to = request.body?.toRaceId ?? '';
      return (
        refused(request, 'money', id) ??
        refused(request, 'money', to) ??
        answer(await issueConsoleDeferrals(deps(), id, request.body ?? {}, actor(request)))
      );
    },
  );

  scope.get<RaceRequest>(
    `${race}/refunds-owed`,
    { schema: { params: raceParams } },
    async (request) =>
      refused(request, 'money', request.params.raceId) ?? answer(await owedRefundsOf(deps(), request.params.raceId)),
  );

  scope.post<{ Params: { raceId: string; refundNo: string } }>(
    `${race}/refunds-owed/:refundNo/retry`,
    { schema: { params: refundParams } },
    async (request) => {
      const { raceId: id, refundNo } = request.params;
      return refused(request, 'money', id) ?? answer(await retryConsoleRefund(deps(), id, refundNo, actor(request)));
    },
  );

  // An entry's payment at its provider (the entry page's payments).
  scope.get<PaymentRequest>(
    `${race}/entries/:entryNo/payments/:paymentId/query`,
    { schema: { params: paymentParams } },
    async (request) => {
      const { raceId: id, entryNo, paymentId } = request.params;
      return refused(request, 'money', id) ?? answer(await queryEntryPayment(deps(), id, entryNo, paymentId));
    },
  );

  scope.post<PaymentRequest>(
    `${race}/entries/:entryNo/payments/:paymentId/record`,
    { schema: { params: paymentParams } },
    async (request) => {
      const { raceId: id, entryNo, paymentId } = request.params;
      return (
        refused(request, 'money', id) ??
        answer(await recordProviderPaid(deps(), id, entryNo, paymentId, actor(request)))
      );
    },
  );
}
