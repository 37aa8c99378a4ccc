/**
 * The console's refunds and deferrals (issue 32), for staff with 'money': the race's queue of runners' requests
 * with its rules, approve and reject (the CLI's refund-approve and refund-reject: services/after-entry/refunds.ts),
 * the refunds owed (refunds-owed, refund-retry: services/entry/refunds-owed.ts); and an entry's payment queried
 * at the provider that made it, its "paid" recorded the way a late notification records it
 * (order-transitions.ts applyNotification: once, whoever records it first). Every change is in the audit log:
 * refund.approve, refund.reject, refund.retry, deferrals.issue (the CLI's names too) and payment.record.
 */
import { formatFen } from '#contract/entry';
import type { ConsoleMessageCode } from '#contract/console-messages';
import { OFFLINE_PROVIDER_PREFIX } from '#contract/console-entry';
import type {
  ConsoleDeferralsIssued,
  ConsoleOwedRefund,
  ConsolePaymentQuery,
  ConsolePaymentRecorded,
  ConsoleRefundOutcome,
  ConsoleRefundQueue,
  ConsoleRefundRequest,
  ConsoleRetryOutcome,
} from '#contract/console-refunds';
import { REFUND_REQUEST_STATUSES, type RefundRequestStatus } from '#contract/after-entry';
import type { MessageParams } from '#contract/messages';
import type { PaymentRecord } from '../../db/payments-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { redactLogText } from '../../lib/log-redaction.ts';
import type { PaymentProvider, PaymentState } from '../../lib/payment/provider.ts';
import { providersOf, type ProviderSource } from '../../lib/payment/registry.ts';
import { maskName } from '../../lib/race-center.ts';
import {
  approveRequest,
  issueDeferrals,
  paidFenOf,
  refundRequestsOf,
  refundRules,
  rejectRequest,
} from '../after-entry/refunds.ts';
import { newInvitationCode } from '../organiser/invitation-codes.ts';
import { applyNotification } from '../entry/order-transitions.ts';
import { refundCause, refundsOwed, retryRefund } from '../entry/refunds-owed.ts';
import { itemOf } from '../entry/views.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { findRaceEntry } from './entry-detail.ts';

export interface ConsoleRefundDeps {
  repos: Repositories;
  /** The server's payment providers: each refund and query goes to the one that took the payment. */
  provider: ProviderSource;
  now: () => number;
}

export type ConsoleOutcome<T> =
  { ok: true; value: T } | { ok: false; status: number; code: ConsoleMessageCode; params?: MessageParams };

const refuse = (status: number, code: ConsoleMessageCode, params?: MessageParams): ConsoleOutcome<never> => ({
  ok: false,
  status,
  code,
  ...(params ? { params } : {}),
});

/** A refusal of the shared decisions (the CLI's problem line has its console code beside it). */
const refusalOf = (decision: { code?: ConsoleMessageCode; params?: MessageParams }): ConsoleOutcome<never> => {
  const code = decision.code ?? 'refundNoRequest';
  const status = code === 'refundRaceMissing' || code === 'entryNotFound' || code === 'refundMissing' ? 404 : 400;
  return refuse(status, code, decision.params);
};

const isStatus = (value: unknown): value is RefundRequestStatus =>
  typeof value === 'string' && (REFUND_REQUEST_STATUSES as readonly string[]).includes(value);

/** The race's requests (of one status when given: review first in the console), with its rules and counts. */
export async function refundQueue(
  deps: Pick<ConsoleRefundDeps, 'repos' | 'now'>,
  raceId: string,
  status?: string,
): Promise<ConsoleOutcome<ConsoleRefundQueue>> {
  const { repos } = deps;
  const race = await repos.races.findById(raceId);
  if (!race) return refuse(404, 'refundRaceMissing');
  if (status !== undefined && status !== '' && !isStatus(status)) {
    return refuse(400, 'staffBadQuery', { field: 'status' });
  }
  const all = await refundRequestsOf(repos, raceId);
  const counts = { review: 0, approved: 0, rejected: 0 };
  for (const r of all) counts[r.status] += 1;
  const listed = status ? all.filter((r) => r.status === status) : all;
  const requests: ConsoleRefundRequest[] = [];
  for (const r of listed) {
    const { paidFen, orderId } = await paidFenOf(repos, r.entryId);
    let refund: ConsoleRefundRequest['refund'] = null;
    if (r.kind === 'refund' && r.status === 'approved' && orderId !== null) {
      const row = (await repos.payments.refundsOf(orderId)).find((x) => x.reason === `request:${r.id}`);
      if (row) {
        refund = {
          refundNo: row.refundNo,
          status: row.status,
          attempts: row.attempts,
          lastError: row.lastError,
          doneAt: row.doneAt,
        };
      }
    }
    requests.push({
      id: r.id,
      entryNo: r.entryNo,
      nameMasked: maskName(r.name),
      itemCode: r.itemCode,
      itemName: itemOf(race.entry, r.itemCode)?.name ?? { zh: r.itemCode, en: r.itemCode },
      kind: r.kind,
      status: r.status,
      reason: r.reason,
      amountFen: r.amountFen,
      paidFen,
      rejectReason: r.rejectReason,
      createdAt: r.createdAt,
      decidedAt: r.decidedAt,
      refund,
    });
  }
  // Newest first, as a queue is worked from the top; those under review before the decided ones.
  requests.sort((a, b) => Number(b.status === 'review') - Number(a.status === 'review') || b.createdAt - a.createdAt);
  const deferralsToIssue = (await repos.refunds.unissued(raceId)).length;
  return { ok: true, value: { raceId, rules: refundRules(race, deps.now()), counts, requests, deferralsToIssue } };
}

