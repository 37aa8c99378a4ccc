/**
 * The ballot anyone can verify (issue #14 §3; docs/ballot.md). The organiser commits (the SHA-256 of a random
 * seed, published before the sign-up window closes, optionally naming a public beacon), draws after the window
 * (contract/ballot.ts drawBallot over the frozen, published entry list) and reveals the seed; anyone re-runs the
 * draw from the published page. Winners take their places (ballot model: an order to pay within the item's
 * payment minutes; pay first, then draw: already paid), losers go to the wait list in draw order (ballot model)
 * or are refunded (pay first, then draw). Every runner gets the outcome itself in a message (outbox), not a
 * link to look it up. A place freed (an unpaid winner, a refund, a deferral: order-transitions.ts givePlacesBack)
 * goes to the next wait-list unit that fits (`promoteFromWaitList`); a later round draws over the entries that
 * did not win instead.
 *
 * Pay first, then draw: the draw records every loser's refund in its own transaction (services/entry/
 * refunds-owed.ts; carried out after it, and by the job runner until the provider confirms), and closes the
 * orders still awaiting payment: an entry the draw did not take can no longer be paid (orderPay refuses it; a
 * late "paid" is refunded at once and the runner told).
 */
import { randomBytes } from 'node:crypto';
import { commitmentOf, drawBallot, seedMatches, unitsOf } from '#contract/ballot';
import {
  ENTRY_STATUSES,
  formatFen,
  type BallotEntry,
  type BallotPublic,
  type BallotSummary,
  type EntryItemSettings,
  type EntryStatus,
} from '#contract/entry';
import { formatRaceTime, parseRaceTime } from '#contract/race-clock';
import type { ConsoleMessageCode } from '#contract/console-messages';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { BallotRow, DrawCandidate } from '../../db/ballots-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { ProviderSource } from '../../lib/payment/registry.ts';
import { maskName } from '../../lib/race-center.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { smsContent, type SmsContent } from '../../lib/sms/kinds.ts';
import { paymentDeadline } from './payment-window.ts';
import { carryOutRefund, closeAtProviders, recordRefunds, REFUND_REASONS } from './refunds-owed.ts';
import { signUpWindow } from './views.ts';

/**
 * A refusal carries the command line's text (`problem`, naming its options) and the console's message code
 * with its values (contract/console-messages.ts, zh and en): one check, two audiences.
 */
export type BallotOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; problem: string; code: ConsoleMessageCode; params?: Record<string, string | number> };

const refuse = <T>(
  problem: string,
  code: ConsoleMessageCode,
  params?: Record<string, string | number>,
): BallotOutcome<T> => ({ ok: false, problem, code, ...(params ? { params } : {}) });

/** The models a ballot draws for. */
const BALLOT_MODELS = new Set(['ballot', 'payThenDraw']);

/** A beacon named at commit and its value given at the draw are published as one text: `name = value`. */
export const beaconText = (name: string, value: string) => (name === '' ? '' : `${name} = ${value}`);

export interface BallotContext {
  race: RaceInfo;
  item: EntryItemSettings;
  zone: string;
  signUpEnd: number | null;
}

/** The advisory lock of an item's ballot: the draw, the wait-list promotion and a pay-first payment take it. */
export const ballotLockKey = (raceId: string, itemCode: string) => `ballot:${raceId}:${itemCode}`;

/**
 * Whether the entries of an item still awaiting the draw can no longer be drawn: a pay-first item whose round
 * 1 is drawn (it has no later round). Their orders are closed by the draw; a payment of one is refunded.
 */
export async function payFirstDrawn(repos: Repositories, raceId: string, itemCode: string): Promise<boolean> {
  const race = await repos.races.findById(raceId);
  if (race?.entry?.items.find((i) => i.code === itemCode)?.model !== 'payThenDraw') return false;
  return ((await repos.ballots.find(raceId, itemCode, 1))?.drawnAt ?? null) !== null;
}

/** The race and its ballot item, or the reason there is none. */
export async function ballotContext(
  repos: Repositories,
  raceId: string,
  itemCode: string,
): Promise<BallotOutcome<BallotContext>> {
  const race = await repos.races.findById(raceId);
  if (!race) return refuse(`No race "${raceId}".`, 'ballotNoRace', { race: raceId });
  const item = race.entry?.items.find((i) => i.code === itemCode);
  if (!item)
    return refuse(`Race ${raceId} has no entry item "${itemCode}" (race.json entry.items).`, 'ballotNoItem', {
      item: itemCode,
    });
  if (!BALLOT_MODELS.has(item.model)) {
    return refuse(
      `Item ${itemCode} is ${item.model}: only ballot and payThenDraw items are drawn.`,
      'ballotNotBallotItem',
      {
        item: itemCode,
      },
    );
  }
  const zone = raceTimeZone(race);
  return { ok: true, value: { race, item, zone, signUpEnd: parseRaceTime(race.signUpEndTime, zone) } };
}

