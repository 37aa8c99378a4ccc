/**
 * Refunds owed (issue 27 §1): every refund is a row of `refunds` before the provider is asked, written in the
 * transaction that decided it (the draw's losers, a late payment, a double payment's second charge, an
 * approved request), so a process that dies right after loses none. A pending row is carried out by
 * `carryOutRefund`: the provider's refund under the row's number (the same number twice refunds once), then
 * in one transaction the row done, the order's refunded amount and the entry. A call that throws, answers
 * failure or leaves the refund pending is counted on the row (attempts, last error) and tried again after a
 * backoff (30 s doubling, at most 1 h), for as long as it takes: the job runner's sweep (`carryOutDueRefunds`,
 * routes/entry/payment.ts) runs the due ones every minute. The organiser sees what is still owed
 * (`refundsOwed`: CLI refunds-owed, and the web console) and may retry one now (`retryRefund`).
 *
 * Amounts are integer fen.
 */
import { ENTRY_STATUSES } from '#contract/entry';
import { refundProblemText, type OwedRefundCause } from '#contract/console-refunds';
import type { OwedRefund, RefundRecord } from '../../db/payments-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { redactLogText } from '../../lib/log-redaction.ts';
import { providersOf, type ProviderSource } from '../../lib/payment/registry.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

const { notWon, cancelled, refundReview, refunded } = ENTRY_STATUSES;

/** Why money goes back: the reasons the server itself gives (a request's refund is `request:<id>`). */
export const REFUND_REASONS = {
  /** A loser of a pay-first draw. */
  notWon: 'notWon',
  /** A payment that arrived after its order was cancelled (deadline passed, or the draw closed it). */
  latePayment: 'latePayment',
  /** The second charge of an order already paid: the whole payment goes back, the order is untouched. */
  duplicatePayment: 'duplicatePayment',
  /** A refund on the organiser's initiative (the console, CLI entry-refund): once per order and entry. */
  organiser: 'organiser',
} as const;

/** Why a refund was made, for staff (an approved request's reason starts with 'request:'). */
export function refundCause(reason: string): OwedRefundCause {
  if (reason.startsWith('request:')) return 'request';
  return (Object.values(REFUND_REASONS) as string[]).includes(reason) ? (reason as OwedRefundCause) : 'other';
}

/** The audit log's actions of the organiser's refund decisions (console and CLI alike). */
export const REFUND_AUDIT = {
  approve: 'refund.approve',
  reject: 'refund.reject',
  retry: 'refund.retry',
} as const;

export interface RefundDeps {
  repos: Repositories;
  /** The providers (lib/payment/registry.ts): each refund goes to the one that took its payment. */
  provider: ProviderSource;
  now: () => number;
}

/** How long a sweep holds a refund it is carrying out (a call to the provider takes far less). */
export const REFUND_CLAIM_MS = 5 * 60_000;

/** The wait before the next try of a refund whose `attempts`-th call did not confirm it: 30 s doubling, at most 1 h. */
export const refundRetryMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

export interface RefundRequest {
  orderId: number;
  entryIds: number[];
  /** Why (one refund per order, entry and reason): REFUND_REASONS or 'request:<id>'. */
  reason: string;
  /** The fen to refund per entry id when less than its whole line (a refund request's share); default the line. */
  amountsFen?: ReadonlyMap<number, number>;
  now?: () => number;
}

/**
 * Records the refunds of these entries' lines of an order, inside the caller's transaction: a pending row per
 * line with money (once per order, entry and reason: a repeat adds nothing); a line of 0 fen is settled at
 * once (nothing to give back). The rows are carried out later (refundEntries, the sweep).
 */
export async function recordRefunds(
  tx: Repositories,
  request: Omit<RefundRequest, 'now'> & { at: number },
): Promise<void> {
  const wanted = new Set(request.entryIds);
  const lines = (await tx.orders.lines(request.orderId)).filter((l) => wanted.has(l.entryId));
  if (lines.length === 0) return;
  const payment = await tx.payments.paidOf(request.orderId);
  for (const line of lines) {
    const amountFen = Math.min(line.amountFen, request.amountsFen?.get(line.entryId) ?? line.amountFen);
    if (amountFen > 0) {
      await tx.payments.addRefund({
        orderId: request.orderId,
        entryId: line.entryId,
        amountFen,
        reason: request.reason,
        paymentId: payment?.paymentId ?? null,
        now: request.at,
      });
    } else {
      await settleEntry(tx, line.entryId, request.at);
    }
  }
}

/**
 * Refunds the lines of these entries of a paid order: recorded (recordRefunds, its own transaction), then
 * carried out at once. A refund the provider does not confirm stays pending for the sweep. Returns the fen
 * confirmed now and how many stay pending.
 */