/** Approves the entry's request under review (CLI refund-approve): the refund through the provider, once. */
export async function approveConsoleRequest(
  deps: ConsoleRefundDeps,
  raceId: string,
  entryNo: string,
  actor: AuditActor,
): Promise<ConsoleOutcome<ConsoleRefundOutcome>> {
  const decision = await approveRequest({ ...deps, actor }, raceId, entryNo);
  if (!decision.ok) return refusalOf(decision);
  const { fresh, kind, amountFen, refundedFen, pending } = decision.value;
  return { ok: true, value: { fresh, kind, amountFen, refundedFen, pending } };
}

/** Rejects the entry's request under review with the reason the runner reads (CLI refund-reject). */
export async function rejectConsoleRequest(
  deps: Pick<ConsoleRefundDeps, 'repos' | 'now'>,
  raceId: string,
  entryNo: string,
  reason: unknown,
  actor: AuditActor,
): Promise<ConsoleOutcome<{ fresh: boolean; kind: 'refund' | 'deferral' }>> {
  const decision = await rejectRequest(
    deps.repos,
    raceId,
    entryNo,
    typeof reason === 'string' ? reason : '',
    deps.now(),
    actor,
  );
  if (!decision.ok) return refusalOf(decision);
  return { ok: true, value: { fresh: decision.value.fresh, kind: decision.value.kind } };
}

/** Named codes of the next race for the race's approved deferrals without one (CLI deferrals-issue). */
export async function issueConsoleDeferrals(
  deps: Pick<ConsoleRefundDeps, 'repos' | 'now'>,
  raceId: string,
  body: { toRaceId?: unknown; expires?: unknown },
  actor: AuditActor,
): Promise<ConsoleOutcome<ConsoleDeferralsIssued>> {
  const toRaceId = typeof body.toRaceId === 'string' ? body.toRaceId.trim() : '';
  const expires = typeof body.expires === 'string' && body.expires.trim() !== '' ? body.expires.trim() : undefined;
  const outcome = await issueDeferrals(deps.repos, {
    fromRaceId: raceId,
    toRaceId,
    now: deps.now(),
    newCode: newInvitationCode,
    ...(expires === undefined ? {} : { expires }),
    actor,
  });
  if (!outcome.ok) return refusalOf(outcome);
  const { issued, skipped, expiresAt, zone } = outcome.value;
  return {
    ok: true,
    value: {
      issued: issued.map((i) => ({
        entryNo: i.entryNo,
        nameMasked: maskName(i.name),
        itemCode: i.itemCode,
        code: i.code,
      })),
      skipped,
      expiresAt,
      zone,
    },
  };
}

/** The race's refunds not confirmed by the provider yet, oldest first (CLI refunds-owed --race). */
export async function owedRefundsOf(
  deps: Pick<ConsoleRefundDeps, 'repos'>,
  raceId: string,
): Promise<ConsoleOutcome<ConsoleOwedRefund[]>> {
  if (!(await deps.repos.races.findById(raceId))) return refuse(404, 'refundRaceMissing');
  const owed = await refundsOwed(deps.repos, raceId);
  return {
    ok: true,
    value: owed.map((r) => ({
      refundNo: r.refundNo,
      orderNo: r.orderNo,
      entryNo: r.entryNo,
      itemCode: r.itemCode,
      amountFen: r.amountFen,
      cause: refundCause(r.reason),
      state: r.lastError === null ? 'pending' : 'failing',
      attempts: r.attempts,
      lastError: r.lastError,
      createdAt: r.createdAt,
      nextAt: r.nextAt,
    })),
  };
}

