/**
 * The order lifecycle after submission (issue 14 §2, §4): a payment's notification (onPaid, with the late
 * "paid" after the automatic cancellation), the cancellation of unpaid orders at their deadline (cancelDue, run
 * by the job runner) and refunds (refundEntries, also used by the ballot for pay-then-draw losers).
 *
 * Each transition is one transaction of guarded updates (orders, entries, payments: UPDATE … WHERE status =
 * the status it leaves), so a repeated notification, a parallel delivery or a second run of the job changes
 * nothing. Calls to the provider (refund, close) are made after the transaction that decided them, never while
 * it holds the database; a refund is kept pending until the provider answers done. Amounts are integer fen.
 */
import { ENTRY_STATUSES, type EntryModel, type EntryStatus } from '#contract/entry';
import type { EntryRecord } from '../../db/entries-repository.ts';
import { poolOf } from '../../db/entries-repository.ts';
import type { OrderRecord, PaidFacts } from '../../db/orders-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { NotificationCheck, PaymentProvider, VerifiedNotification } from '../../lib/payment/provider.ts';
import { placeFreed } from './hooks.ts';

const { submitted, won, notWon, cancelled, refundReview, refunded } = ENTRY_STATUSES;

export interface LifecycleDeps {
  repos: Repositories;
  provider: PaymentProvider;
  now: () => number;
}

/** What a notification came to (kept as the notification's outcome). */
export type NotificationOutcome =
  'paid' | 'reinstated' | 'lateRefunded' | 'duplicatePayment' | 'alreadyPaid' | 'failed' | 'ignored';

export type NotificationResult =
  | { accepted: true; outcome: NotificationOutcome | string; repeated: boolean }
  | { accepted: false; reason: 'verificationFailed' | 'unknownPayment' | 'amountMismatch' };

/** The item's entry model from the race's settings (firstCome when the item is no longer listed). */
async function modelOf(repos: Repositories, raceId: string, itemCode: string): Promise<EntryModel> {
  const race = await repos.races.findById(raceId);
  return race?.entry?.items.find((item) => item.code === itemCode)?.model ?? 'firstCome';
}

/**
 * The status an entry has once its order is paid: guaranteed channels (direct, code, charity) and first-come
 * entries are registered (1); ballot winners stay won (1); pay-then-draw entries stay submitted (0) until the
 * draw.
 */
export function statusAfterPayment(entry: Pick<EntryRecord, 'channel' | 'status'>, model: EntryModel): EntryStatus {
  if (entry.status === won) return won;
  if (entry.channel === 'direct' || entry.channel === 'code' || entry.channel === 'charity') return won;
  if (model === 'firstCome') return won;
  return entry.status;
}

/** The note of the cancellation step: the status it left and whether it gave a place back ('was:1;place:1'). */
const cancelNote = (status: EntryStatus, heldPlace: boolean) => `was:${status};place:${heldPlace ? 1 : 0}`;