// ---------------------------------------------------------------------------------------------------------
// Commit
// ---------------------------------------------------------------------------------------------------------

export interface Committed {
  round: number;
  commitment: string;
  beacon: string;
}

/**
 * Commits the next round of an item: a new random seed (32 bytes), stored encrypted, and its commitment. Round
 * 1 only before the sign-up window closes (the list it draws over is not known yet); a later round only once
 * the previous one is drawn.
 */
export async function commitBallot(
  repos: Repositories,
  input: { raceId: string; itemCode: string; beacon?: string; now: number; seed?: string; actor?: AuditActor },
): Promise<BallotOutcome<Committed>> {
  const context = await ballotContext(repos, input.raceId, input.itemCode);
  if (!context.ok) return context;
  const { race, zone, signUpEnd } = context.value;
  const latest = await repos.ballots.latest(input.raceId, input.itemCode);
  if (latest && latest.drawnAt === null) {
    return refuse(`Round ${latest.round} of ${input.itemCode} is committed and not drawn yet.`, 'ballotRoundOpen', {
      round: latest.round,
    });
  }
  const round = latest ? latest.round + 1 : 1;
  if (round > 1 && context.value.item.model === 'payThenDraw') {
    return refuse(
      `Item ${input.itemCode} is payThenDraw: its losers are refunded, so there is no second round.`,
      'ballotNoSecondRound',
    );
  }
  if (round === 1) {
    if (signUpEnd === null) {
      return refuse(`Race ${input.raceId} has no signUpEndTime: the commitment must precede it.`, 'ballotNoSignUpEnd');
    }
    if (input.now >= signUpEnd) {
      return refuse(
        `The sign-up window closed at ${formatRaceTime(signUpEnd, undefined, zone)} (${zone}): a commitment ` +
          `must be published before it closes.`,
        'ballotWindowClosed',
        { end: formatRaceTime(signUpEnd, undefined, zone), zone },
      );
    }
  }
  const seed = input.seed ?? randomBytes(32).toString('hex');
  const commitment = commitmentOf(seed);
  const beacon = (input.beacon ?? '').trim();
  const stored = await repos.ballots.commit({
    raceId: race.raceId,
    itemCode: input.itemCode,
    round,
    commitment,
    seed,
    beacon,
    at: input.now,
  });
  if (!stored) {
    return refuse(
      `Round ${round} of ${input.itemCode} was committed at the same moment by another run.`,
      'ballotRaced',
    );
  }
  if (input.actor) {
    await appendAudit(
      repos,
      input.actor,
      {
        action: 'ballot.commit',
        raceId: race.raceId,
        target: `${input.itemCode} round ${round}`,
        after: { round, commitment, beacon },
      },
      input.now,
    );
  }
  return { ok: true, value: { round, commitment, beacon } };
}

// ---------------------------------------------------------------------------------------------------------
// Draw
// ---------------------------------------------------------------------------------------------------------

export interface Drawn {
  round: number;
  places: number;
  entries: number;
  winners: string[];
  waitList: string[];
  /** Orders made for the winners (ballot model). */
  orders: number;
  /** Refunds the draw recorded (pay first, then draw: one per loser's paid line). */
  refundsOwed: number;
  /** Of them, confirmed by the provider right after the draw (the others are carried out by the job runner). */
  refunded: number;
  /** Orders awaiting payment that the draw closed (pay first, then draw: their entries were not drawn). */
  closed: number;
  messages: number;
}

/** Entry numbers sort by their characters' code points (the same in every engine and in the browser). */
const byEntryNo = (a: { entryNo: string }, b: { entryNo: string }) =>
  a.entryNo < b.entryNo ? -1 : a.entryNo > b.entryNo ? 1 : 0;

/**
 * Whether entry is closed for the draw at `now`: the sign-up window is not open (the organiser's entry-close,
 * or signUpEndTime passed; services/entry/views.ts signUpWindow, the one answer to "is entry open") and it
 * has started (a draw before anyone could enter is a mistake). Undefined when closed, else why not.
 */
