/**
 * The order lifecycle after submission (issue 14 §2, §4): a payment's notification (onPaid, with the late
 * "paid" after the automatic cancellation), the cancellation of unpaid orders at their deadline (cancelDue, run
 * by the job runner) and refunds (refundEntries, also used by the ballot for pay-then-draw losers).
 *
 * Each transition is one transaction of guarded updates (orders, entries, payments: UPDATE … WHERE status =
 * the status it leaves), so a repeated notification, a parallel delivery or a second run of the job changes
 * nothing. Calls to the provider (refund, close) are made after the transaction that decided them, never while
 * it holds the database; every refund is recorded in that transaction first (services/entry/refunds-owed.ts)
 * and kept pending, retried by the job runner, until the provider confirms it. Amounts are integer fen.
 */
import { promotionNote, type PlaceFreedHow } from '#contract/console-ballot';
import { ENTRY_STATUSES, type EntryModel, type EntryStatus } from '#contract/entry';
import type { EntryRecord } from '../../db/entries-repository.ts';
import { poolOf } from '../../db/entries-repository.ts';
import type { OrderRecord, PaidFacts } from '../../db/orders-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { NotificationCheck, PaymentProvider, VerifiedNotification } from '../../lib/payment/provider.ts';
import type { ProviderSource } from '../../lib/payment/registry.ts';
import { linesOfOrder, tellRunner } from './entry-messages.ts';
import { ballotLockKey, payFirstDrawn, promoteFromWaitList, tellLatePaymentAfterDraw } from './ballot.ts';
import { carryOutRefund, closeAtProviders, recordRefunds, REFUND_REASONS, refundEntries } from './refunds-owed.ts';

export { refundEntries, type RefundRequest } from './refunds-owed.ts';

const { submitted, won, cancelled } = ENTRY_STATUSES;

export interface LifecycleDeps {
  repos: Repositories;
  /** The providers (lib/payment/registry.ts): each payment is closed or refunded by the one that made it. */
  provider: ProviderSource;
  now: () => number;
}

/** A notification's deps: the provider that posted it (its notify path names it). */
export interface NotificationDeps extends LifecycleDeps {
  provider: PaymentProvider;
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
  /** A late payment's refund, recorded in the transaction: carried out after it. */
  refund?: { orderId: number; entryIds: number[]; reason: string };
  /** A double payment's refund number, recorded in the transaction: carried out after it. */
  duplicate?: string;
}

/**
 * Takes the ballot lock of each pay-first item among the order's entries, in one fixed order, before the
 * payment is acted on: a draw of the item and this payment then never interleave (the draw either sees the
 * order paid, or has closed it first).
 */
async function lockPayFirstBallots(tx: Repositories, orderId: number): Promise<void> {
  const order = await tx.orders.findById(orderId);
  const race = order && (await tx.races.findById(order.raceId));
  const payFirst = new Set(race?.entry?.items.filter((i) => i.model === 'payThenDraw').map((i) => i.code));
  if (!order || payFirst.size === 0) return;
  const items = new Set((await tx.entries.ofOrder(orderId)).map((e) => e.itemCode).filter((c) => payFirst.has(c)));
  const keys = [...items].sort().map((code) => ballotLockKey(order.raceId, code));
  if (keys.length > 0) await tx.db.lock(...keys);
}

/**
 * A notification as the provider posted it: verified (bad signature: refused, nothing changes), then acted on
 * once (the payment_notifications key: a repeat or a parallel delivery answers the same and changes nothing).
 * The amount must equal the payment's.
 */
export async function handleNotification(
  deps: NotificationDeps,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
): Promise<NotificationResult> {
  let check: NotificationCheck;
  try {
    check = await deps.provider.verifyNotification(headers, rawBody);
  } catch {
    check = { ok: false, reason: 'error' };
  }
  if (!check.ok && check.acknowledge) return { accepted: true, outcome: 'ignored', repeated: false };
  if (!check.ok) return { accepted: false, reason: 'verificationFailed' };
  return applyNotification(deps, check.notification);
}

