/**
 * The organiser's actions on one entry (issue 30 §5), from the console (routes/admin) and the CLI (entry-*
 * commands) alike: edit the form's answers, cancel, transfer to another person, record an offline payment,
 * refund on the organiser's initiative, assign or change the bib. Each needs a reason (contract/console-entry.ts
 * entryReason) and, in the transaction that makes the change, is written to the audit log (who, before and
 * after, personal numbers masked: services/staff/audit.ts) and to the entry's timeline with who did it
 * (entry_events.actor), and the runner is told through the outbox as the site's own messages are
 * (services/entry/entry-messages.ts). The rules are the site's own, reused, never copied:
 *
 * - answers and transfers: the published form of the race's form channel checked as the sign-up checks it
 *   (services/entry/submit/people.ts checkPeople: the form's rules, the item's ages, the certificate), one live
 *   entry per person and race (the entries_person index);
 * - cancel: the place given back and the wait list moved on (order-transitions.ts givePlacesBack); an unpaid
 *   order whose entries are all cancelled is cancelled with them. A later payment of it is refunded, never
 *   reinstated (the cancellation's note is not the deadline's). A paid entry's line is refunded with it when
 *   asked (`refund`: recorded in the same transaction, as the organiser's refund below);
 * - offline payment: the order paid as a provider's notification pays it (order-transitions.ts payOrderOffline);
 * - refund: recorded in the refunds table first (refunds-owed.ts recordRefunds, reason 'organiser': once per
 *   order and entry), carried out through the provider and retried by the job runner until it is confirmed; a
 *   whole refund of a live entry also gives its place back, the entry refunded (5) once the money is back. An
 *   order paid offline is given back by hand: its refund is recorded as done at once;
 * - bib: the bib rule (contract/rules.ts checkBib) under the race's bib lock, unique in the race (the
 *   entries_bib index, and the imported registrations' bibs), as bibs-assign gives them.
 */
import type { ConsoleMessageCode } from '#contract/console-messages';
import {
  ENTRY_REASON_MAX,
  entryReason,
  isOfflinePaymentMethod,
  OFFLINE_PROVIDER_PREFIX,
  OFFLINE_REFERENCE_MAX,
} from '#contract/console-entry';
import { ENTRY_STATUSES, formatFen } from '#contract/entry';
import type { MessageParams, Refusal } from '#contract/messages';
import { checkBib } from '#contract/rules';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { EntryRecord } from '../../db/entries-repository.ts';
import type { OrderRecord } from '../../db/orders-repository.ts';
import { bibLock } from '../../db/race-center-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { FileStore } from '../../lib/file-store.ts';
import type { ProviderSource } from '../../lib/payment/registry.ts';
import { checkPeople } from '../entry/submit/people.ts';
import { givePlacesBack, payOrderOffline } from '../entry/order-transitions.ts';
import { tellRunner, type EntryEvent as RunnerEvent, type MessageLine } from '../entry/entry-messages.ts';
import {
  closeAtProviders,
  recordRefunds,
  REFUND_REASONS,
  refundEntries,
  settleRefundIn,
  type RefundRequest,
} from '../entry/refunds-owed.ts';
import { formChannelOf, itemOf } from '../entry/views.ts';
import { publishedForm } from '../registration/published-forms.ts';
import { appendAudit, cliActorName, type AuditActor } from '../staff/audit.ts';
import { answersOf, findRaceEntry, maskedAnswer } from './entry-detail.ts';

const { submitted, won, cancelled, refundReview } = ENTRY_STATUSES;

export interface EntryActionDeps {
  repos: Repositories;
  /** Uploads of the form's file fields (the runner's own). */
  files: FileStore;
  /**
   * The payment providers (refunds, closing open payments: each through the provider that took or made the
   * payment); absent on a CLI that knows none.
   */
  provider?: ProviderSource;
  now: () => number;
}

