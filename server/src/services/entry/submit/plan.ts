/**
 * What a submission writes, decided here once for every writer of entries (the sign-up, and the organiser's
 * console to come): by the item's model and the channel, whether its entries take a place now, get an order and
 * at what fee, their status and first timeline steps; then the rows themselves (SubmissionWrite) and the answer
 * the runner gets, built from those rows, not read back.
 *
 * Places and orders by model and channel: first-come, charity, direct and code entries take a place now and get
 * an order to pay within the item's payment minutes; pay-then-draw entries get an order and no place; ballot
 * entries (public or team) wait for the draw with no order. An order of 0 fen is paid at once: its entries move
 * on as a payment moves them (order-transitions.ts statusAfterPayment) with the step 'paid'.
 */
import {
  ENTRY_STATUSES,
  feeFen,
  type EntryChannel,
  type EntryItemSettings,
  type EntryStatus,
  type EntrySubmitAnswer,
  type OrderView,
  type TimelineStep,
} from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import {
  poolOf,
  type EntryEvent,
  type EntryRecord,
  type PlacePool,
  type SubmissionWrite,
} from '../../../db/entries-repository.ts';
import { orderView, type OrderRecord } from '../../../db/orders-repository.ts';
import type { Repositories } from '../../../db/repositories.ts';
import { runnerMessage } from '../entry-messages.ts';
import { systemText } from '../../messages/templates.ts';
import { statusAfterPayment } from '../order-transitions.ts';
import { paymentDeadline } from '../payment-window.ts';
import { myEntryViews } from '../views.ts';
import type { Person } from './people.ts';

/** How entries of an item through a channel start: the rules by model and channel. */
export interface EntryTerms {
  /** Takes a place of `pool` now. */
  holdsPlace: boolean;
  pool: PlacePool;
  /** Gets an order (to pay within the item's payment minutes). */
  ordered: boolean;
  /** Each entry's fee (its order line). */
  feeFen: number;
  /** The order is of 0 fen: paid at once. */
  paidAtOnce: boolean;
  status: EntryStatus;
  steps: TimelineStep[];
}

export function entryTerms(item: EntryItemSettings, channel: EntryChannel): EntryTerms {
  const holdsPlace = channel === 'charity' || channel === 'direct' || channel === 'code' || item.model === 'firstCome';
  const ordered = holdsPlace || item.model === 'payThenDraw';
  const fee = feeFen(item, channel);
  const paidAtOnce = ordered && fee === 0;
  const submitted = ENTRY_STATUSES.submitted;
  return {
    holdsPlace,
    pool: poolOf(channel),
    ordered,
    feeFen: fee,
    paidAtOnce,
    status: paidAtOnce ? statusAfterPayment({ channel, status: submitted }, item.model) : submitted,
    steps: ordered ? ['submitted', 'orderCreated', ...(paidAtOnce ? (['paid'] as const) : [])] : ['submitted'],
  };
}

/** A submission ready to be written: who, what, through which code or team, and the account's rule. */
export interface SubmissionDraft {
  race: RaceInfo;
  item: EntryItemSettings;
  channel: EntryChannel;
  userId: number;
  idempotencyKey: string;
  people: Person[];
  codeId: number | null;
  team: { id: number; maxSize: number } | undefined;
  accountLimit: number;
  /** Where the runner's message goes (none: no message). */
  contact: { channel: 'sms' | 'email'; destination: string } | undefined;
  at: number;
}

/** The numbers a submission's rows get (newEntryNo, newOrderNo; drawn again when one was taken meanwhile). */
export interface SubmissionNumbers {
  entryNo: () => string;
  orderNo: (at: number) => string;
}

/** The lock keys of the writer's rules: an account's entries in a race, a team's members. */
export const accountLock = (raceId: string, userId: number) => `entry-account:${raceId}:${userId}`;
export const teamLock = (teamId: number) => `entry-team:${teamId}`;

/**
 * The rows of `draft` with new numbers (SubmissionWrite, for EntriesRepository.writeSubmission) and the answer
 * they make, with the runner's message of it.
 */