export function entryStillOpen(
  race: RaceInfo,
  zone: string,
  now: number,
): { problem: string; code: ConsoleMessageCode; params: Record<string, string> } | undefined {
  const state = signUpWindow(race, now);
  const start = parseRaceTime(race.signUpStartTime, zone);
  if (state === 'open') {
    const end = parseRaceTime(race.signUpEndTime, zone);
    const until = end === null ? '' : formatRaceTime(end, undefined, zone);
    return {
      problem: `The sign-up window is still open${end === null ? '' : ` until ${until} (${zone})`}: draw after it closes (or close entry first: entry-close ${race.raceId}).`,
      code: end === null ? 'ballotEntryOpen' : 'ballotEntryOpenUntil',
      params: { end: until, zone },
    };
  }
  if (state === 'notYet' || (start !== null && now < start)) {
    const opens = start === null ? '' : formatRaceTime(start, undefined, zone);
    return {
      problem: `Sign-up has not started yet${start === null ? '' : ` (it opens ${opens}, ${zone})`}: draw after it closes.`,
      code: 'ballotEntryNotStarted',
      params: { start: opens, zone },
    };
  }
  return undefined;
}

/**
 * The draw's units: a team with fewer members in the draw than its smallest size (members who never entered,
 * or cancelled) is not a team: its members are drawn as single runners (unit null in the published list).
 */
export function asDrawnUnits<T extends { unit: string | null; teamMinSize: number | null }>(candidates: T[]): T[] {
  const sizes = new Map<string, number>();
  for (const c of candidates) if (c.unit !== null) sizes.set(c.unit, (sizes.get(c.unit) ?? 0) + 1);
  return candidates.map((c) =>
    c.unit !== null && (sizes.get(c.unit) ?? 0) < (c.teamMinSize ?? 0) ? { ...c, unit: null } : c,
  );
}

/**
 * What a round draws over: the entries in the pool (round 1: the live public and team entries, pay first: paid
 * ones; later rounds: those not drawn), sorted and grouped as drawn units, and the places (the item's main
 * pool's free places plus those the candidates hold). The draw reads it in its transaction; the console shows it.
 */
export async function drawPool(
  repos: Repositories,
  raceId: string,
  item: EntryItemSettings,
  round: number,
): Promise<{ candidates: DrawCandidate[]; places: number }> {
  const candidates = asDrawnUnits(
    (round === 1
      ? await repos.ballots.firstRoundCandidates(raceId, item.code, item.model === 'payThenDraw')
      : await repos.ballots.laterRoundCandidates(raceId, item.code)
    ).sort(byEntryNo),
  );
  const pool = (await repos.entries.places(raceId)).find((p) => p.itemCode === item.code && p.pool === 'main');
  const held = candidates.filter((c) => c.holdsPlace).length;
  return { candidates, places: Math.max(0, (pool ? pool.capacity - pool.taken : 0) + held) };
}

/**
 * Draws a committed round (default: the latest) once entry is closed: freezes the list, runs drawBallot, moves
 * winners and losers (guarded on their status), makes the winners' orders, the wait list and the messages, and
 * records the round. Pay first, then draw: in the same transaction every loser's refund is recorded and the
 * orders still awaiting payment are closed (their entries cancelled, their runners told). After it the open
 * payments of those orders are closed at the provider and the refunds carried out (with `provider`; the first
 * that is not confirmed leaves the rest to the job runner, which retries until the provider confirms). A round
 * draws once.
 */