export type EntryActionRefusal = {
  ok: false;
  status: number;
  code: ConsoleMessageCode;
  params?: MessageParams;
  /** The form's refusals by field key (entryAnswersInvalid). */
  fields?: Record<string, Refusal>;
};
export type EntryActionOutcome<T> = { ok: true; value: T } | EntryActionRefusal;

const refuse = (status: number, code: ConsoleMessageCode, params?: MessageParams): EntryActionRefusal => ({
  ok: false,
  status,
  code,
  ...(params ? { params } : {}),
});

/** Thrown inside a transaction to roll it back with this refusal. */
class Refused extends Error {
  constructor(readonly refusal: EntryActionRefusal) {
    super(refusal.code);
  }
}

/** Who took a step, as the entry's timeline keeps it (EntryEvent.actor). */
export const timelineActor = (actor: AuditActor): string =>
  actor.kind === 'staff' ? `staff:${actor.staffId}` : cliActorName();

const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

interface Context {
  race: RaceInfo;
  entry: EntryRecord;
  reason: string;
  at: number;
  who: string;
}

/** The reason checked and the entry found, or the refusal. */
async function start(
  deps: EntryActionDeps,
  raceId: string,
  entryNo: string,
  rawReason: unknown,
  actor: AuditActor,
): Promise<EntryActionOutcome<Context>> {
  const reason = entryReason(rawReason);
  if (reason === undefined) return refuse(400, 'entryReasonRequired', { max: ENTRY_REASON_MAX });
  const found = await findRaceEntry(deps.repos, raceId, entryNo);
  if (!found) return refuse(404, 'entryNotFound');
  return { ok: true, value: { ...found, reason, at: deps.now(), who: timelineActor(actor) } };
}