/** Acts on a verified notification (see handleNotification). */
export async function applyNotification(deps: NotificationDeps, n: VerifiedNotification): Promise<NotificationResult> {
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
    } else {
      await lockPayFirstBallots(tx, payment.orderId);
      outcome = (await tx.payments.markPaid(n.paymentId, n.tradeNo, at))
        ? await onPaid(tx, payment.orderId, { paidFen: n.amountFen, paidAt: n.paidAt, serialNo: n.tradeNo }, at, after)
        : 'alreadyPaid';
      if (outcome === 'duplicatePayment' && n.amountFen > 0) {
        // A second payment of an order already paid (or refunded): the money goes back whole, recorded now.
        const refundNo = `DUP${n.paymentId}`;
        await tx.payments.addRefund({
          orderId: payment.orderId,
          entryId: null,
          amountFen: n.amountFen,
          reason: REFUND_REASONS.duplicatePayment,
          paymentId: n.paymentId,
          refundNo,
          now: at,
        });
        after.duplicate = refundNo;
      }
    }
    await tx.payments.setNotificationOutcome(provider.name, n.notificationId, outcome);
    return { accepted: true, outcome, repeated: false };
  });
  if (after.refund) await refundEntries(deps.repos, provider, { ...after.refund, now: deps.now });
  const duplicate = after.duplicate === undefined ? undefined : await deps.repos.payments.findRefund(after.duplicate);
  if (duplicate?.status === 'pending') await carryOutRefund(deps, duplicate);
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
  /** Who recorded the payment when the organiser did (an offline payment: payOrderOffline). */
  actor: string | null = null,
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
      const note = actor === null ? '' : 'offline';
      if (to !== entry.status) await tx.entries.setStatus(entry.id, [entry.status], to, 'paid', at, note, actor);
      else await tx.entries.addEvent(entry.id, 'paid', at, note, actor);
    }
    await tellPaid(tx, order, paid, at);
    return 'paid';
  }
  const current = await tx.orders.findById(orderId);
  if (current?.status !== 4) return 'duplicatePayment';
  if (!(await reinstate(tx, current, paid, at, model))) return lateRefund(tx, current, paid, at, after);
  // The runner was told the order was cancelled: now that it stands again, they are told it is paid.
  await tellPaid(tx, current, paid, at);
  return 'reinstated';
}

/** Thrown inside payOrderOffline's transaction when the order was not awaiting payment: nothing is kept. */
class NotAwaitingPayment extends Error {}

/**
 * A payment the organiser received offline (cash, a bank transfer…: the console's and the CLI's
 * entry-pay-offline), in one transaction: a payment of provider `provider` (offline:<method>) made paid with
 * the reference as its trade number, then the order paid exactly as a provider's notification pays it (onPaid:
 * its entries moved on with the step 'paid' by `actor`, the runner told), then `also` (the audit record). Only
 * an order awaiting payment (for its whole amount): false, nothing kept, otherwise.
 */
export async function payOrderOffline(
  repos: Repositories,
  orderId: number,
  input: { provider: string; reference: string; at: number; actor: string },
  also: (tx: Repositories) => Promise<void>,
): Promise<boolean> {
  const { provider, reference, at, actor } = input;
  try {
    return await repos.transaction(async (tx) => {
      await lockPayFirstBallots(tx, orderId);
      const order = await tx.orders.findById(orderId);
      if (order?.status !== 1) throw new NotAwaitingPayment();
      const payment = await tx.payments.create({ orderId, provider, amountFen: order.amountFen, now: at });
      if (!(await tx.payments.markPaid(payment.paymentId, reference, at))) throw new NotAwaitingPayment();
      const paid = { paidFen: order.amountFen, paidAt: at, serialNo: reference };
      if ((await onPaid(tx, orderId, paid, at, {}, actor)) !== 'paid') throw new NotAwaitingPayment();
      await also(tx);
      return true;
    });
  } catch (error) {
    if (error instanceof NotAwaitingPayment) return false;
    throw error;
  }
}