export async function refundEntries(
  repos: Repositories,
  provider: ProviderSource,
  request: RefundRequest,
): Promise<{ refundedFen: number; pending: number }> {
  const now = request.now ?? Date.now;
  if (!(await repos.orders.findById(request.orderId))) return { refundedFen: 0, pending: 0 };
  await repos.transaction((tx) => recordRefunds(tx, { ...request, at: now() }));
  const wanted = new Set(request.entryIds);
  const open = (await repos.payments.refundsOf(request.orderId)).filter(
    (r) => r.status === 'pending' && r.reason === request.reason && r.entryId !== null && wanted.has(r.entryId),
  );
  let refundedFen = 0;
  let pending = 0;
  for (const refund of open) {
    const result = await carryOutRefund({ repos, provider, now }, refund);
    if (result === 'done') refundedFen += refund.amountFen;
    else if (result === 'pending') pending += 1;
  }
  return { refundedFen, pending };
}

/** What a failed call leaves as the refund's last error: masked (no personal numbers) and short. */
function problemOf(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return redactLogText(text).slice(0, 300);
}

/**
 * One pending refund at the provider that took its payment (payments.provider, through the registry: a provider
 * switched off since is made from its factory; one that cannot be made leaves the refund owed, saying why). Confirmed: in one transaction the row done, the order's refunded amount
 * (not for a double payment, which was never part of the order's amount) and the entry (refund under review →
 * refunded; not won and cancelled keep their status with a 'refunded' step). Otherwise (the call threw,
 * failed, left it pending, or there is no payment to refund) the attempt is counted with its answer and the
 * next try set after the backoff. Answers 'done' when this call settled it, 'settled' when another did
 * meanwhile (a parallel run). Never throws for the provider's sake.
 */
export async function carryOutRefund(deps: RefundDeps, refund: RefundRecord): Promise<'done' | 'settled' | 'pending'> {
  const { repos, provider, now } = deps;
  let problem: string;
  try {
    const payment =
      refund.paymentId !== null
        ? await repos.payments.findByPaymentId(refund.paymentId)
        : await repos.payments.paidOf(refund.orderId);
    const taker = payment && providersOf(provider).forPayment(payment.provider);
    if (!payment || payment.status !== 'paid' || !payment.tradeNo || !taker) {
      problem = refundProblemText('noPayment');
    } else if (!taker.ok) {
      problem = taker.problem;
    } else {
      const answer = await taker.provider.refund({
        refundNo: refund.refundNo,
        paymentId: payment.paymentId,
        tradeNo: payment.tradeNo,
        amountFen: refund.amountFen,
        reason: refund.reason,
      });
      if (answer.status === 'done') return (await settleRefund(repos, refund, now())) ? 'done' : 'settled';
      problem =
        answer.status === 'failed'
          ? refundProblemText('refused', answer.reason ?? '')
          : refundProblemText('unconfirmed');
    }
  } catch (error) {
    problem = problemOf(error);
  }
  const at = now();
  await repos.payments.noteRefundAttempt(
    refund.refundNo,
    problem.slice(0, 300),
    at + refundRetryMs(refund.attempts + 1),
  );
  return 'pending';
}

/** The row done with the order and the entry, in one transaction; false when another run settled it first. */
async function settleRefund(repos: Repositories, refund: RefundRecord, at: number): Promise<boolean> {
  return repos.transaction((tx) => settleRefundIn(tx, refund, at));
}

/**
 * A pending refund settled inside the caller's transaction: the row done, the order's refunded amount (not for
 * a double payment) and the entry. Also for money given back by hand (an order paid offline, which no provider
 * can refund: the organiser's refund is recorded as done at once). False when it was settled before.
 */
export async function settleRefundIn(tx: Repositories, refund: RefundRecord, at: number): Promise<boolean> {
  if (!(await tx.payments.finishRefund(refund.refundNo, 'done', at))) return false;
  if (refund.reason === REFUND_REASONS.duplicatePayment) return true;
  if (!(await tx.orders.markRefunded(refund.orderId, refund.amountFen, at))) {
    throw new Error(`the refund ${refund.refundNo} exceeds what its order was paid`);
  }
  if (refund.entryId !== null) await settleEntry(tx, refund.entryId, at);
  return true;
}

/** An entry whose money went back: refund under review → refunded; not won and cancelled keep their status. */
async function settleEntry(tx: Repositories, entryId: number, at: number): Promise<void> {
  if (await tx.entries.setStatus(entryId, [refundReview], refunded, 'refunded', at)) return;
  const entry = await tx.entries.findById(entryId);
  if (entry && (entry.status === notWon || entry.status === cancelled)) {
    await tx.entries.addEvent(entryId, 'refunded', at);
  }
}

/**
 * One pending refund carried out if this call claims it first (its next try due now: a fresh refund, or one
 * whose backoff is over): of two callers at once (two approvals of one request) one asks the provider, the
 * other answers 'pending' and leaves it to the first. A refund in its backoff is left to the sweep or a retry.
 */