/** Runs `work` in one transaction; a Refused thrown inside rolls it back and is answered. */
async function inTransaction<T>(
  repos: Repositories,
  work: (tx: Repositories) => Promise<T>,
): Promise<EntryActionOutcome<T>> {
  try {
    return { ok: true, value: await repos.transaction(work) };
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

/** The entry as a message names it. */
const lineOf = (race: RaceInfo, entry: Pick<EntryRecord, 'entryNo' | 'name' | 'itemCode'>): MessageLine => ({
  entryNo: entry.entryNo,
  name: entry.name,
  itemName: itemOf(race.entry, entry.itemCode)?.name ?? { zh: entry.itemCode, en: entry.itemCode },
});

const tell = (tx: Repositories, c: Context, key: string, event: RunnerEvent) =>
  tellRunner(tx, c.race, c.entry.userId, `${key}:${c.entry.entryNo}:${c.at}`, event, c.at);

// ---------------------------------------------------------------------------------------------------------
// The form's answers, and a transfer to another person
// ---------------------------------------------------------------------------------------------------------

/** What the audit log keeps of a person: the form's answers by key, personal numbers masked. */
const personRecord = (fields: Parameters<typeof answersOf>[0], entry: Pick<EntryRecord, 'name'>, values: object) => ({
  name: entry.name,
  answers: Object.fromEntries(answersOf(fields, values as Record<string, unknown>).map((a) => [a.key, a.value])),
});

/**
 * The sent values checked by the published form's rules as the sign-up checks a person; or the refusal. An
 * edit (`keepMasked`) may send a certificate number or phone back masked as the page shows it: the stored one
 * is kept (the page never holds the whole number unless the member opened it).
 */
async function checkedPerson(deps: EntryActionDeps, c: Context, sent: unknown, keepMasked: boolean) {
  const { repos } = deps;
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) {
    return { ok: false as const, refusal: refuse(400, 'entryAnswersInvalid') };
  }
  const published = await publishedForm(repos, c.race.raceId, formChannelOf(c.race.entry));
  const item = itemOf(c.race.entry, c.entry.itemCode);
  if (!published || !item) return { ok: false as const, refusal: refuse(400, 'entryChannelFormMissing') };
  const values = { ...(sent as Record<string, unknown>) };
  if (keepMasked) {
    const stored = await repos.entries.valuesOf(c.entry.id);
    for (const field of published.form.fields) {
      const was = stored[field.key];
      if (typeof was === 'string' && values[field.key] !== was && values[field.key] === maskedAnswer(field, was)) {
        values[field.key] = was;
      }
    }
  }
  const checked = await checkPeople(
    repos,
    deps.files,
    published.form,
    { item, code: undefined, directHash: null },
    { raceId: c.race.raceId, raceDate: (c.race.startTime ?? '').slice(0, 10) },
    c.entry.userId,
    [values],
  );
  if (!checked.ok) {
    const fields = Object.fromEntries(Object.entries(checked.fields).map(([key, r]) => [key.replace(/^0\./, ''), r]));
    return { ok: false as const, refusal: { ...refuse(400, 'entryAnswersInvalid'), fields } };
  }
  return { ok: true as const, person: checked.people[0]!, fields: published.form.fields };
}

async function replacePerson(
  deps: EntryActionDeps,
  raceId: string,
  entryNo: string,
  input: { values?: unknown; reason?: unknown },
  actor: AuditActor,
  kind: 'edit' | 'transfer',
): Promise<EntryActionOutcome<{ entryNo: string }>> {
  const started = await start(deps, raceId, entryNo, input.reason, actor);
  if (!started.ok) return started;
  const c = started.value;
  const { entry } = c;
  if (kind === 'transfer') {
    if (c.race.entry?.allowTransfer !== true) return refuse(400, 'entryTransferOff');
    if (entry.status !== won) return refuse(400, 'entryNotRegistered');
  }
  const checked = await checkedPerson(deps, c, input.values, kind === 'edit');
  if (!checked.ok) return checked.refusal;
  const { person, fields } = checked;
  if (kind === 'transfer' && person.certHash === entry.certHash) return refuse(400, 'entryTransferSamePerson');
  const other = await deps.repos.entries.liveByCert(raceId, person.certHash);
  if (other && other.id !== entry.id) return refuse(400, 'entryPersonLive');
  const before = personRecord(fields, entry, await deps.repos.entries.valuesOf(entry.id));
  const after = personRecord(fields, person, person.values);
  try {
    return await inTransaction(deps.repos, async (tx) => {
      if (!(await tx.entries.replacePerson(entry.id, person, entry.updatedAt, c.at))) {
        throw new Refused(refuse(409, 'entryChangedMeanwhile'));
      }
      const step = kind === 'edit' ? 'answersEdited' : 'transferred';
      await tx.entries.addEvent(entry.id, step, c.at, c.reason, c.who);
      await appendAudit(
        tx,
        actor,
        { action: `entry.${kind}`, raceId, target: entry.entryNo, before, after: { ...after, reason: c.reason } },
        c.at,
      );
      const line = lineOf(c.race, { ...entry, name: person.name });
      await tell(
        tx,
        c,
        step,
        kind === 'edit'
          ? { kind: 'answersEdited', lines: [line] }
          : { kind: 'transferred', lines: [line], fromName: entry.name },
      );
      return { entryNo: entry.entryNo };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse(400, 'entryPersonLive');
    throw error;
  }
}

/** Edits the form's answers of the entry's person (the same rules as the form). */
export const editEntryAnswers = (
  deps: EntryActionDeps,
  raceId: string,
  entryNo: string,
  input: { values?: unknown; reason?: unknown },
  actor: AuditActor,
) => replacePerson(deps, raceId, entryNo, input, actor, 'edit');

/** Transfers a registered entry to another person (when the race allows it: entry.allowTransfer). */
export const transferEntry = (
  deps: EntryActionDeps,
  raceId: string,
  entryNo: string,
  input: { values?: unknown; reason?: unknown },
  actor: AuditActor,
) => replacePerson(deps, raceId, entryNo, input, actor, 'transfer');

// ---------------------------------------------------------------------------------------------------------
// Cancel
// ---------------------------------------------------------------------------------------------------------

export interface CancelResult {
  entryNo: string;
  /** A place was given back (to the wait list of a ballot item). */
  placeGiven: boolean;
  /** The unpaid order was cancelled with it. */
  orderCancelled: boolean;
  /** What the entry's paid order holds for it: refund it apart (entry-refund) if the money goes back. */
  paidFen: number;
  /** Refunded with the cancellation (`refund`): the fen recorded, and how many the provider has not confirmed yet. */
  refund: { amountFen: number; refundedFen: number; pending: number; offline: boolean } | null;
}

/** Cancels a submitted or registered entry (see the file's comment). */
export async function cancelEntry(
  deps: EntryActionDeps,
  raceId: string,
  entryNo: string,
  input: { reason?: unknown; refund?: unknown },
  actor: AuditActor,
): Promise<EntryActionOutcome<CancelResult>> {
  const started = await start(deps, raceId, entryNo, input.reason, actor);
  if (!started.ok) return started;
  const c = started.value;
  const { entry } = c;
  if (entry.status !== submitted && entry.status !== won) return refuse(400, 'entryNotCancellable');
  // Refunded with it when asked: what is left of the entry's line of its paid order, once per order.
  let refund: { request: Omit<RefundRequest, 'now'>; orderNo: string; amountFen: number; offline: boolean } | undefined;
  if (input.refund === true) {
    const refundable = await organiserRefundable(deps.repos, entry.id);
    if (!refundable.ok) return refundable;
    const { order, offline, left } = refundable.value;
    if (left < 1) return refuse(400, 'entryRefundAmount', { max: formatFen(left) });
    const amountsFen = new Map([[entry.id, left]]);
    refund = {
      request: { orderId: order.id, entryIds: [entry.id], reason: REFUND_REASONS.organiser, amountsFen },
      orderNo: order.orderNo,
      amountFen: left,
      offline,
    };
  }
  const closed: { paymentId: string; provider: string }[] = [];
  const outcome = await inTransaction(deps.repos, async (tx): Promise<CancelResult> => {
    if (!(await tx.entries.setStatus(entry.id, [entry.status], cancelled, 'cancelled', c.at, c.reason, c.who))) {
      throw new Refused(refuse(409, 'entryChangedMeanwhile'));
    }
    if (entry.waitRank !== null) await tx.entries.setWaitRank(entry.id, null, c.at);
    const placeGiven = (await givePlacesBack(tx, [entry], c.at, 'cancelledByOrganiser')) > 0;
    const order = await tx.orders.latestOfEntry(entry.id);
    let orderCancelled = false;
    let paidFen = 0;
    if (order?.status === 1) {
      const others = (await tx.entries.ofOrder(order.id)).filter((e) => e.id !== entry.id);
      if (others.every((e) => e.status !== submitted && e.status !== won && e.status !== refundReview)) {
        orderCancelled = await tx.orders.cancel(order.id, c.at);
        for (const payment of await tx.payments.openOf(order.id)) {
          if (await tx.payments.finish(payment.paymentId, 'closed', c.at)) closed.push(payment);
        }
      }
    } else if (order?.status === 3) {
      paidFen = (await tx.orders.lines(order.id)).find((l) => l.entryId === entry.id)?.amountFen ?? 0;
    }
    if (refund) {
      await recordRefunds(tx, { ...refund.request, at: c.at });
      if (refund.offline) await settleRecorded(tx, refund.request, c.at);
      await tx.entries.addEvent(entry.id, 'organiserRefund', c.at, `${formatFen(refund.amountFen)} ${c.reason}`, c.who);
    }
    await appendAudit(
      tx,
      actor,
      {
        action: 'entry.cancel',
        raceId,
        target: entry.entryNo,
        before: { status: entry.status, holdsPlace: entry.holdsPlace, waitRank: entry.waitRank },
        after: {
          status: cancelled,
          placeGiven,
          orderCancelled,
          reason: c.reason,
          ...(refund ? { refundFen: refund.amountFen, offline: refund.offline } : {}),
        },
      },
      c.at,
    );
    await tell(tx, c, 'organiserCancelled', { kind: 'organiserCancelled', lines: [lineOf(c.race, entry)] });
    if (refund) {
      await tell(tx, c, 'organiserRefund', {
        kind: 'organiserRefund',
        lines: [lineOf(c.race, entry)],
        orderNo: refund.orderNo,
        amountFen: refund.amountFen,
      });
    }
    return { entryNo: entry.entryNo, placeGiven, orderCancelled, paidFen, refund: null };
  });
  // The provider's open payments of a cancelled order are closed after (a late "paid" is refunded anyway).
  await closeAtProviders(deps.provider, closed);
  if (!outcome.ok || !refund) return outcome;
  // The refund through the provider that took the money, after the transaction that recorded it.
  let refundedFen = refund.offline ? refund.amountFen : 0;
  let pending = refund.offline ? 0 : 1;
  if (deps.provider && !refund.offline) {
    ({ refundedFen, pending } = await refundEntries(deps.repos, deps.provider, { ...refund.request, now: deps.now }));
  }
  return {
    ok: true,
    value: { ...outcome.value, refund: { amountFen: refund.amountFen, refundedFen, pending, offline: refund.offline } },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Offline payment
// ---------------------------------------------------------------------------------------------------------

/** Records a payment received offline for the entry's order awaiting payment (its whole amount). */
export async function recordOfflinePayment(
  deps: EntryActionDeps,
  raceId: string,
  entryNo: string,
  input: { amountFen: unknown; method: unknown; reference: unknown; reason: unknown },
  actor: AuditActor,
): Promise<EntryActionOutcome<{ entryNo: string; orderNo: string; amountFen: number }>> {
  const started = await start(deps, raceId, entryNo, input.reason, actor);
  if (!started.ok) return started;
  const c = started.value;
  const { entry } = c;
  if (!isOfflinePaymentMethod(input.method)) return refuse(400, 'entryPaymentMethod');
  const reference = typeof input.reference === 'string' ? input.reference.trim() : '';
  if (reference === '' || reference.length > OFFLINE_REFERENCE_MAX) return refuse(400, 'entryReferenceInvalid');
  const order = await deps.repos.orders.latestOfEntry(entry.id);
  if (order?.status !== 1) return refuse(400, 'entryNoUnpaidOrder');
  if (input.amountFen !== order.amountFen) {
    return refuse(400, 'entryAmountMismatch', { amount: formatFen(order.amountFen) });
  }
  const open = await deps.repos.payments.openOf(order.id);
  const paid = await payOrderOffline(
    deps.repos,
    order.id,
    { provider: `${OFFLINE_PROVIDER_PREFIX}${input.method}`, reference, at: c.at, actor: c.who },
    async (tx) => {
      // The runner's open attempts at the provider are closed: a payment of one of them now is a double payment.
      for (const payment of open) await tx.payments.finish(payment.paymentId, 'closed', c.at);
      await appendAudit(
        tx,
        actor,
        {
          action: 'entry.payOffline',
          raceId,
          target: entry.entryNo,
          before: { orderNo: order.orderNo, status: order.status },
          after: {
            orderNo: order.orderNo,
            status: 3,
            amountFen: order.amountFen,
            method: input.method,
            reference,
            reason: c.reason,
          },
        },
        c.at,
      );
    },
  );
  if (!paid) return refuse(409, 'entryNoUnpaidOrder');
  // A payment of one of them after all is refunded as a double payment.
  await closeAtProviders(deps.provider, open);
  return { ok: true, value: { entryNo: entry.entryNo, orderNo: order.orderNo, amountFen: order.amountFen } };
}

// ---------------------------------------------------------------------------------------------------------
// Refund on the organiser's initiative
// ---------------------------------------------------------------------------------------------------------

/** The pending refunds just recorded for `request` settled at once (money given back by hand, in `tx`). */
async function settleRecorded(tx: Repositories, request: Omit<RefundRequest, 'now'>, at: number): Promise<void> {
  const wanted = new Set(request.entryIds);
  for (const refund of await tx.payments.refundsOf(request.orderId)) {
    if (refund.status === 'pending' && refund.reason === request.reason && wanted.has(refund.entryId ?? -1)) {
      await settleRefundIn(tx, refund, at);
    }
  }
}

/**
 * What of the entry's paid order the organiser may refund (once per order: reason 'organiser'), and whether it
 * was paid offline (given back by hand); or the refusal.
 */
async function organiserRefundable(
  repos: Repositories,
  entryId: number,
): Promise<EntryActionOutcome<{ order: OrderRecord; offline: boolean; left: number }>> {
  const order = (await repos.orders.ofEntry(entryId)).reverse().find((o) => o.status === 3);
  if (!order) return refuse(400, 'entryNoPaidOrder');
  // Paid offline, no provider can give it back: the money goes back by hand, and is recorded as given back now.
  const offline = (await repos.payments.paidOf(order.id))?.provider.startsWith(OFFLINE_PROVIDER_PREFIX) === true;
  const refunds = await repos.payments.refundsOf(order.id);
  if (refunds.some((r) => r.reason === REFUND_REASONS.organiser)) return refuse(400, 'entryRefundDone');
  if ((await repos.refunds.ofEntry(entryId)).some((r) => r.status === 'review')) {
    return refuse(400, 'entryRequestOpen');
  }
  const line = (await repos.orders.lines(order.id)).find((l) => l.entryId === entryId);
  const owed = refunds
    .filter((r) => r.entryId === entryId && r.status !== 'failed')
    .reduce((sum, r) => sum + r.amountFen, 0);
  const left = Math.max(0, Math.min((line?.amountFen ?? 0) - owed, order.paidFen - order.refundedFen));
  return { ok: true, value: { order, offline, left } };
}

export interface OrganiserRefundResult {
  entryNo: string;
  orderNo: string;
  amountFen: number;
  /** The whole of what was left: the entry gave its place back and is refunded once the money is back. */
  whole: boolean;
  /** Confirmed by the provider now; otherwise pending, retried by the server until it is. */
  refundedFen: number;
  pending: number;
  /** Paid offline: the money goes back by hand and the refund is recorded as done. */
  offline: boolean;
}

/** Refunds the entry's paid order, whole or part (amountFen; default all that is left), once per order. */
export async function refundByOrganiser(
  deps: EntryActionDeps,
  raceId: string,
  entryNo: string,
  input: { amountFen?: unknown; reason?: unknown },
  actor: AuditActor,
): Promise<EntryActionOutcome<OrganiserRefundResult>> {
  const started = await start(deps, raceId, entryNo, input.reason, actor);
  if (!started.ok) return started;
  const c = started.value;
  const { entry } = c;
  const { repos } = deps;
  const refundable = await organiserRefundable(repos, entry.id);
  if (!refundable.ok) return refundable;
  const { order, offline, left } = refundable.value;
  const amountFen = input.amountFen === undefined || input.amountFen === null ? left : input.amountFen;
  if (typeof amountFen !== 'number' || !Number.isInteger(amountFen) || amountFen < 1 || amountFen > left) {
    return refuse(400, 'entryRefundAmount', { max: formatFen(left) });
  }
  const whole = amountFen === left;
  const live = entry.status === submitted || entry.status === won;
  const request = {
    orderId: order.id,
    entryIds: [entry.id],
    reason: REFUND_REASONS.organiser,
    amountsFen: new Map([[entry.id, amountFen]]),
  };
  const outcome = await inTransaction(repos, async (tx) => {
    const note = `${formatFen(amountFen)} ${c.reason}`;
    if (whole && live) {
      // The place goes back now; the entry is refunded (5) once the provider confirms the money is back.
      if (!(await tx.entries.setStatus(entry.id, [entry.status], refundReview, 'organiserRefund', c.at, note, c.who))) {
        throw new Refused(refuse(409, 'entryChangedMeanwhile'));
      }
      if (entry.waitRank !== null) await tx.entries.setWaitRank(entry.id, null, c.at);
      await givePlacesBack(tx, [entry], c.at, 'refundedByOrganiser');
    } else {
      await tx.entries.addEvent(entry.id, 'organiserRefund', c.at, note, c.who);
    }
    await recordRefunds(tx, { ...request, at: c.at });
    if (offline) await settleRecorded(tx, request, c.at);
    await appendAudit(
      tx,
      actor,
      {
        action: 'entry.refund',
        raceId,
        target: entry.entryNo,
        before: { orderNo: order.orderNo, status: entry.status, refundedFen: order.refundedFen },
        after: { orderNo: order.orderNo, amountFen, whole, offline, reason: c.reason },
      },
      c.at,
    );
    await tell(tx, c, 'organiserRefund', {
      kind: 'organiserRefund',
      lines: [lineOf(c.race, entry)],
      orderNo: order.orderNo,
      amountFen,
    });
  });
  if (!outcome.ok) return outcome;
  let refundedFen = offline ? amountFen : 0;
  let pending = offline ? 0 : 1;
  if (deps.provider && !offline)
    ({ refundedFen, pending } = await refundEntries(repos, deps.provider, { ...request, now: deps.now }));
  return {
    ok: true,
    value: { entryNo: entry.entryNo, orderNo: order.orderNo, amountFen, whole, refundedFen, pending, offline },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Bib
// ---------------------------------------------------------------------------------------------------------

/** Gives a registered entry a bib, or another one (unique in the race). */
export async function setEntryBib(
  deps: EntryActionDeps,
  raceId: string,
  entryNo: string,
  input: { bib: unknown; reason: unknown },
  actor: AuditActor,
): Promise<EntryActionOutcome<{ entryNo: string; bib: string; changed: boolean }>> {
  const started = await start(deps, raceId, entryNo, input.reason, actor);
  if (!started.ok) return started;
  const c = started.value;
  const { entry } = c;
  const bib = typeof input.bib === 'string' ? input.bib.trim().toUpperCase() : '';
  if (checkBib(bib)) return refuse(400, 'entryBibInvalid');
  if (entry.status !== won) return refuse(400, 'entryNotRegistered');
  if (entry.bib === bib) return { ok: true, value: { entryNo: entry.entryNo, bib, changed: false } };
  try {
    return await inTransaction(deps.repos, async (tx) => {
      await tx.db.lock(bibLock(raceId));
      const held = await tx.entryAdmin.bibs(raceId);
      if (held.has(bib) || (await tx.raceCenter.registrationBibs(raceId)).has(bib)) {
        throw new Refused(refuse(400, 'entryBibTaken', { bib }));
      }
      if (!(await tx.entries.setBib(entry.id, bib, c.at))) throw new Refused(refuse(400, 'entryNotRegistered'));
      await tx.entries.addEvent(entry.id, 'bibAssigned', c.at, bib, c.who);
      await appendAudit(
        tx,
        actor,
        {
          action: 'entry.bib',
          raceId,
          target: entry.entryNo,
          before: { bib: entry.bib },
          after: { bib, reason: c.reason },
        },
        c.at,
      );
      await tell(tx, c, `bib-${bib}`, { kind: 'bibAssigned', lines: [lineOf(c.race, entry)], bib });
      return { entryNo: entry.entryNo, bib, changed: true };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse(400, 'entryBibTaken', { bib });
    throw error;
  }
}