export async function drawRound(
  repos: Repositories,
  input: { raceId: string; itemCode: string; round?: number; beaconValue?: string; now: number; actor?: AuditActor },
  provider?: ProviderSource,
): Promise<BallotOutcome<Drawn>> {
  const context = await ballotContext(repos, input.raceId, input.itemCode);
  if (!context.ok) return context;
  const { race, item, zone } = context.value;
  const ballot =
    input.round === undefined
      ? await repos.ballots.latest(input.raceId, input.itemCode)
      : await repos.ballots.find(input.raceId, input.itemCode, input.round);
  if (!ballot) {
    return refuse(
      `No commitment for ${input.itemCode}${input.round ? ` round ${input.round}` : ''}: run ballot-commit first.`,
      'ballotNoCommitment',
    );
  }
  if (ballot.drawnAt !== null) {
    return refuse(`Round ${ballot.round} of ${input.itemCode} was drawn already.`, 'ballotDrawnAlready', {
      round: ballot.round,
    });
  }
  const open = entryStillOpen(race, zone, input.now);
  if (open !== undefined) return refuse(open.problem, open.code, open.params);
  if (ballot.round > 1) {
    const previous = await repos.ballots.find(input.raceId, input.itemCode, ballot.round - 1);
    if (!previous || previous.drawnAt === null) {
      return refuse(`Round ${ballot.round - 1} is not drawn yet.`, 'ballotNotDrawn', { round: ballot.round - 1 });
    }
  }
  const beaconValue = (input.beaconValue ?? '').trim();
  if (ballot.beacon !== '' && beaconValue === '') {
    return refuse(
      `The commitment named the beacon "${ballot.beacon}": give its value with --beacon-value.`,
      'ballotBeaconNeeded',
      { beacon: ballot.beacon },
    );
  }
  if (ballot.beacon === '' && beaconValue !== '') {
    return refuse(
      'The commitment named no beacon: a beacon value now would be chosen after the commitment.',
      'ballotBeaconUnexpected',
    );
  }
  const beacon = beaconText(ballot.beacon, beaconValue);
  const payFirst = item.model === 'payThenDraw';
  /** Open payments of the orders the draw closed: closed at the provider after the transaction. */
  const toClose: { paymentId: string; provider: string }[] = [];
  /** The losers' paid orders: order id → its losing entries (pay first, then draw). */
  const refunds = new Map<number, number[]>();

  const outcome = await repos.transaction(async (tx): Promise<BallotOutcome<Drawn>> => {
    await tx.db.lock(ballotLockKey(input.raceId, input.itemCode));
    const seed = await tx.ballots.secretSeed(input.raceId, input.itemCode, ballot.round);
    if (seed === undefined || !seedMatches(seed, ballot.commitment)) {
      return refuse(
        'The stored seed cannot be read with this server’s ID-number secret (or does not match).',
        'ballotSeedUnreadable',
      );
    }
    await tx.entries.ensurePlaces(input.raceId, race.entry);
    const { candidates, places } = await drawPool(tx, input.raceId, item, ballot.round);
    const entries: BallotEntry[] = candidates.map((c) => ({
      entryNo: c.entryNo,
      maskedName: maskName(c.name),
      unit: c.unit,
    }));
    const result = drawBallot(seed, beacon, entries, places);
    const recorded = await tx.ballots.markDrawn({
      raceId: input.raceId,
      itemCode: input.itemCode,
      round: ballot.round,
      beacon,
      places,
      entries,
      result: { winners: result.winners, waitList: result.waitList },
      at: input.now,
    });
    if (!recorded) {
      return refuse(`Round ${ballot.round} of ${input.itemCode} was drawn already.`, 'ballotDrawnAlready', {
        round: ballot.round,
      });
    }

    const byNo = new Map(candidates.map((c) => [c.entryNo, c]));
    const from: EntryStatus[] = ballot.round === 1 ? [ENTRY_STATUSES.submitted] : [ENTRY_STATUSES.notWon];
    const messages: Message[] = [];
    const winners = result.winners.map((no) => byNo.get(no)!);
    for (const entry of winners) {
      await tx.entries.addEvent(entry.id, 'drawn', input.now, `round ${ballot.round}`);
      if (!(await tx.entries.setStatus(entry.id, from, ENTRY_STATUSES.won, 'won', input.now))) continue;
      if (entry.waitRank !== null) await tx.entries.setWaitRank(entry.id, null, input.now);
      if (!entry.holdsPlace && !(await tx.entries.holdPlace(entry.id))) {
        throw new Error(`no place left for winner ${entry.entryNo}: the places changed during the draw; run it again`);
      }
    }
    let orders = 0;
    if (payFirst) {
      for (const entry of winners) messages.push({ entry, kind: 'wonPaid' });
    } else {
      for (const made of await makeOrders(tx, race.raceId, item, winners, input.now)) {
        orders += 1;
        for (const entry of made.entries) messages.push({ entry, kind: 'won', order: made });
      }
    }
    const waitUnits = unitsOf(result.waitList.map((no) => ({ entryNo: no, unit: byNo.get(no)!.unit })));
    const keepWaitList = !payFirst && item.waitList !== false;
    for (const [index, unit] of waitUnits.entries()) {
      for (const no of unit.members) {
        const entry = byNo.get(no)!;
        await tx.entries.addEvent(entry.id, 'drawn', input.now, `round ${ballot.round}`);
        if (ballot.round === 1) await tx.entries.setStatus(entry.id, from, ENTRY_STATUSES.notWon, 'notWon', input.now);
        if (entry.holdsPlace) await tx.entries.releasePlace(entry.id);
        if (keepWaitList) {
          await tx.entries.setWaitRank(entry.id, index + 1, input.now);
          await tx.entries.addEvent(entry.id, 'waitListed', input.now, `position ${index + 1}`);
          messages.push({ entry, kind: 'waitList', position: index + 1 });
        } else {
          if (entry.waitRank !== null) await tx.entries.setWaitRank(entry.id, null, input.now);
          messages.push({ entry, kind: payFirst ? 'notWonRefund' : 'notWon' });
        }
      }
    }
    let refundsOwed = 0;
    let closed = 0;
    if (payFirst) {
      const paid = await tx.ballots.paidOrders(result.waitList.map((no) => byNo.get(no)!.id));
      for (const [entryId, orderId] of paid) refunds.set(orderId, [...(refunds.get(orderId) ?? []), entryId]);
      for (const [orderId, entryIds] of refunds) {
        await recordRefunds(tx, { orderId, entryIds, reason: REFUND_REASONS.notWon, at: input.now });
        refundsOwed += entryIds.length;
      }
      for (const orderId of await tx.ballots.unpaidOrders(input.raceId, input.itemCode)) {
        if (!(await tx.orders.cancel(orderId, input.now))) continue;
        closed += 1;
        for (const entry of await tx.entries.ofOrder(orderId)) {
          if (entry.status !== ENTRY_STATUSES.submitted) continue;
          const note = `not drawn: unpaid at the draw of round ${ballot.round}`;
          if (
            !(await tx.entries.setStatus(
              entry.id,
              [entry.status],
              ENTRY_STATUSES.cancelled,
              'cancelled',
              input.now,
              note,
            ))
          ) {
            continue;
          }
          if (entry.holdsPlace) await tx.entries.releasePlace(entry.id);
          messages.push({ entry, kind: 'closedUnpaid' });
        }
        for (const payment of await tx.payments.openOf(orderId)) {
          await tx.payments.finish(payment.paymentId, 'closed', input.now);
          toClose.push(payment);
        }
      }
    }
    for (const message of messages) await sendOutcome(tx, race, item, zone, message, input.now);
    if (input.actor) {
      await appendAudit(
        tx,
        input.actor,
        {
          action: 'ballot.draw',
          raceId: input.raceId,
          target: `${input.itemCode} round ${ballot.round}`,
          after: {
            round: ballot.round,
            beacon,
            places,
            entries: entries.length,
            winners: result.winners.length,
            waitList: result.waitList.length,
            orders,
            refundsOwed,
            closed,
          },
        },
        input.now,
      );
    }
    return {
      ok: true,
      value: {
        round: ballot.round,
        places,
        entries: entries.length,
        winners: result.winners,
        waitList: result.waitList,
        orders,
        refundsOwed,
        refunded: 0,
        closed,
        messages: messages.length,
      },
    };
  });
  if (!outcome.ok || !provider) return outcome;
  // Each at its provider; a late "paid" of one is refunded (order-transitions.ts lateRefund).
  await closeAtProviders(provider, toClose);
  let refunded = 0;
  const deps = { repos, provider, now: () => input.now };
  carry: for (const orderId of refunds.keys()) {
    for (const refund of await repos.payments.refundsOf(orderId)) {
      if (refund.status !== 'pending' || refund.reason !== REFUND_REASONS.notWon) continue;
      // The provider did not confirm one: the rest are left to the job runner rather than pressed on it now.
      const result = await carryOutRefund(deps, refund);
      if (result === 'pending') break carry;
      if (result === 'done') refunded += 1;
    }
  }
  return { ok: true, value: { ...outcome.value, refunded } };
}

