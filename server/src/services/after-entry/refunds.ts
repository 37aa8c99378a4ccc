/**
 * Refunds and the optional deferral (issue 15 §4; contract/after-entry.ts). A runner requests a refund of a
 * won, paid entry with a reason within the race's window: the entry goes to 'refund under review' (4). The
 * organiser approves (the share is refunded through the payment provider by order-transitions' refundEntries,
 * once per request; the place is given back; 'refunded' (5) once the money is back) or rejects with a reason
 * (back to 1). A deferral request (when the race offers it) keeps the entry at 1 while in review; approved,
 * the entry is cancelled with the step 'deferred', its place given back, and deferrals-issue later gives the
 * runner a named single-use code for the next race. Each decision is also sent to the runner (outbox).
 *
 * Every status change is guarded on the status it leaves, inside one transaction with the request row, so a
 * repeat or a parallel call changes nothing.
 */
import {
  REFUND_REASON_LIMITS,
  REFUND_REJECT_REASON_MAX,
  refundAmountFen,
  type RefundAnswer,
  type RefundRequestBody,
  type RefundRequestStatus,
  type RefundRequestView,
} from '#contract/after-entry';
import { ENTRY_STATUSES, formatFen } from '#contract/entry';
import type { ConsoleMessageCode } from '#contract/console-messages';
import type { MessageCode, MessageParams, Refusal } from '#contract/messages';
import { formatRaceTime, parseRaceTime } from '#contract/race-clock';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { EntryRecord } from '../../db/entries-repository.ts';
import type { RefundRequestRecord } from '../../db/refunds-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { ProviderSource } from '../../lib/payment/registry.ts';
import { smsContent } from '../../lib/sms/kinds.ts';
import { maskName } from '../../lib/race-center.ts';
import { itemOf } from '../entry/views.ts';
import { givePlacesBack } from '../entry/order-transitions.ts';
import { carryOutClaimed, recordRefunds, REFUND_AUDIT } from '../entry/refunds-owed.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

const { won, cancelled, refundReview, refunded } = ENTRY_STATUSES;

type WindowState = 'open' | 'ended' | 'closed';

/** Whether a window (allowed, until a race time) is open at `now`. */
function windowState(allowed: boolean | undefined, until: string | undefined, zone: string, now: number): WindowState {
  if (!allowed || until === undefined) return 'closed';
  const end = parseRaceTime(until, zone);
  return end !== null && now < end ? 'open' : 'ended';
}

const ORDER_PAID = 3;
const ORDER_REFUNDED = 5;

/** What the entry's latest order paid for it (its line), or 0 when that order is not paid. */
export async function paidFenOf(
  repos: Repositories,
  entryId: number,
): Promise<{ paidFen: number; orderId: number | null; paid: boolean }> {
  const order = await repos.orders.latestOfEntry(entryId);
  if (!order) return { paidFen: 0, orderId: null, paid: false };
  const line = (await repos.orders.lines(order.id)).find((l) => l.entryId === entryId);
  const paid = order.status === ORDER_PAID || order.status === ORDER_REFUNDED;
  return { paidFen: paid ? (line?.amountFen ?? 0) : 0, orderId: order.id, paid: order.status === ORDER_PAID };
}

export const requestView = (r: RefundRequestRecord, entryNo: string): RefundRequestView => ({
  id: r.id,
  entryNo,
  kind: r.kind,
  status: r.status,
  reason: r.reason,
  amountFen: r.amountFen,
  rejectReason: r.rejectReason,
  createdAt: r.createdAt,
  decidedAt: r.decidedAt,
});