function parseCancelNote(note: string | undefined): { was: EntryStatus; place: boolean } | undefined {
  const match = /^was:([0-5]);place:([01])$/.exec(note ?? '');
  return match ? { was: Number(match[1]) as EntryStatus, place: match[2] === '1' } : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Payment notifications
// ---------------------------------------------------------------------------------------------------------

interface AfterCommit {
  refund?: { orderId: number; entryIds: number[]; reason: string };
  duplicate?: { paymentId: string; tradeNo: string; amountFen: number };
}

/**
 * A notification as the provider posted it: verified (bad signature: refused, nothing changes), then acted on
 * once (the payment_notifications key: a repeat or a parallel delivery answers the same and changes nothing).
 * The amount must equal the payment's.
 */
export async function handleNotification(
  deps: LifecycleDeps,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
): Promise<NotificationResult> {
  let check: NotificationCheck;
  try {
    check = await deps.provider.verifyNotification(headers, rawBody);
  } catch {
    check = { ok: false, reason: 'error' };
  }
  if (!check.ok) return { accepted: false, reason: 'verificationFailed' };
  return applyNotification(deps, check.notification);
}

/** Acts on a verified notification (see handleNotification). */
export async function applyNotification(deps: LifecycleDeps, n: VerifiedNotification): Promise<NotificationResult> {
  const { provider } = deps;
  const after: AfterCommit = {};
  const result = await deps.repos.transaction(async (tx): Promise<NotificationResult> => {
    const payment = await tx.payments.findByPaymentId(n.paymentId);
    if (!payment || payment.provider !== provider.name) return { accepted: false, reason: 'unknownPayment' };
    if (n.amountFen !== payment.amountFen) return { accepted: false, reason: 'amountMismatch' };
    const at = deps.now();
    const fresh = await tx.payments.recordNotification({
      provider: provider.name,
      notificationId: n.notificationId,
      paymentId: n.paymentId,
      outcome: 'received',
      now: at,
    });
    if (!fresh) {
      const outcome = (await tx.payments.notificationOutcome(provider.name, n.notificationId)) ?? 'received';
      return { accepted: true, outcome, repeated: true };
    }
    let outcome: NotificationOutcome;
    if (n.status === 'failed') {
      outcome = (await tx.payments.finish(n.paymentId, 'failed', at)) ? 'failed' : 'ignored';
    } else if (!(await tx.payments.markPaid(n.paymentId, n.tradeNo, at))) {
      outcome = 'alreadyPaid';
    } else {
      outcome = await onPaid(
        tx,
        payment.orderId,
        { paidFen: n.amountFen, paidAt: n.paidAt, serialNo: n.tradeNo },
        at,
        after,
      );
      if (outcome === 'duplicatePayment') {
        after.duplicate = { paymentId: n.paymentId, tradeNo: n.tradeNo, amountFen: n.amountFen };
      }
    }
    await tx.payments.setNotificationOutcome(provider.name, n.notificationId, outcome);
    return { accepted: true, outcome, repeated: false };
  });
  if (after.refund) await refundEntries(deps.repos, provider, { ...after.refund, now: deps.now });
  if (after.duplicate && after.duplicate.amountFen > 0) {
    // A second payment of an order already paid (or refunded): the money goes back whole.
    await provider.refund({
      refundNo: `DUP${after.duplicate.paymentId}`,
      paymentId: after.duplicate.paymentId,
      tradeNo: after.duplicate.tradeNo,
      amountFen: after.duplicate.amountFen,
      reason: 'duplicatePayment',
    });
  }
  return result;
}

/**
 * The order of a payment was paid (inside the notification's transaction): awaiting payment → paid with its
 * entries moved on (statusAfterPayment, step 'paid'); cancelled → reinstated when every entry can take its
 * place again (and its person has no other live entry), otherwise the payment is noted and refunded (entries
 * stay cancelled); already paid or refunded → a duplicate payment, refunded whole.
 */
async function onPaid(
  tx: Repositories,
  orderId: number,
  paid: PaidFacts,
  at: number,
  after: AfterCommit,
): Promise<NotificationOutcome> {
  const order = await tx.orders.findById(orderId);
  if (!order) return 'ignored';
  const models = new Map<string, EntryModel>();
  const model = async (itemCode: string) => {
    let m = models.get(itemCode);
    if (m === undefined) {
      m = await modelOf(tx, order.raceId, itemCode);
      models.set(itemCode, m);
    }
    return m;
  };

  if (await tx.orders.markPaid(orderId, paid)) {
    for (const entry of await tx.entries.ofOrder(orderId)) {
      if (entry.status !== submitted && entry.status !== won) continue;
      const to = statusAfterPayment(entry, await model(entry.itemCode));
      if (to !== entry.status) await tx.entries.setStatus(entry.id, [entry.status], to, 'paid', at);
      else await tx.entries.addEvent(entry.id, 'paid', at);
    }
    return 'paid';
  }
  const current = await tx.orders.findById(orderId);
  if (current?.status !== 4) return 'duplicatePayment';
  return (await reinstate(tx, current, paid, at, model)) ? 'reinstated' : lateRefund(tx, current, paid, after);
}

/** A late payment of a cancelled order: every entry back to where payment takes it, or nothing changed (false). */
async function reinstate(
  tx: Repositories,
  order: OrderRecord,
  paid: PaidFacts,
  at: number,
  model: (itemCode: string) => Promise<EntryModel>,
): Promise<boolean> {
  const entries = await tx.entries.ofOrder(order.id);
  const timelines = await tx.entries.events(entries.map((e) => e.id));
  const plans: { entry: EntryRecord; was: EntryStatus; place: boolean }[] = [];
  for (const entry of entries) {
    if (entry.status !== cancelled) return false;
    const steps = timelines.get(entry.id) ?? [];
    const last = [...steps].reverse().find((s) => s.step === 'cancelled');
    const note = parseCancelNote(last?.note);
    if (!note) return false;
    // The person registered again meanwhile: their one live entry of the race is the new one.
    if (await tx.entries.liveByCert(entry.raceId, entry.certHash)) return false;
    plans.push({ entry, ...note });
  }
  const held: number[] = [];
  for (const plan of plans) {
    if (!plan.place) continue;
    if (!(await tx.entries.holdPlace(plan.entry.id))) {
      for (const id of held) await tx.entries.releasePlace(id);
      return false;
    }
    held.push(plan.entry.id);
  }
  if (!(await tx.orders.markPaidAfterCancel(order.id, paid))) {
    for (const id of held) await tx.entries.releasePlace(id);
    return false;
  }
  for (const plan of plans) {
    const to = statusAfterPayment({ channel: plan.entry.channel, status: plan.was }, await model(plan.entry.itemCode));
    await tx.entries.setStatus(plan.entry.id, [cancelled], to, 'paid', at, 'reinstated');
  }
  return true;
}

/** A late payment that cannot be honoured: noted on the cancelled order, refunded after the transaction. */
async function lateRefund(
  tx: Repositories,
  order: OrderRecord,
  paid: PaidFacts,
  after: AfterCommit,
): Promise<NotificationOutcome> {
  if (!(await tx.orders.notePaidWhileCancelled(order.id, paid))) return 'duplicatePayment';
  const lines = await tx.orders.lines(order.id);
  after.refund = { orderId: order.id, entryIds: lines.map((l) => l.entryId), reason: 'latePayment' };
  return 'lateRefunded';
}

// ---------------------------------------------------------------------------------------------------------
// Places given back
// ---------------------------------------------------------------------------------------------------------

/**
 * Entries that no longer hold their place (cancelled, refunded, deferred) give it back, inside the caller's
 * transaction: holds_place 1 → 0 and the pool's taken − 1 (once per entry); places freed in a ballot item's main
 * pool go to the place-freed hooks (the wait list). Returns how many places were given back.
 */
export async function givePlacesBack(tx: Repositories, entries: readonly EntryRecord[], at: number): Promise<number> {
  const freed = new Map<string, { raceId: string; itemCode: string; n: number }>();
  let given = 0;
  for (const entry of entries) {
    if (!entry.holdsPlace || !(await tx.entries.releasePlace(entry.id))) continue;
    given += 1;
    // A pack pick-up slot booked for the place goes back too (issue 15 §2).
    if (await tx.pickup.releaseForEntry(entry.id, at)) await tx.entries.addEvent(entry.id, 'pickupCancelled', at);
    if (poolOf(entry.channel) === 'main' && (await modelOf(tx, entry.raceId, entry.itemCode)) === 'ballot') {
      const key = `${entry.raceId}\u0000${entry.itemCode}`;
      const item = freed.get(key) ?? { raceId: entry.raceId, itemCode: entry.itemCode, n: 0 };
      item.n += 1;
      freed.set(key, item);
    }
  }
  for (const item of freed.values()) await placeFreed(tx, { ...item, at });
  return given;
}

// ---------------------------------------------------------------------------------------------------------
// Cancellation at the deadline
// ---------------------------------------------------------------------------------------------------------

/**
 * Cancels the orders awaiting payment whose deadline has passed: order 1 → 4, its submitted or won entries →
 * cancelled (step 'cancelled'), their places given back; for ballot items the freed places go to the
 * place-freed hooks (the wait list) in the same transaction. Open payments are closed at the provider after.
 * Returns how many orders it cancelled.
 */
export async function cancelDue(deps: LifecycleDeps, limit = 100): Promise<number> {
  const { repos, provider } = deps;
  let count = 0;
  for (const due of await repos.orders.dueUnpaid(deps.now(), limit)) {
    const at = deps.now();
    const toClose = await repos.transaction(async (tx) => {
      if (!(await tx.orders.cancel(due.id, at))) return undefined;
      const left: EntryRecord[] = [];
      for (const entry of await tx.entries.ofOrder(due.id)) {
        if (entry.status !== submitted && entry.status !== won) continue;
        if (
          await tx.entries.setStatus(
            entry.id,
            [entry.status],
            cancelled,
            'cancelled',
            at,
            cancelNote(entry.status, entry.holdsPlace),
          )
        ) {
          left.push(entry);
        }
      }
      await givePlacesBack(tx, left, at);
      const open = await tx.payments.openOf(due.id);
      for (const payment of open) await tx.payments.finish(payment.paymentId, 'closed', at);
      return open;
    });
    if (toClose === undefined) continue;
    count += 1;
    for (const payment of toClose) {
      try {
        await provider.close(payment.paymentId);
      } catch {
        // A late "paid" of it is still handled (refunded or reinstated).
      }
    }
  }
  return count;
}

// ---------------------------------------------------------------------------------------------------------
// Refunds
// ---------------------------------------------------------------------------------------------------------

export interface RefundRequest {
  orderId: number;
  entryIds: number[];
  /** Why (one refund per order, entry and reason): 'latePayment', 'notWon', 'request:<id>' … */
  reason: string;
  /** The fen to refund per entry id when less than its whole line (a refund request's share); default the line. */
  amountsFen?: ReadonlyMap<number, number>;
  now?: () => number;
}

/**
 * Refunds the lines of these entries of a paid order at the provider, once per order, entry and reason
 * (refunds_entry_reason): a refund row (pending), the provider's refund, then in one transaction the row done,
 * the order's refunded amount (refunded, 5, once all it was paid is refunded) and the entries: refund under
 * review (4) → refunded (5); not won (2) and cancelled (3) entries keep their status with a 'refunded' step.
 * A refund the provider leaves pending stays pending (a later call finishes it). Returns the fen refunded now.
 */
export async function refundEntries(
  repos: Repositories,
  provider: PaymentProvider,
  request: RefundRequest,
): Promise<{ refundedFen: number; pending: number }> {
  const now = request.now ?? Date.now;
  const order = await repos.orders.findById(request.orderId);
  if (!order) return { refundedFen: 0, pending: 0 };
  const wanted = new Set(request.entryIds);
  const lines = (await repos.orders.lines(order.id)).filter((l) => wanted.has(l.entryId));
  const payment = await repos.payments.paidOf(order.id);

  await repos.transaction(async (tx) => {
    for (const line of lines) {
      const amountFen = Math.min(line.amountFen, request.amountsFen?.get(line.entryId) ?? line.amountFen);
      if (amountFen > 0 && payment) {
        await tx.payments.addRefund({
          orderId: order.id,
          entryId: line.entryId,
          amountFen,
          reason: request.reason,
          now: now(),
        });
      } else if (amountFen === 0) {
        // Nothing was paid for this line: it is refunded without the provider.
        await settleEntry(tx, line.entryId, now());
      }
    }
  });

  let refundedFen = 0;
  let pending = 0;
  const open = (await repos.payments.refundsOf(order.id)).filter(
    (r) => r.status === 'pending' && r.reason === request.reason && r.entryId !== null && wanted.has(r.entryId),
  );
  for (const refund of open) {
    if (!payment?.tradeNo) {
      pending += 1;
      continue;
    }
    const answer = await provider.refund({
      refundNo: refund.refundNo,
      paymentId: payment.paymentId,
      tradeNo: payment.tradeNo,
      amountFen: refund.amountFen,
      reason: request.reason,
    });
    if (answer.status !== 'done') {
      pending += 1;
      continue;
    }
    const done = await repos.transaction(async (tx) => {
      const at = now();
      if (!(await tx.payments.finishRefund(refund.refundNo, 'done', at))) return false;
      if (!(await tx.orders.markRefunded(order.id, refund.amountFen, at))) {
        throw new Error(`order ${order.orderNo}: the refund ${refund.refundNo} exceeds what was paid`);
      }
      if (refund.entryId !== null) await settleEntry(tx, refund.entryId, at);
      return true;
    });
    if (done) refundedFen += refund.amountFen;
  }
  return { refundedFen, pending };
}

/** An entry whose money went back: refund under review → refunded; not won and cancelled keep their status. */
async function settleEntry(tx: Repositories, entryId: number, at: number): Promise<void> {
  if (await tx.entries.setStatus(entryId, [refundReview], refunded, 'refunded', at)) return;
  const entry = await tx.entries.findById(entryId);
  if (entry && (entry.status === notWon || entry.status === cancelled))
    await tx.entries.addEvent(entryId, 'refunded', at);
}