/** The runner's message that an order is paid, with its lines (once per order: the outbox's dedupe key). */
async function tellPaid(tx: Repositories, order: OrderRecord, paid: PaidFacts, at: number): Promise<void> {
  const lines = await linesOfOrder(tx, order.id, order.raceId);
  const event = { kind: 'paid', lines, orderNo: order.orderNo, amountFen: paid.paidFen } as const;
  await tellRunner(tx, order.raceId, order.userId, `paid:${order.orderNo}`, event, at);
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
    // Back to awaiting a draw that has taken place: it could never be drawn (refunded instead).
    if (note.was === submitted && (await payFirstDrawn(tx, entry.raceId, entry.itemCode))) return false;
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

/**
 * A late payment that cannot be honoured: noted on the cancelled order and its refund recorded in the
 * transaction, carried out after it. A pay-first entry whose item was drawn meanwhile could never be drawn:
 * its runner is told why the money goes back.
 */
async function lateRefund(
  tx: Repositories,
  order: OrderRecord,
  paid: PaidFacts,
  at: number,
  after: AfterCommit,
): Promise<NotificationOutcome> {
  if (!(await tx.orders.notePaidWhileCancelled(order.id, paid))) return 'duplicatePayment';
  const lines = await tx.orders.lines(order.id);
  const refund = { orderId: order.id, entryIds: lines.map((l) => l.entryId), reason: REFUND_REASONS.latePayment };
  await recordRefunds(tx, { ...refund, at });
  after.refund = refund;
  for (const entry of await tx.entries.ofOrder(order.id)) {
    if (!(await payFirstDrawn(tx, entry.raceId, entry.itemCode))) continue;
    const line = lines.find((l) => l.entryId === entry.id);
    await tellLatePaymentAfterDraw(tx, entry, line?.amountFen ?? entry.feeFen, at);
  }
  return 'lateRefunded';
}

// ---------------------------------------------------------------------------------------------------------
// Places given back
// ---------------------------------------------------------------------------------------------------------

/**
 * Entries that no longer hold their place (cancelled unpaid, refunded, deferred) give it back, inside the
 * caller's transaction: holds_place 1 → 0 and the pool's taken − 1 (once per entry). Every way a place is
 * freed comes here, so places freed in a ballot item's main pool go to its wait list the same way, whichever
 * process frees them (the server's job, the organiser's CLI): promoteFromWaitList in the same transaction, with
 * `how` (the place was freed by …) as the reason of the promotion. Returns how many places were given back.
 */
export async function givePlacesBack(
  tx: Repositories,
  entries: readonly EntryRecord[],
  at: number,
  how: PlaceFreedHow = 'givenBack',
): Promise<number> {
  // The ballot items whose wait list may take the places: their locks first (as the draw takes them), in one order.
  const ballots = new Map<string, { raceId: string; itemCode: string }>();
  for (const entry of entries) {
    if (!entry.holdsPlace || poolOf(entry.channel) !== 'main') continue;
    if ((await modelOf(tx, entry.raceId, entry.itemCode)) !== 'ballot') continue;
    ballots.set(ballotLockKey(entry.raceId, entry.itemCode), { raceId: entry.raceId, itemCode: entry.itemCode });
  }
  if (ballots.size > 0) await tx.db.lock(...[...ballots.keys()].sort());
  const freed = new Map<string, string[]>();
  let given = 0;
  for (const entry of entries) {
    if (!entry.holdsPlace || !(await tx.entries.releasePlace(entry.id))) continue;
    given += 1;
    // A pack pick-up slot booked for the place goes back too (issue 15 §2).
    if (await tx.pickup.releaseForEntry(entry.id, at)) await tx.entries.addEvent(entry.id, 'pickupCancelled', at);
    const key = ballotLockKey(entry.raceId, entry.itemCode);
    freed.set(key, [...(freed.get(key) ?? []), entry.entryNo]);
  }
  for (const [key, item] of ballots) {
    const numbers = freed.get(key);
    if (numbers) await promoteFromWaitList(tx, { ...item, now: at, why: promotionNote(numbers, how) });
  }
  return given;
}

// ---------------------------------------------------------------------------------------------------------
// Cancellation at the deadline
// ---------------------------------------------------------------------------------------------------------

/**
 * Cancels the orders awaiting payment whose deadline has passed: order 1 → 4, its submitted or won entries →
 * cancelled (step 'cancelled'), their places given back; for ballot items the freed places go to the wait
 * list in the same transaction (givePlacesBack). Open payments are closed after, each at its provider.
 * Returns how many orders it cancelled.
 */
export async function cancelDue(deps: LifecycleDeps, limit = 100): Promise<number> {
  const { repos } = deps;
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
      await givePlacesBack(tx, left, at, 'unpaid');
      const lines = await linesOfOrder(tx, due.id, due.raceId);
      const event = { kind: 'cancelledUnpaid', lines, orderNo: due.orderNo } as const;
      await tellRunner(tx, due.raceId, due.userId, `cancelled:${due.orderNo}`, event, at);
      const open = await tx.payments.openOf(due.id);
      for (const payment of open) await tx.payments.finish(payment.paymentId, 'closed', at);
      return open;
    });
    if (toClose === undefined) continue;
    count += 1;
    // Each at the provider that made it; a late "paid" of one is still handled (refunded or reinstated).
    await closeAtProviders(deps.provider, toClose);
  }
  return count;
}