/** refundGet: the race's terms and the caller's entries of it (those that hold or held a place, or have requests). */
export async function refundAnswer(
  repos: Repositories,
  race: RaceInfo,
  userId: number,
  now: number,
): Promise<RefundAnswer> {
  const settings = race.entry?.refunds;
  const entries = (await repos.entries.listForUser(userId)).filter((e) => e.raceId === race.raceId);
  const requests = await repos.refunds.ofEntries(entries.map((e) => e.id));
  const shown = entries.filter(
    (e) => e.status === won || e.status === refundReview || e.status === refunded || requests.has(e.id),
  );
  const share = settings?.sharePercent ?? 0;
  const list: RefundAnswer['entries'] = [];
  for (const entry of shown) {
    const { paidFen } = await paidFenOf(repos, entry.id);
    list.push({
      entryNo: entry.entryNo,
      name: entry.name,
      itemName: itemOf(race.entry, entry.itemCode)?.name ?? { zh: entry.itemCode, en: entry.itemCode },
      status: entry.status,
      paidFen,
      refundFen: refundAmountFen(paidFen, share),
      requests: (requests.get(entry.id) ?? []).map((r) => requestView(r, entry.entryNo)),
    });
  }
  return { raceId: race.raceId, ...refundRules(race, now), entries: list };
}

/** The race's refund and deferral rules at `now` (the runner's refund page and the console's queue). */
export function refundRules(race: RaceInfo, now: number): Pick<RefundAnswer, 'refunds' | 'deferral'> {
  const zone = raceTimeZone(race);
  const settings = race.entry?.refunds;
  return {
    refunds: {
      allowed: settings?.allowed ?? false,
      until: settings?.until ?? '',
      sharePercent: settings?.sharePercent ?? 0,
      state: windowState(settings?.allowed, settings?.until, zone, now),
    },
    deferral: {
      allowed: settings?.deferral?.allowed ?? false,
      until: settings?.deferral?.until ?? '',
      state: windowState(settings?.deferral?.allowed, settings?.deferral?.until, zone, now),
    },
  };
}

/** A race's refund and deferral requests with their entries, oldest first; only `status` when given (the CLI). */
export const refundRequestsOf = (repos: Repositories, raceId: string, status?: RefundRequestStatus) =>
  repos.refunds.listForRace(raceId, status);

export type RequestOutcome =
  | { ok: true; view: RefundRequestView }
  | { ok: false; status: number; code: MessageCode; params?: MessageParams }
  | { ok: false; status: 400; fields: Record<string, Refusal> };

/** A refusal decided inside the transaction: thrown so that what it wrote is rolled back. */
class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: MessageCode,
  ) {
    super(code);
  }
}