interface MadeOrder {
  orderNo: string;
  amountFen: number;
  deadlineAt: number;
  entries: DrawCandidate[];
}

/** One order per account for its winning entries, to pay within the item's payment minutes. */
async function makeOrders(
  tx: Repositories,
  raceId: string,
  item: EntryItemSettings,
  winners: DrawCandidate[],
  now: number,
): Promise<MadeOrder[]> {
  const byUser = new Map<number, DrawCandidate[]>();
  for (const entry of winners) byUser.set(entry.userId, [...(byUser.get(entry.userId) ?? []), entry]);
  const deadlineAt = paymentDeadline(item, now);
  const made: MadeOrder[] = [];
  for (const [userId, entries] of byUser) {
    const amountFen = entries.reduce((sum, e) => sum + e.feeFen, 0);
    const order = await tx.orders.create({
      raceId,
      userId,
      amountFen,
      deadlineAt,
      lines: entries.map((e) => ({ entryId: e.id, amountFen: e.feeFen })),
      createdAt: now,
    });
    for (const entry of entries) await tx.entries.addEvent(entry.id, 'orderCreated', now, order.orderNo);
    made.push({ orderNo: order.orderNo, amountFen, deadlineAt, entries });
  }
  return made;
}

// ---------------------------------------------------------------------------------------------------------
// Wait list
// ---------------------------------------------------------------------------------------------------------

/**
 * Promotes the next wait-list units that fit into the item's free places (order-transitions.ts givePlacesBack:
 * a winner did not pay, a refund or a deferral was approved): each member 2 → 1 with a place, a new order to pay
 * and a message; `why` (which place was freed and how) is kept as the note of the 'promoted' step. Units in rank
 * order; a unit larger than the places left waits and the next smaller one is tried. Answers the entry numbers
 * promoted.
 */