/** Asks the provider for one refund owed of the race now (CLI refund-retry). */
export async function retryConsoleRefund(
  deps: ConsoleRefundDeps,
  raceId: string,
  refundNo: string,
  actor: AuditActor,
): Promise<ConsoleOutcome<ConsoleRetryOutcome>> {
  const refund = await deps.repos.payments.findRefund(refundNo);
  const order = refund && (await deps.repos.orders.findById(refund.orderId));
  if (!refund || order?.raceId !== raceId) return refuse(404, 'refundMissing', { refundNo });
  const outcome = await retryRefund({ ...deps, actor }, refundNo);
  if (!outcome.ok) return refusalOf(outcome);
  return {
    ok: true,
    value: {
      refundNo,
      result: outcome.result,
      attempts: outcome.refund.attempts,
      lastError: outcome.refund.lastError,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// An entry's payment at its provider
// ---------------------------------------------------------------------------------------------------------

interface Asked {
  payment: PaymentRecord;
  provider: PaymentProvider;
  state: PaymentState;
}

/** The entry's payment `paymentId` asked of the provider that made it; or the refusal. */
async function askProvider(
  deps: ConsoleRefundDeps,
  raceId: string,
  entryNo: string,
  paymentId: string,
): Promise<ConsoleOutcome<Asked>> {
  const { repos } = deps;
  const found = await findRaceEntry(repos, raceId, entryNo);
  if (!found) return refuse(404, 'entryNotFound');
  const payment = await repos.payments.findByPaymentId(paymentId);
  const orders = await repos.orders.ofEntry(found.entry.id);
  if (!payment || !orders.some((o) => o.id === payment.orderId)) return refuse(404, 'paymentMissing');
  if (payment.provider.startsWith(OFFLINE_PROVIDER_PREFIX)) return refuse(400, 'paymentOfflineQuery');
  const taker = providersOf(deps.provider).forPayment(payment.provider);
  if (!taker.ok) return refuse(400, 'paymentProviderUnavailable', { problem: taker.problem });
  try {
    const state = await taker.provider.query(payment.paymentId);
    return { ok: true, value: { payment, provider: taker.provider, state } };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return refuse(502, 'paymentQueryFailed', { problem: redactLogText(text).slice(0, 200) });
  }
}

const recordable = ({ payment, state }: Asked) =>
  state.status === 'paid' && payment.status !== 'paid' && state.amountFen === payment.amountFen;

/** The provider's state of the payment beside ours (reads only: nothing changes, nothing is logged). */
export async function queryEntryPayment(
  deps: ConsoleRefundDeps,
  raceId: string,
  entryNo: string,
  paymentId: string,
): Promise<ConsoleOutcome<ConsolePaymentQuery>> {
  const asked = await askProvider(deps, raceId, entryNo, paymentId);
  if (!asked.ok) return asked;
  const { payment, state } = asked.value;
  return {
    ok: true,
    value: {
      paymentId: payment.paymentId,
      provider: payment.provider,
      ours: { status: payment.status, tradeNo: payment.tradeNo, amountFen: payment.amountFen },
      theirs: { status: state.status, tradeNo: state.tradeNo, amountFen: state.amountFen, paidAt: state.paidAt },
      canRecord: recordable(asked.value),
    },
  };
}

/**
 * The provider says the payment is paid and we have not recorded it (its notification never arrived): asked
 * again, then recorded exactly as that notification would be (applyNotification under the notification id
 * `query:<paymentId>`: the order paid, or reinstated, or refunded when it can no longer be honoured; a repeat, or
 * the real notification arriving later, changes nothing). In the audit log as payment.record.
 */
export async function recordProviderPaid(
  deps: ConsoleRefundDeps,
  raceId: string,
  entryNo: string,
  paymentId: string,
  actor: AuditActor,
): Promise<ConsoleOutcome<ConsolePaymentRecorded>> {
  const asked = await askProvider(deps, raceId, entryNo, paymentId);
  if (!asked.ok) return asked;
  const { payment, provider, state } = asked.value;
  if (state.status !== 'paid') return refuse(400, 'paymentNotPaidThere', { status: state.status });
  if (state.amountFen !== payment.amountFen) {
    return refuse(400, 'paymentAmountDiffers', {
      theirs: formatFen(state.amountFen ?? 0),
      ours: formatFen(payment.amountFen),
    });
  }
  if (payment.status === 'paid') return { ok: true, value: { paymentId, outcome: 'alreadyPaid', fresh: false } };
  const at = deps.now();
  const result = await applyNotification(
    { repos: deps.repos, provider, now: deps.now },
    {
      notificationId: `query:${payment.paymentId}`,
      paymentId: payment.paymentId,
      status: 'paid',
      tradeNo: state.tradeNo ?? '',
      amountFen: state.amountFen,
      paidAt: state.paidAt ?? at,
    },
  );
  if (!result.accepted) return refuse(400, 'paymentMissing');
  const fresh = !result.repeated && result.outcome !== 'alreadyPaid';
  if (fresh) {
    const order = await deps.repos.orders.findById(payment.orderId);
    await appendAudit(
      deps.repos,
      actor,
      {
        action: 'payment.record',
        raceId,
        target: entryNo.trim().toUpperCase(),
        before: { paymentId, provider: payment.provider, status: payment.status },
        after: {
          paymentId,
          orderNo: order?.orderNo ?? null,
          status: 'paid',
          tradeNo: state.tradeNo,
          amountFen: state.amountFen,
          outcome: result.outcome,
        },
      },
      at,
    );
  }
  return { ok: true, value: { paymentId, outcome: String(result.outcome), fresh } };
}