export async function carryOutClaimed(deps: RefundDeps, refund: RefundRecord): Promise<'done' | 'settled' | 'pending'> {
  const at = deps.now();
  if (!(await deps.repos.payments.claimDueRefund(refund.refundNo, at, at + REFUND_CLAIM_MS))) return 'pending';
  return carryOutRefund(deps, refund);
}

/**
 * The sweep of the job runner: carries out every pending refund whose next try is due, in batches, until none
 * is due (a refund that is not confirmed is due again only after its backoff, so each is tried once a sweep).
 */
export async function carryOutDueRefunds(
  deps: RefundDeps,
  batchSize = 100,
): Promise<{ done: number; pending: number }> {
  let done = 0;
  let pending = 0;
  for (;;) {
    const due = await deps.repos.payments.dueRefunds(deps.now(), batchSize);
    for (const refund of due) {
      // Claimed first: a sweep running in parallel (two slots of the job in one batch, two instances) does
      // not ask the provider for the same refund again. A claim outlives a process that dies: tried after it.
      const at = deps.now();
      if (!(await deps.repos.payments.claimDueRefund(refund.refundNo, at, at + REFUND_CLAIM_MS))) continue;
      const result = await carryOutRefund(deps, refund);
      if (result === 'done') done += 1;
      else if (result === 'pending') pending += 1;
    }
    if (due.length < batchSize) return { done, pending };
  }
}

/**
 * Closes open payments at the provider that made each (after the transaction that closed them here): a closed
 * payment takes no money. A provider that fails or cannot be made is passed over: a late "paid" of the payment
 * is still handled (reinstated or refunded, order-transitions.ts).
 */
export async function closeAtProviders(
  source: ProviderSource | undefined,
  payments: readonly { paymentId: string; provider: string }[],
): Promise<void> {
  if (!source) return;
  const providers = providersOf(source);
  for (const payment of payments) {
    const taker = providers.forPayment(payment.provider);
    if (!taker.ok) continue;
    try {
      await taker.provider.close(payment.paymentId);
    } catch {
      // refunded or reinstated if it is paid after all
    }
  }
}

/** Refunds not confirmed yet, oldest first (of one race when given): the organiser's list (CLI, web console). */
export async function refundsOwed(repos: Repositories, raceId?: string): Promise<OwedRefund[]> {
  return repos.payments.owedRefunds(raceId);
}

export type RetryOutcome =
  | { ok: true; refund: RefundRecord; result: 'done' | 'settled' | 'pending' }
  | { ok: false; problem: string; code: 'refundMissing' | 'refundNotOwed'; params: { refundNo: string } };

/**
 * Tries one pending refund now, whatever its next try: the organiser's "retry" (CLI refund-retry, the web
 * console), in the audit log (refund.retry, with what the provider answered). Claimed first on the next try
 * it was read with: of two retries at once, one asks the provider. Without a provider (a command line that
 * does not know the server's) the refund is only made due now, for the server's sweep.
 */
export async function retryRefund(
  deps: Omit<RefundDeps, 'provider'> & { provider?: ProviderSource; actor: AuditActor },
  refundNo: string,
): Promise<RetryOutcome> {
  const { repos } = deps;
  const refund = await repos.payments.findRefund(refundNo);
  if (!refund) return { ok: false, problem: `No refund ${refundNo}.`, code: 'refundMissing', params: { refundNo } };
  if (refund.status !== 'pending') {
    return {
      ok: false,
      problem: `Refund ${refundNo} is ${refund.status}: nothing owed.`,
      code: 'refundNotOwed',
      params: { refundNo },
    };
  }
  const order = await repos.orders.findById(refund.orderId);
  const audit = (result: string, after: RefundRecord) =>
    appendAudit(
      repos,
      deps.actor,
      {
        action: REFUND_AUDIT.retry,
        raceId: order?.raceId ?? null,
        target: refundNo,
        before: { attempts: refund.attempts, lastError: refund.lastError },
        after: { result, status: after.status, attempts: after.attempts, lastError: after.lastError },
      },
      deps.now(),
    );
  if (!deps.provider) {
    await repos.payments.refundDueAt(refundNo, deps.now());
    await audit('due', refund);
    return { ok: true, refund, result: 'pending' };
  }
  const at = deps.now();
  let result: 'done' | 'settled' | 'pending' = 'pending';
  if (await repos.payments.claimRefund(refundNo, at, at + REFUND_CLAIM_MS)) {
    result = await carryOutRefund({ ...deps, provider: deps.provider }, refund);
  }
  const after = (await repos.payments.findRefund(refundNo)) ?? refund;
  await audit(result, after);
  return { ok: true, refund: after, result };
}