export async function promoteFromWaitList(
  repos: Repositories,
  input: { raceId: string; itemCode: string; now: number; why?: string },
): Promise<string[]> {
  const context = await ballotContext(repos, input.raceId, input.itemCode);
  if (!context.ok || context.value.item.model !== 'ballot' || context.value.item.waitList === false) return [];
  const { race, item, zone } = context.value;
  return repos.transaction(async (tx) => {
    await tx.db.lock(ballotLockKey(input.raceId, input.itemCode));
    const drawn = await tx.ballots.latest(input.raceId, input.itemCode);
    if (!drawn || drawn.drawnAt === null) return [];
    const pool = (await tx.entries.places(input.raceId)).find((p) => p.itemCode === item.code && p.pool === 'main');
    let left = pool ? pool.capacity - pool.taken : 0;
    const promoted: DrawCandidate[] = [];
    const waiting = await tx.ballots.waitList(input.raceId, input.itemCode);
    const units = new Map<number, DrawCandidate[]>();
    for (const entry of waiting) units.set(entry.waitRank!, [...(units.get(entry.waitRank!) ?? []), entry]);
    for (const members of units.values()) {
      if (left <= 0) break;
      if (members.length > left) continue;
      // A person who entered the race again since the draw (another item, a code, a charity place) keeps that entry and their place here on
      // the list; the place goes to the next unit (one live entry per person).
      if (members.some((entry) => entry.hasOtherLiveEntry)) continue;
      for (const entry of members) {
        if (
          !(await tx.entries.setStatus(
            entry.id,
            [ENTRY_STATUSES.notWon],
            ENTRY_STATUSES.won,
            'promoted',
            input.now,
            input.why ?? '',
          ))
        ) {
          continue;
        }
        await tx.entries.setWaitRank(entry.id, null, input.now);
        if (!(await tx.entries.holdPlace(entry.id))) throw new Error(`no place left for ${entry.entryNo}`);
        promoted.push(entry);
      }
      left -= members.length;
    }
    for (const made of await makeOrders(tx, race.raceId, item, promoted, input.now)) {
      for (const entry of made.entries) {
        await sendOutcome(tx, race, item, zone, { entry, kind: 'promoted', order: made }, input.now);
      }
    }
    return promoted.map((e) => e.entryNo);
  });
}

/** One entry of an item's wait list as the organiser reads it (CLI ballot-waitlist, the web console). */
export interface WaitListRow {
  /** Its position on the list of the draw that wait-listed it. */
  position: number;
  entryNo: string;
  maskedName: string;
  status: EntryStatus;
  /** When that draw wait-listed it. */
  listedAt: number;
  /** When it got a place from the list, and why (the place freed, and how), or null while it waits. */
  promotedAt: number | null;
  why: string;
}

/**
 * An item's wait list in order: every entry a draw wait-listed, by the draw (oldest first) and position, with
 * its status now and, once promoted, when and why (read from the entries' timelines, so entries promoted and
 * later cancelled are still shown in their place).
 */
export async function waitListOf(
  repos: Repositories,
  raceId: string,
  itemCode: string,
): Promise<BallotOutcome<WaitListRow[]>> {
  const context = await ballotContext(repos, raceId, itemCode);
  if (!context.ok) return context;
  const rows = new Map<string, WaitListRow>();
  for (const step of await repos.ballots.waitListSteps(raceId, itemCode)) {
    if (step.step === 'waitListed') {
      const position = Number(/position (\d+)/.exec(step.note)?.[1] ?? 0);
      rows.set(step.entryNo, {
        position,
        entryNo: step.entryNo,
        maskedName: maskName(step.name),
        status: step.status as EntryStatus,
        listedAt: step.at,
        promotedAt: null,
        why: '',
      });
    } else {
      const row = rows.get(step.entryNo);
      if (row) Object.assign(row, { promotedAt: step.at, why: step.note });
    }
  }
  const list = [...rows.values()].sort((a, b) => a.listedAt - b.listedAt || a.position - b.position || byEntryNo(a, b));
  return { ok: true, value: list };
}

// ---------------------------------------------------------------------------------------------------------
// Reveal
// ---------------------------------------------------------------------------------------------------------