export async function planSubmission(
  repos: Repositories,
  draft: SubmissionDraft,
  numbers: SubmissionNumbers,
): Promise<{ write: SubmissionWrite; answer: EntrySubmitAnswer }> {
  const { race, item, channel, userId, people, at } = draft;
  const terms = entryTerms(item, channel);
  const n = people.length;
  const records = people.map((person, k): EntryRecord & { events: EntryEvent[] } => ({
    raceId: race.raceId,
    itemCode: item.code,
    channel,
    userId,
    teamId: draft.team?.id ?? null,
    codeId: draft.codeId,
    status: terms.status,
    holdsPlace: terms.holdsPlace,
    name: person.name,
    gender: person.gender,
    birthday: person.birthday,
    certType: person.certType,
    certHash: person.certHash,
    certNumber: person.certNumber,
    phone: person.phone,
    feeFen: terms.feeFen,
    // Not read back: the answer never shows an entry's id, only that each is its own.
    id: -(k + 1),
    entryNo: numbers.entryNo(),
    bib: null,
    waitRank: null,
    createdAt: at,
    updatedAt: at,
    events: terms.steps.map((step) => ({ step, at, note: '' })),
  }));
  let order: SubmissionWrite['order'];
  let orderShown: OrderView | null = null;
  if (terms.ordered) {
    const orderNo = numbers.orderNo(at);
    const paidAt = terms.paidAtOnce ? at : null;
    order = {
      orderNo,
      subOrderNos: records.map((_, k) => `${orderNo}-${k + 1}`),
      amountFen: terms.feeFen * n,
      deadlineAt: paymentDeadline(item, at),
      paidAt,
    };
    const record: OrderRecord = {
      id: 0,
      orderNo,
      raceId: race.raceId,
      userId,
      status: paidAt === null ? 1 : 3,
      amountFen: order.amountFen,
      paidFen: 0,
      refundedFen: 0,
      deadlineAt: order.deadlineAt,
      createdAt: at,
      paidAt,
      settledAt: paidAt,
      serialNo: null,
    };
    const lines = records.map((entry, k) => ({
      subOrderNo: order!.subOrderNos[k]!,
      entryNo: entry.entryNo,
      name: entry.name,
      itemCode: entry.itemCode,
      amountFen: terms.feeFen,
    }));
    // As the order's lines are read (ORDER BY sub_order_no).
    lines.sort((a, b) => (a.subOrderNo < b.subOrderNo ? -1 : a.subOrderNo > b.subOrderNo ? 1 : 0));
    orderShown = orderView(record, lines, race, at);
  }
  const orderNos = new Map(order ? records.map((entry) => [entry.id, order.orderNo]) : []);
  const answer: EntrySubmitAnswer = {
    entries: await myEntryViews(repos, records, { races: new Map([[race.raceId, race]]), orderNos }),
    order: orderShown,
  };
  const first = answer.entries[0];
  const builtIn =
    draft.contact && first
      ? runnerMessage(draft.contact, race, `submitted:${first.entryNo}`, {
          kind: 'submitted',
          lines: answer.entries.map((e) => ({ entryNo: e.entryNo, name: e.name, itemName: e.itemName })),
          order: orderShown && {
            orderNo: orderShown.orderNo,
            amountFen: orderShown.amountFen,
            deadlineAt: orderShown.deadlineAt,
          },
        })
      : undefined;
  // The race's own wording of the kind, if it has one (services/messages/templates.ts).
  const message = builtIn && {
    ...builtIn,
    ...pickText(await systemText(repos, race.raceId, userId, builtIn.sms, builtIn)),
  };
  const write: SubmissionWrite = {
    userId,
    idempotencyKey: draft.idempotencyKey,
    answerJson: JSON.stringify(answer),
    now: at,
    entry: {
      raceId: race.raceId,
      itemCode: item.code,
      channel,
      userId,
      teamId: draft.team?.id ?? null,
      codeId: draft.codeId,
      status: terms.status,
      holdsPlace: terms.holdsPlace,
      feeFen: terms.feeFen,
    },
    people: people.map((person, k) => ({ ...person, entryNo: records[k]!.entryNo })),
    steps: terms.steps,
    order,
    usesCode: draft.codeId !== null,
    takesPlaces: terms.holdsPlace ? terms.pool : undefined,
    account: { lock: accountLock(race.raceId, userId), limit: draft.accountLimit },
    team: draft.team && { lock: teamLock(draft.team.id), maxSize: draft.team.maxSize },
    message,
  };
  return { write, answer };
}

const pickText = ({ subject, body }: { subject: string; body: string }) => ({ subject, body });