/** refundRequest: a refund or deferral request of the caller's entry (see the file's comment). */
export async function requestRefund(
  repos: Repositories,
  input: { race: RaceInfo; userId: number; body: RefundRequestBody; now: number },
): Promise<RequestOutcome> {
  const { race, userId, body, now } = input;
  const zone = raceTimeZone(race);
  const settings = race.entry?.refunds;
  const deferral = body.kind === 'deferral';
  const window = deferral
    ? { allowed: settings?.deferral?.allowed, until: settings?.deferral?.until }
    : { allowed: settings?.allowed, until: settings?.until };
  const state = windowState(window.allowed, window.until, zone, now);
  if (state === 'closed') return { ok: false, status: 400, code: deferral ? 'deferralClosed' : 'refundClosed' };
  if (state === 'ended') {
    return {
      ok: false,
      status: 400,
      code: deferral ? 'deferralEnded' : 'refundEnded',
      params: { until: window.until ?? '' },
    };
  }
  const entry = await repos.entries.findByNo(body.entryNo);
  if (!entry || entry.userId !== userId || entry.raceId !== race.raceId) {
    return { ok: false, status: 404, code: 'registrationMissing' };
  }
  const reason = body.reason.trim();
  if ([...reason].length < REFUND_REASON_LIMITS.min) {
    return {
      ok: false,
      status: 400,
      fields: { reason: { code: 'textTooShort', params: { count: REFUND_REASON_LIMITS.min } } },
    };
  }
  if ([...reason].length > REFUND_REASON_LIMITS.max) {
    return {
      ok: false,
      status: 400,
      fields: { reason: { code: 'textTooLong', params: { count: REFUND_REASON_LIMITS.max } } },
    };
  }
  if (deferral && (entry.channel === 'charity' || entry.channel === 'code')) {
    return { ok: false, status: 400, code: 'deferralNotEligible' };
  }
  const { paidFen, paid } = await paidFenOf(repos, entry.id);
  if (entry.status !== won || !paid) {
    if (entry.status === refundReview) return { ok: false, status: 400, code: 'refundInReview' };
    return { ok: false, status: 400, code: 'refundNotEligible' };
  }
  if (deferral && (await repos.refunds.deferralOf(entry.id))) return { ok: false, status: 400, code: 'deferralUsed' };

  try {
    const request = await repos.transaction(async (tx) => {
      const made = await tx.refunds.insertRequest({
        raceId: race.raceId,
        entryId: entry.id,
        userId,
        kind: body.kind,
        reason,
        amountFen: deferral ? 0 : refundAmountFen(paidFen, settings?.sharePercent ?? 0),
        now,
      });
      if (!made) throw new Refused(400, 'refundInReview');
      if (deferral) await tx.entries.addEvent(entry.id, 'deferralRequested', now);
      else if (!(await tx.entries.setStatus(entry.id, [won], refundReview, 'refundRequested', now))) {
        throw new Refused(400, 'refundNotEligible');
      }
      return made;
    });
    return { ok: true, view: requestView(request, entry.entryNo) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, status: error.status, code: error.code };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The organiser's decisions (CLI refund-approve, refund-reject, deferrals-issue)
// ---------------------------------------------------------------------------------------------------------

/**
 * A decision or its refusal: `problem` is the CLI's English line, `code` (and `params`) the console's message
 * (contract/console-messages.ts) of the same refusal.
 */
export type Decision<T> =
  { ok: true; value: T } | { ok: false; problem: string; code?: ConsoleMessageCode; params?: MessageParams };

interface Found {
  entry: EntryRecord;
  race: RaceInfo;
  requests: RefundRequestRecord[];
}

async function findEntry(repos: Repositories, raceId: string, entryNo: string): Promise<Decision<Found>> {
  const race = await repos.races.findById(raceId);
  if (!race) return { ok: false, problem: `No race "${raceId}".`, code: 'refundRaceMissing' };
  const entry = await repos.entries.findByNo(entryNo.trim().toUpperCase());
  if (!entry || entry.raceId !== raceId) {
    return { ok: false, problem: `No entry ${entryNo} in race ${raceId}.`, code: 'entryNotFound' };
  }
  return { ok: true, value: { entry, race, requests: await repos.refunds.ofEntry(entry.id) } };
}

/** A decision's message to the runner (Chinese, then English), queued in the outbox of the caller's transaction. */
async function tellRunner(
  tx: Repositories,
  race: RaceInfo,
  entry: EntryRecord,
  zh: string,
  en: string,
  at: number,
  sms: { kind: RequestSmsKind; amount?: string; reason?: string; code?: string; until?: string; to?: RaceInfo },
) {
  const contact = await tx.ballots.contactOf(entry.userId);
  if (!contact) return;
  const item = itemOf(race.entry, entry.itemCode)?.name ?? { zh: entry.itemCode, en: entry.itemCode };
  const who = `${entry.entryNo} (${maskName(entry.name)})`;
  const raceEn = race.raceNameEn || race.raceName;
  // The template's race is the race the message is about (the next race, for a deferral's invitation code).
  const { kind, to, ...fields } = sms;
  const named = to ?? race;
  const params = {
    race: named.raceName,
    raceEn: named.raceNameEn || named.raceName,
    item: item.zh,
    itemEn: item.en || item.zh,
    entryNo: entry.entryNo,
    ...fields,
  };
  await tx.outbox.add({
    ...contact,
    subject: `报名服务 Registration service: ${race.raceName}`,
    body: `${race.raceName} ${item.zh}：报名号 ${who} ${zh}\n${raceEn} ${item.en || item.zh}: entry ${who} ${en}`,
    createdAt: at,
    sms: smsContent(kind, params),
  });
}

type RequestSmsKind = 'refundApproved' | 'deferralApproved' | 'refundRejected' | 'deferralRejected' | 'deferralCode';

/** Thrown inside an approval's transaction when the entry left its status meanwhile: nothing is kept. */
class NoLongerRegistered extends Error {}

export interface ApproveResult {
  kind: 'refund' | 'deferral';
  requestId: number;
  /** False: it was approved before (nothing changed now, a pending refund retried). */
  fresh: boolean;
  amountFen: number;
  refundedFen: number;
  pending: number;
}

/**
 * Approves the entry's request in review. A refund: request approved, place given back (to the wait list of a
 * ballot item) and the share's refund recorded, in one transaction; then refunded at the provider (once per
 * request: reason `request:<id>`; without a provider, or unconfirmed, the job runner carries it out), the entry
 * 4 → 5 once the money is back. A deferral: the entry 1 → 3 with the step 'deferred', place given back, a
 * deferrals row. A second approval changes nothing (a refund still pending is asked for again).
 */
export async function approveRequest(
  deps: { repos: Repositories; provider?: ProviderSource; now: () => number; actor: AuditActor },
  raceId: string,
  entryNo: string,
): Promise<Decision<ApproveResult>> {
  const { repos, provider, now, actor } = deps;
  const found = await findEntry(repos, raceId, entryNo);
  if (!found.ok) return found;
  const { entry, race } = found.value;
  const open = found.value.requests.find((r) => r.status === 'review');
  const at = now();
  let request: RefundRequestRecord;
  let fresh = false;
  if (!open) {
    const last = found.value.requests[0];
    if (last?.status !== 'approved') {
      return { ok: false, problem: `Entry ${entryNo} has no request under review.`, code: 'refundNoRequest' };
    }
    request = last;
  } else {
    request = open;
    const deciding = repos.transaction(async (tx) => {
      if (!(await tx.refunds.decide(open.id, 'approved', null, at))) return false;
      await appendAudit(
        tx,
        actor,
        {
          action: REFUND_AUDIT.approve,
          raceId,
          target: entry.entryNo,
          before: { request: open.id, kind: open.kind, status: 'review', entryStatus: entry.status },
          after: { request: open.id, kind: open.kind, status: 'approved', amountFen: open.amountFen },
        },
        at,
      );
      const current = (await tx.entries.findById(entry.id)) ?? entry;
      if (open.kind === 'refund') {
        await givePlacesBack(tx, [current], at, 'refundApproved');
        const order = await tx.orders.latestOfEntry(entry.id);
        if (order) {
          await recordRefunds(tx, {
            orderId: order.id,
            entryIds: [entry.id],
            reason: `request:${open.id}`,
            amountsFen: new Map([[entry.id, open.amountFen]]),
            at,
          });
        }
        await tellRunner(
          tx,
          race,
          entry,
          `的退款申请已通过，¥${formatFen(open.amountFen)} 将原路退回。`,
          `: the refund request was approved; CNY ${formatFen(open.amountFen)} is refunded to the original payment.`,
          at,
          { kind: 'refundApproved', amount: formatFen(open.amountFen) },
        );
      } else {
        if (!(await tx.entries.setStatus(entry.id, [won], cancelled, 'deferred', at))) {
          throw new NoLongerRegistered();
        }
        await givePlacesBack(tx, [current], at, 'deferralApproved');
        await tx.refunds.insertDeferral({
          raceId,
          entryId: entry.id,
          certHash: entry.certHash,
          itemCode: entry.itemCode,
          now: at,
        });
        await tellRunner(
          tx,
          race,
          entry,
          '的延期申请已通过：本届报名已取消，下届赛事的专属邀请码将另行发送。',
          ': the deferral was approved. This registration is cancelled; your personal invitation code for the next race follows in another message.',
          at,
          { kind: 'deferralApproved' },
        );
      }
      return true;
    });
    try {
      fresh = await deciding;
    } catch (error) {
      if (!(error instanceof NoLongerRegistered)) throw error;
      return {
        ok: false,
        problem: `Entry ${entryNo} is no longer registered: the deferral cannot be approved.`,
        code: 'refundEntryChanged',
      };
    }
  }
  let refundedFen = 0;
  let pending = 0;
  if (request.kind === 'refund') {
    const order = await repos.orders.latestOfEntry(entry.id);
    const owed = order
      ? (await repos.payments.refundsOf(order.id)).filter(
          (r) => r.status === 'pending' && r.reason === `request:${request.id}`,
        )
      : [];
    for (const refund of owed) {
      // Claimed first: of two approvals at once (a double click, two staff) one asks the provider, once.
      const result = provider ? await carryOutClaimed({ repos, provider, now }, refund) : 'pending';
      if (result === 'done') refundedFen += refund.amountFen;
      else if (result === 'pending') pending += 1;
    }
  }
  return {
    ok: true,
    value: { kind: request.kind, requestId: request.id, fresh, amountFen: request.amountFen, refundedFen, pending },
  };
}

/** Rejects the entry's request in review with a reason the runner reads: a refund's entry 4 → 1. */
export async function rejectRequest(
  repos: Repositories,
  raceId: string,
  entryNo: string,
  rawReason: string,
  at: number,
  actor: AuditActor,
): Promise<Decision<{ kind: 'refund' | 'deferral'; requestId: number; fresh: boolean }>> {
  const reason = rawReason.trim();
  if (reason === '' || [...reason].length > REFUND_REJECT_REASON_MAX) {
    return {
      ok: false,
      problem: `The reason is 1-${REFUND_REJECT_REASON_MAX} characters: the runner reads it.`,
      code: 'refundRejectReason',
      params: { max: REFUND_REJECT_REASON_MAX },
    };
  }
  const found = await findEntry(repos, raceId, entryNo);
  if (!found.ok) return found;
  const { entry, race } = found.value;
  const open = found.value.requests.find((r) => r.status === 'review');
  if (!open) {
    const last = found.value.requests[0];
    if (last?.status === 'rejected') return { ok: true, value: { kind: last.kind, requestId: last.id, fresh: false } };
    return { ok: false, problem: `Entry ${entryNo} has no request under review.`, code: 'refundNoRequest' };
  }
  const fresh = await repos.transaction(async (tx) => {
    if (!(await tx.refunds.decide(open.id, 'rejected', reason, at))) return false;
    await appendAudit(
      tx,
      actor,
      {
        action: REFUND_AUDIT.reject,
        raceId,
        target: entry.entryNo,
        before: { request: open.id, kind: open.kind, status: 'review' },
        after: { request: open.id, kind: open.kind, status: 'rejected', reason },
      },
      at,
    );
    if (open.kind === 'refund') await tx.entries.setStatus(entry.id, [refundReview], won, 'refundRejected', at, reason);
    else await tx.entries.addEvent(entry.id, 'deferralRejected', at, reason);
    const what = open.kind === 'refund' ? { zh: '退款', en: 'refund' } : { zh: '延期', en: 'deferral' };
    await tellRunner(
      tx,
      race,
      entry,
      `的${what.zh}申请未通过，原因：${reason}。报名保持有效。`,
      `: the ${what.en} request was rejected: ${reason}. The registration stays valid.`,
      at,
      { kind: open.kind === 'refund' ? 'refundRejected' : 'deferralRejected', reason },
    );
    return true;
  });
  return { ok: true, value: { kind: open.kind, requestId: open.id, fresh } };
}

/** The audit log's action of each deferral code issued (console and CLI deferrals-issue alike). */
export const DEFERRALS_ISSUE_AUDIT = 'deferrals.issue';

export interface IssuedDeferral {
  entryNo: string;
  name: string;
  itemCode: string;
  code: string;
}

/**
 * For each approved deferral of `fromRaceId` without a code: a named single-use invitation code of `toRaceId`'s
 * same item (for the person's certificate hash and name), noted on the deferral and sent to the runner. A
 * second run issues nothing new. Deferrals whose item the next race lacks are listed as skipped. The codes
 * expire at `expires` (race time of `toRaceId`), by default at the end of its sign-up (signUpEndTime); the
 * entry submission refuses an expired code (redemptionCodeMissing).
 */
export async function issueDeferrals(
  repos: Repositories,
  input: {
    fromRaceId: string;
    toRaceId: string;
    now: number;
    newCode: () => string;
    expires?: string;
    actor: AuditActor;
  },
): Promise<
  Decision<{
    issued: IssuedDeferral[];
    skipped: { entryNo: string; itemCode: string }[];
    /** When the codes expire, and the zone of `toRaceId`'s race clock. */
    expiresAt: number;
    zone: string;
  }>
> {
  const { fromRaceId, toRaceId, now } = input;
  if (fromRaceId === toRaceId) {
    return { ok: false, problem: '--from and --to must be different races.', code: 'deferralSameRace' };
  }
  const from = await repos.races.findById(fromRaceId);
  if (!from) return { ok: false, problem: `No race "${fromRaceId}".`, code: 'refundRaceMissing' };
  const to = await repos.races.findById(toRaceId);
  if (!to) {
    return {
      ok: false,
      problem: `No race "${toRaceId}". Add it first with: site add-race <race.json>`,
      code: 'refundRaceMissing',
    };
  }
  const expiry = deferralExpiry(to, input.expires, now);
  if (!expiry.ok) return expiry;
  const expiresAt = expiry.value;
  const until = formatRaceTime(expiresAt, 'YYYY-MM-DD HH:mm', raceTimeZone(to));
  const issued: IssuedDeferral[] = [];
  const skipped: { entryNo: string; itemCode: string }[] = [];
  for (const deferral of await repos.refunds.unissued(fromRaceId)) {
    const entry = await repos.entries.findById(deferral.entryId);
    if (!entry) continue;
    const item = itemOf(to.entry, deferral.itemCode);
    if (!item) {
      skipped.push({ entryNo: entry.entryNo, itemCode: deferral.itemCode });
      continue;
    }
    const made = await repos.transaction(async (tx) => {
      let code: string | undefined;
      for (let attempt = 0; attempt < 8 && code === undefined; attempt += 1) {
        const candidate = input.newCode();
        const inserted = await tx.entries.insertCode({
          raceId: toRaceId,
          code: candidate,
          itemCode: item.code,
          kind: 'named',
          namedName: entry.name,
          namedCertHash: deferral.certHash,
          maxUses: 1,
          expiresAt,
          note: `deferral from ${fromRaceId} entry ${entry.entryNo}`,
          now,
        });
        if (inserted) code = candidate;
      }
      if (code === undefined) throw new Error('no free invitation code after 8 attempts');
      const record = await tx.entries.findCode(toRaceId, code);
      if (!record || !(await tx.refunds.markIssued(deferral.id, toRaceId, record.id, now))) return undefined;
      await appendAudit(
        tx,
        input.actor,
        {
          action: DEFERRALS_ISSUE_AUDIT,
          raceId: fromRaceId,
          target: entry.entryNo,
          after: { toRaceId, itemCode: item.code, codeId: record.id, expiresAt },
        },
        now,
      );
      const toEn = to.raceNameEn || to.raceName;
      await tellRunner(
        tx,
        from,
        entry,
        `的延期名额：${to.raceName} ${item.name.zh} 专属邀请码 ${code}（仅限本人使用一次，${until} 前有效），请在报名时填写。`,
        `: your deferred place: the personal invitation code for ${toEn} ${item.name.en || item.name.zh} is ${code} (for you only, once, until ${until}). Enter it when you register.`,
        now,
        { kind: 'deferralCode', code, until, to },
      );
      return code;
    });
    if (made) issued.push({ entryNo: entry.entryNo, name: entry.name, itemCode: item.code, code: made });
  }
  return { ok: true, value: { issued, skipped, expiresAt, zone: raceTimeZone(to) } };
}

const RACE_TIME_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/;

/** When the deferral codes of the next race expire: `expires` (its race time) or its sign-up end, in the future. */
function deferralExpiry(to: RaceInfo, expires: string | undefined, now: number): Decision<number> {
  const zone = raceTimeZone(to);
  const text = (expires ?? to.signUpEndTime ?? '').trim();
  const what = expires === undefined ? `the sign-up end of ${to.raceId} (signUpEndTime)` : '--expires';
  if (expires === undefined && !text) {
    return {
      ok: false,
      problem: `${to.raceId} has no signUpEndTime: give --expires "YYYY-MM-DD HH:mm:ss".`,
      code: 'deferralExpiryMissing',
    };
  }
  const at = RACE_TIME_TEXT.test(text) ? parseRaceTime(text, zone) : null;
  if (at === null) {
    return {
      ok: false,
      problem: `${what}: "${text}" is not a time YYYY-MM-DD HH:mm:ss (${zone}).`,
      code: 'deferralExpiryInvalid',
      params: { text },
    };
  }
  if (at <= now) {
    return {
      ok: false,
      problem: `${what}: ${text} is already past; the codes would expire at once. Give a later --expires.`,
      code: 'deferralExpiryPast',
      params: { text },
    };
  }
  return { ok: true, value: at };
}