/** Publishes the seed of a drawn round (default: the latest), checked against its commitment. */
export async function revealBallot(
  repos: Repositories,
  input: { raceId: string; itemCode: string; round?: number; now: number; actor?: AuditActor },
): Promise<BallotOutcome<{ round: number; seed: string }>> {
  const context = await ballotContext(repos, input.raceId, input.itemCode);
  if (!context.ok) return context;
  const ballot =
    input.round === undefined
      ? await repos.ballots.latest(input.raceId, input.itemCode)
      : await repos.ballots.find(input.raceId, input.itemCode, input.round);
  if (!ballot) return refuse(`No commitment for ${input.itemCode}.`, 'ballotNoCommitment');
  if (ballot.drawnAt === null) {
    return refuse(`Round ${ballot.round} is not drawn yet: reveal after the draw.`, 'ballotNotDrawn', {
      round: ballot.round,
    });
  }
  if (ballot.seed !== null) {
    return refuse(`Round ${ballot.round} was revealed already.`, 'ballotRevealedAlready', { round: ballot.round });
  }
  const seed = await repos.ballots.secretSeed(input.raceId, input.itemCode, ballot.round);
  if (seed === undefined || !seedMatches(seed, ballot.commitment)) {
    return refuse(
      'The stored seed cannot be read with this server’s ID-number secret (or does not match).',
      'ballotSeedUnreadable',
    );
  }
  if (!(await repos.ballots.reveal(input.raceId, input.itemCode, ballot.round, seed))) {
    return refuse(`Round ${ballot.round} was revealed already.`, 'ballotRevealedAlready', { round: ballot.round });
  }
  if (input.actor) {
    await appendAudit(
      repos,
      input.actor,
      {
        action: 'ballot.reveal',
        raceId: input.raceId,
        target: `${input.itemCode} round ${ballot.round}`,
        after: { round: ballot.round, seed },
      },
      input.now,
    );
  }
  return { ok: true, value: { round: ballot.round, seed } };
}

// ---------------------------------------------------------------------------------------------------------
// Public answers
// ---------------------------------------------------------------------------------------------------------

export const toSummary = (ballot: BallotRow): BallotSummary => ({
  round: ballot.round,
  commitment: ballot.commitment,
  beacon: ballot.beacon,
  committedAt: ballot.committedAt,
  drawnAt: ballot.drawnAt,
  seed: ballot.seed,
  places: ballot.places,
});

