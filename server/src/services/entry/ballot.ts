/**
 * The ballot anyone can verify (issue #14 §3; docs/ballot.md). The organiser commits (the SHA-256 of a random
 * seed, published before the sign-up window closes, optionally naming a public beacon), draws after the window
 * (contract/ballot.ts drawBallot over the frozen, published entry list) and reveals the seed; anyone re-runs the
 * draw from the published page. Winners take their places (ballot model: an order to pay within the item's
 * payment minutes; pay first, then draw: already paid), losers go to the wait list in draw order (ballot model)
 * or are refunded (pay first, then draw). Every runner gets the outcome itself in a message (outbox), not a
 * link to look it up. A place freed by an unpaid winner goes to the next wait-list unit that fits
 * (`promoteFromWaitList`); a later round draws over the entries that did not win instead.
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
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { BallotRow, DrawCandidate } from '../../db/ballots-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskName } from '../../lib/race-center.ts';
import { onPlaceFreed, type PlaceFreedHandler } from './hooks.ts';
import { paymentDeadline } from './payment-window.ts';

export type BallotOutcome<T> = { ok: true; value: T } | { ok: false; problem: string };

const refuse = <T>(problem: string): BallotOutcome<T> => ({ ok: false, problem });

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

/** The race and its ballot item, or the reason there is none. */
export async function ballotContext(
  repos: Repositories,
  raceId: string,
  itemCode: string,
): Promise<BallotOutcome<BallotContext>> {
  const race = await repos.races.findById(raceId);
  if (!race) return refuse(`No race "${raceId}".`);
  const item = race.entry?.items.find((i) => i.code === itemCode);
  if (!item) return refuse(`Race ${raceId} has no entry item "${itemCode}" (race.json entry.items).`);
  if (!BALLOT_MODELS.has(item.model)) {
    return refuse(`Item ${itemCode} is ${item.model}: only ballot and payThenDraw items are drawn.`);
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
  input: { raceId: string; itemCode: string; beacon?: string; now: number; seed?: string },
): Promise<BallotOutcome<Committed>> {
  const context = await ballotContext(repos, input.raceId, input.itemCode);
  if (!context.ok) return context;
  const { race, zone, signUpEnd } = context.value;
  const latest = await repos.ballots.latest(input.raceId, input.itemCode);
  if (latest && latest.drawnAt === null) {
    return refuse(`Round ${latest.round} of ${input.itemCode} is committed and not drawn yet.`);
  }
  const round = latest ? latest.round + 1 : 1;
  if (round > 1 && context.value.item.model === 'payThenDraw') {
    return refuse(`Item ${input.itemCode} is payThenDraw: its losers are refunded, so there is no second round.`);
  }
  if (round === 1) {
    if (signUpEnd === null) return refuse(`Race ${input.raceId} has no signUpEndTime: the commitment must precede it.`);
    if (input.now >= signUpEnd) {
      return refuse(
        `The sign-up window closed at ${formatRaceTime(signUpEnd, undefined, zone)} (${zone}): a commitment ` +
          `must be published before it closes.`,
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
  if (!stored) return refuse(`Round ${round} of ${input.itemCode} was committed at the same moment by another run.`);
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
  /** Entries refunded (pay first, then draw). */
  refunded: number;
  messages: number;
}

/** How the draw refunds the losers of a pay-first item (services/entry/order-transitions.ts refundEntries). */
export type RefundLosers = (input: { orderId: number; entryIds: number[]; reason: string }) => Promise<unknown>;

/** Entry numbers sort by their characters' code points (the same in every engine and in the browser). */
const byEntryNo = (a: { entryNo: string }, b: { entryNo: string }) =>
  a.entryNo < b.entryNo ? -1 : a.entryNo > b.entryNo ? 1 : 0;

export const REFUND_REASON_NOT_WON = 'notWon';

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
 * Draws a committed round (default: the latest) after the window: freezes the list, runs drawBallot, moves
 * winners and losers (guarded on their status), makes the winners' orders, the wait list and the messages, and
 * records the round; then refunds the losers of a pay-first item. A round draws once.
 */
export async function drawRound(
  repos: Repositories,
  input: { raceId: string; itemCode: string; round?: number; beaconValue?: string; now: number },
  refundLosers?: RefundLosers,
): Promise<BallotOutcome<Drawn>> {
  const context = await ballotContext(repos, input.raceId, input.itemCode);
  if (!context.ok) return context;
  const { race, item, zone, signUpEnd } = context.value;
  const ballot =
    input.round === undefined
      ? await repos.ballots.latest(input.raceId, input.itemCode)
      : await repos.ballots.find(input.raceId, input.itemCode, input.round);
  if (!ballot) {
    return refuse(
      `No commitment for ${input.itemCode}${input.round ? ` round ${input.round}` : ''}: run ballot-commit first.`,
    );
  }
  if (ballot.drawnAt !== null) return refuse(`Round ${ballot.round} of ${input.itemCode} was drawn already.`);
  if (signUpEnd === null || input.now < signUpEnd) {
    return refuse(
      `The sign-up window is still open${signUpEnd === null ? '' : ` until ${formatRaceTime(signUpEnd, undefined, zone)} (${zone})`}: draw after it closes.`,
    );
  }
  if (ballot.round > 1) {
    const previous = await repos.ballots.find(input.raceId, input.itemCode, ballot.round - 1);
    if (!previous || previous.drawnAt === null) return refuse(`Round ${ballot.round - 1} is not drawn yet.`);
  }
  const beaconValue = (input.beaconValue ?? '').trim();
  if (ballot.beacon !== '' && beaconValue === '') {
    return refuse(`The commitment named the beacon "${ballot.beacon}": give its value with --beacon-value.`);
  }
  if (ballot.beacon === '' && beaconValue !== '') {
    return refuse('The commitment named no beacon: a beacon value now would be chosen after the commitment.');
  }
  const beacon = beaconText(ballot.beacon, beaconValue);
  const payFirst = item.model === 'payThenDraw';
  const refunds = new Map<number, number[]>();

  const outcome = await repos.transaction(async (tx): Promise<BallotOutcome<Drawn>> => {
    await tx.db.lock(`ballot:${input.raceId}:${input.itemCode}`);
    const seed = await tx.ballots.secretSeed(input.raceId, input.itemCode, ballot.round);
    if (seed === undefined || !seedMatches(seed, ballot.commitment)) {
      return refuse('The stored seed cannot be read with this server’s ID-number secret (or does not match).');
    }
    await tx.entries.ensurePlaces(input.raceId, race.entry);
    const candidates = asDrawnUnits(
      (ballot.round === 1
        ? await tx.ballots.firstRoundCandidates(input.raceId, input.itemCode, payFirst)
        : await tx.ballots.laterRoundCandidates(input.raceId, input.itemCode)
      ).sort(byEntryNo),
    );
    const pool = (await tx.entries.places(input.raceId)).find((p) => p.itemCode === item.code && p.pool === 'main');
    const held = candidates.filter((c) => c.holdsPlace).length;
    const places = Math.max(0, (pool ? pool.capacity - pool.taken : 0) + held);
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
    if (!recorded) return refuse(`Round ${ballot.round} of ${input.itemCode} was drawn already.`);

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
    if (payFirst) {
      const paid = await tx.ballots.paidOrders(result.waitList.map((no) => byNo.get(no)!.id));
      for (const [entryId, orderId] of paid) refunds.set(orderId, [...(refunds.get(orderId) ?? []), entryId]);
    }
    for (const message of messages) await sendOutcome(tx, race, item, zone, message, input.now);
    return {
      ok: true,
      value: {
        round: ballot.round,
        places,
        entries: entries.length,
        winners: result.winners,
        waitList: result.waitList,
        orders,
        refunded: 0,
        messages: messages.length,
      },
    };
  });
  if (!outcome.ok) return outcome;
  let refunded = 0;
  if (refunds.size > 0) {
    if (!refundLosers) return refuse('The draw is recorded, but no payment provider was given to refund the losers.');
    for (const [orderId, entryIds] of refunds) {
      await refundLosers({ orderId, entryIds, reason: REFUND_REASON_NOT_WON });
      refunded += entryIds.length;
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
 * Promotes the next wait-list units that fit into the item's free places (a ballot winner did not pay): each
 * member 2 → 1 with a place, a new order to pay and a message. Units in rank order; a unit larger than the
 * places left waits and the next smaller one is tried. Answers the entry numbers promoted.
 */
export async function promoteFromWaitList(
  repos: Repositories,
  input: { raceId: string; itemCode: string; now: number },
): Promise<string[]> {
  const context = await ballotContext(repos, input.raceId, input.itemCode);
  if (!context.ok || context.value.item.model !== 'ballot' || context.value.item.waitList === false) return [];
  const { race, item, zone } = context.value;
  return repos.transaction(async (tx) => {
    await tx.db.lock(`ballot:${input.raceId}:${input.itemCode}`);
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
      for (const entry of members) {
        if (
          !(await tx.entries.setStatus(entry.id, [ENTRY_STATUSES.notWon], ENTRY_STATUSES.won, 'promoted', input.now))
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

/** The wait-list promotion as a handler of freed places (runs in the freeing transaction). */
const promoteOnPlaceFreed: PlaceFreedHandler = async (repos, freed) => {
  await promoteFromWaitList(repos, { raceId: freed.raceId, itemCode: freed.itemCode, now: freed.at });
};

/** Registers the wait-list promotion on freed places (services/entry/hooks.ts); registering again is a no-op. */
export const registerBallotHooks = () => onPlaceFreed(promoteOnPlaceFreed);

// ---------------------------------------------------------------------------------------------------------
// Reveal
// ---------------------------------------------------------------------------------------------------------

/** Publishes the seed of a drawn round (default: the latest), checked against its commitment. */
export async function revealBallot(
  repos: Repositories,
  input: { raceId: string; itemCode: string; round?: number },
): Promise<BallotOutcome<{ round: number; seed: string }>> {
  const context = await ballotContext(repos, input.raceId, input.itemCode);
  if (!context.ok) return context;
  const ballot =
    input.round === undefined
      ? await repos.ballots.latest(input.raceId, input.itemCode)
      : await repos.ballots.find(input.raceId, input.itemCode, input.round);
  if (!ballot) return refuse(`No commitment for ${input.itemCode}.`);
  if (ballot.drawnAt === null) return refuse(`Round ${ballot.round} is not drawn yet: reveal after the draw.`);
  if (ballot.seed !== null) return refuse(`Round ${ballot.round} was revealed already.`);
  const seed = await repos.ballots.secretSeed(input.raceId, input.itemCode, ballot.round);
  if (seed === undefined || !seedMatches(seed, ballot.commitment)) {
    return refuse('The stored seed cannot be read with this server’s ID-number secret (or does not match).');
  }
  if (!(await repos.ballots.reveal(input.raceId, input.itemCode, ballot.round, seed))) {
    return refuse(`Round ${ballot.round} was revealed already.`);
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

type Message =
  | { entry: DrawCandidate; kind: 'won' | 'promoted'; order: MadeOrder }
  | { entry: DrawCandidate; kind: 'wonPaid' | 'notWon' | 'notWonRefund' }
  | { entry: DrawCandidate; kind: 'waitList'; position: number };

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
  }
  return { subject: `抽签结果 Ballot result: ${race.raceName}`, body: `${zh}\n${en}` };
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
  await tx.outbox.add({ ...contact, subject, body, createdAt: now });
}