/** The public record of a round: never the seed before the reveal (the row holds it only once revealed). */
export function toPublic(ballot: BallotRow, race: RaceInfo): BallotPublic {
  const item = race.entry?.items.find((i) => i.code === ballot.itemCode);
  return {
    ...toSummary(ballot),
    raceId: ballot.raceId,
    itemCode: ballot.itemCode,
    itemName: item?.name ?? { zh: ballot.itemCode, en: ballot.itemCode },
    entries: ballot.entries ?? [],
    winners: ballot.result?.winners ?? [],
    waitList: ballot.result?.waitList ?? [],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Messages: the outcome itself, in both languages (the account's language is not stored)
// ---------------------------------------------------------------------------------------------------------

/** What a message says of its entry. */
type MessageEntry = Pick<DrawCandidate, 'entryNo' | 'name' | 'userId' | 'feeFen'>;

type Message =
  | { entry: MessageEntry; kind: 'won' | 'promoted'; order: MadeOrder }
  | { entry: MessageEntry; kind: 'wonPaid' | 'notWon' | 'notWonRefund' | 'closedUnpaid' }
  | { entry: MessageEntry; kind: 'latePaidRefund'; amountFen: number }
  | { entry: MessageEntry; kind: 'waitList'; position: number };

/** The subject and body of an outcome message (Chinese, then English). */
export function outcomeText(
  race: RaceInfo,
  item: EntryItemSettings,
  zone: string,
  message: Message,
): { subject: string; body: string } {
  const who = `${message.entry.entryNo} (${maskName(message.entry.name)})`;
  const itemZh = item.name.zh;
  const itemEn = item.name.en || item.name.zh;
  const raceEn = race.raceNameEn || race.raceName;
  let zh: string;
  let en: string;
  switch (message.kind) {
    case 'won':
    case 'promoted': {
      const { order } = message;
      const deadline = formatRaceTime(order.deadlineAt, undefined, zone);
      const fee = formatFen(order.amountFen);
      const headZh = message.kind === 'won' ? '中签' : '候补递补成功，获得名额';
      const headEn = message.kind === 'won' ? 'WON a place in the ballot' : 'got a place from the wait list';
      zh = `${race.raceName} ${itemZh}：报名号 ${who} ${headZh}。请在 ${deadline} 前支付订单 ${order.orderNo}（¥${fee}），逾期未付名额将让给候补。`;
      en = `${raceEn} ${itemEn}: entry ${who} ${headEn}. Pay order ${order.orderNo} (CNY ${fee}) before ${deadline} (${zone}) or the place goes to the wait list.`;
      break;
    }
    case 'wonPaid':
      zh = `${race.raceName} ${itemZh}：报名号 ${who} 中签，报名成功（费用已支付）。`;
      en = `${raceEn} ${itemEn}: entry ${who} WON a place in the ballot. Registered successfully (already paid).`;
      break;
    case 'waitList':
      zh = `${race.raceName} ${itemZh}：报名号 ${who} 未中签，候补第 ${message.position} 位；有名额空出时将按顺序递补并通知您。`;
      en = `${raceEn} ${itemEn}: entry ${who} was not drawn and is number ${message.position} on the wait list; if a place becomes free you will be told.`;
      break;
    case 'notWon':
      zh = `${race.raceName} ${itemZh}：报名号 ${who} 未中签。`;
      en = `${raceEn} ${itemEn}: entry ${who} was not drawn.`;
      break;
    case 'notWonRefund':
      zh = `${race.raceName} ${itemZh}：报名号 ${who} 未中签，报名费 ¥${formatFen(message.entry.feeFen)} 将原路退回。`;
      en = `${raceEn} ${itemEn}: entry ${who} was not drawn; the entry fee of CNY ${formatFen(message.entry.feeFen)} is refunded.`;
      break;
    case 'closedUnpaid':
      zh = `${race.raceName} ${itemZh}：报名号 ${who} 在抽签前未完成支付，未参加抽签，报名已取消；之后若仍有扣款，将原路全额退回。`;
      en = `${raceEn} ${itemEn}: entry ${who} was not paid before the draw, so it was not drawn and is cancelled; any payment that still arrives is refunded in full.`;
      break;
    case 'latePaidRefund':
      zh = `${race.raceName} ${itemZh}：报名号 ${who} 的付款在抽签之后才到账，无法参加抽签；¥${formatFen(message.amountFen)} 将原路全额退回。`;
      en = `${raceEn} ${itemEn}: the payment for entry ${who} arrived after the draw, so it cannot take part; CNY ${formatFen(message.amountFen)} is refunded in full.`;
      break;
  }
  return { subject: `抽签结果 Ballot result: ${race.raceName}`, body: `${zh}\n${en}` };
}

/**
 * Tells the runner that a payment of a pay-first entry arrived after its item was drawn and goes back
 * (order-transitions.ts lateRefund), inside the notification's transaction.
 */
export async function tellLatePaymentAfterDraw(
  tx: Repositories,
  entry: MessageEntry & { raceId: string; itemCode: string },
  amountFen: number,
  now: number,
): Promise<void> {
  const context = await ballotContext(tx, entry.raceId, entry.itemCode);
  if (!context.ok) return;
  const { race, item, zone } = context.value;
  await sendOutcome(tx, race, item, zone, { entry, kind: 'latePaidRefund', amountFen }, now);
}

async function sendOutcome(
  tx: Repositories,
  race: RaceInfo,
  item: EntryItemSettings,
  zone: string,
  message: Message,
  now: number,
): Promise<void> {
  const contact = await tx.ballots.contactOf(message.entry.userId);
  if (!contact) return;
  const { subject, body } = outcomeText(race, item, zone, message);
  await tx.outbox.add({ ...contact, subject, body, createdAt: now, sms: outcomeSms(race, item, zone, message) });
}

/** An outcome's SMS template variables (lib/sms/kinds.ts): the fields its text is made of. */
function outcomeSms(race: RaceInfo, item: EntryItemSettings, zone: string, message: Message): SmsContent {
  const base = {
    race: race.raceName,
    raceEn: race.raceNameEn || race.raceName,
    item: item.name.zh,
    itemEn: item.name.en || item.name.zh,
    entryNo: message.entry.entryNo,
  };
  switch (message.kind) {
    case 'won':
    case 'promoted':
      return smsContent(message.kind === 'won' ? 'ballotWon' : 'ballotPromoted', {
        ...base,
        orderNo: message.order.orderNo,
        amount: formatFen(message.order.amountFen),
        deadline: formatRaceTime(message.order.deadlineAt, undefined, zone),
      });
    case 'wonPaid':
      return smsContent('ballotWonPaid', base);
    case 'waitList':
      return smsContent('ballotWaitList', { ...base, position: message.position });
    case 'notWon':
      return smsContent('ballotNotWon', base);
    case 'notWonRefund':
      return smsContent('ballotNotWonRefund', { ...base, amount: formatFen(message.entry.feeFen) });
    case 'closedUnpaid':
      return smsContent('ballotClosedUnpaid', base);
    case 'latePaidRefund':
      return smsContent('ballotLatePaidRefund', { ...base, amount: formatFen(message.amountFen) });
  }
}
