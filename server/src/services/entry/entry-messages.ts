/**
 * The runner's messages of an entry's life outside the ballot (issue 28): a submission accepted, an order paid,
 * an order still unpaid a day before its deadline, a direct-pass application approved, an order cancelled at
 * its payment deadline. Each goes to the account's
 * phone (else its e-mail) through the outbox, as the ballot's outcome messages do (ballot.ts sendOutcome), in
 * Chinese then English: the account's language is not stored, so the runner reads theirs either way. Each is
 * keyed by its event (outbox dedupe_key): a repeated notification, a re-run sweep or a retried submission
 * sends it once.
 */
import { formatFen } from '#contract/entry';
import type { LocalText } from '#contract/registration-form';
import { formatRaceTime } from '#contract/race-clock';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { Repositories } from '../../db/repositories.ts';
import { runnerMessageKey } from '../../lib/outbox-keys.ts';
import { maskName } from '../../lib/race-center.ts';
import { smsContent, type SmsContent } from '../../lib/sms/kinds.ts';

/** One entry as a message names it. */
export interface MessageLine {
  entryNo: string;
  name: string;
  itemName: LocalText;
}

export type EntryEvent =
  | {
      kind: 'submitted';
      lines: MessageLine[];
      order: { orderNo: string; amountFen: number; deadlineAt: number | null } | null;
    }
  | { kind: 'paid'; lines: MessageLine[]; orderNo: string; amountFen: number }
  | { kind: 'cancelledUnpaid'; lines: MessageLine[]; orderNo: string }
  | { kind: 'paymentReminder'; lines: MessageLine[]; orderNo: string; amountFen: number; deadlineAt: number }
  | { kind: 'directApproved'; name: string }
  // The organiser's actions on one entry (issue 30 §5: the console and the CLI, services/console/entry-actions.ts).
  | { kind: 'organiserCancelled'; lines: MessageLine[] }
  | { kind: 'answersEdited'; lines: MessageLine[] }
  | { kind: 'transferred'; lines: MessageLine[]; fromName: string }
  | { kind: 'organiserRefund'; lines: MessageLine[]; orderNo: string; amountFen: number }
  | { kind: 'bibAssigned'; lines: MessageLine[]; bib: string };

const SUBJECT = {
  submitted: '报名提交 Entry submitted',
  paid: '支付成功 Payment received',
  cancelledUnpaid: '订单取消 Order cancelled',
  paymentReminder: '支付提醒 Payment reminder',
  directApproved: '直通审核 Direct pass',
  organiserCancelled: '报名取消 Entry cancelled',
  answersEdited: '报名信息变更 Entry details changed',
  transferred: '名额转让 Place transferred',
  organiserRefund: '退款 Refund',
  bibAssigned: '参赛号码 Bib number',
} as const;

const who = (line: MessageLine) => `${line.entryNo} (${maskName(line.name)})`;

/** The subject and body of an entry message (Chinese, then English). */
export function entryText(raceName: LocalText, zone: string, event: EntryEvent): { subject: string; body: string } {
  const raceZh = raceName.zh;
  const raceEn = raceName.en || raceName.zh;
  const linesZh = (lines: MessageLine[]) => lines.map((l) => `${l.itemName.zh} 报名号 ${who(l)}`).join('；');
  const linesEn = (lines: MessageLine[]) =>
    lines.map((l) => `${l.itemName.en || l.itemName.zh} entry ${who(l)}`).join('; ');
  let zh: string;
  let en: string;
  switch (event.kind) {
    case 'submitted': {
      zh = `${raceZh}：${linesZh(event.lines)} 已提交。`;
      en = `${raceEn}: ${linesEn(event.lines)} submitted.`;
      const { order } = event;
      if (order && order.deadlineAt !== null) {
        const deadline = formatRaceTime(order.deadlineAt, undefined, zone);
        zh += `请在 ${deadline} 前支付订单 ${order.orderNo}（¥${formatFen(order.amountFen)}），逾期未付订单将自动取消。`;
        en += ` Pay order ${order.orderNo} (CNY ${formatFen(order.amountFen)}) before ${deadline} (${zone}) or it is cancelled.`;
      }
      break;
    }
    case 'paid':
      zh = `${raceZh}：订单 ${event.orderNo} 已支付 ¥${formatFen(event.amountFen)}（${linesZh(event.lines)}）。`;
      en = `${raceEn}: order ${event.orderNo} is paid, CNY ${formatFen(event.amountFen)} (${linesEn(event.lines)}).`;
      break;
    case 'cancelledUnpaid':
      zh = `${raceZh}：订单 ${event.orderNo} 未在支付期限前支付，已自动取消，${linesZh(event.lines)} 的报名随之取消、名额已释放。`;
      en = `${raceEn}: order ${event.orderNo} was not paid by its deadline and is cancelled; ${linesEn(event.lines)} is cancelled and its place released.`;
      break;
    case 'paymentReminder': {
      const deadline = formatRaceTime(event.deadlineAt, undefined, zone);
      zh = `${raceZh}：订单 ${event.orderNo}（${linesZh(event.lines)}，¥${formatFen(event.amountFen)}）尚未支付，请在 ${deadline} 前支付，逾期订单将自动取消、名额释放。`;
      en = `${raceEn}: order ${event.orderNo} (${linesEn(event.lines)}, CNY ${formatFen(event.amountFen)}) is not paid yet. Pay it before ${deadline} (${zone}) or it is cancelled and its place released.`;
      break;
    }
    case 'directApproved':
      zh = `${raceZh}：${maskName(event.name)} 的直通资格申请已审核通过，现可通过直通通道报名。`;
      en = `${raceEn}: the direct-pass application of ${maskName(event.name)} is approved: you may now enter through the direct-pass channel.`;
      break;
    case 'organiserCancelled':
      zh = `${raceZh}：${linesZh(event.lines)} 已由主办方取消，名额已释放。如有疑问请联系主办方。`;
      en = `${raceEn}: ${linesEn(event.lines)} was cancelled by the organiser and its place released. Contact the organiser with any question.`;
      break;
    case 'answersEdited':
      zh = `${raceZh}：主办方已修改 ${linesZh(event.lines)} 的报名信息，请在个人中心核对。`;
      en = `${raceEn}: the organiser changed the details of ${linesEn(event.lines)}; please check them in your account.`;
      break;
    case 'transferred':
      zh = `${raceZh}：主办方已将 ${maskName(event.fromName)} 的名额转让给 ${linesZh(event.lines)}。`;
      en = `${raceEn}: the organiser transferred the place of ${maskName(event.fromName)} to ${linesEn(event.lines)}.`;
      break;
    case 'organiserRefund':
      zh = `${raceZh}：主办方为订单 ${event.orderNo}（${linesZh(event.lines)}）发起退款 ¥${formatFen(event.amountFen)}，将原路退回。`;
      en = `${raceEn}: the organiser refunds CNY ${formatFen(event.amountFen)} of order ${event.orderNo} (${linesEn(event.lines)}) to the original payment.`;
      break;
    case 'bibAssigned':
      zh = `${raceZh}：${linesZh(event.lines)} 的参赛号码为 ${event.bib}。`;
      en = `${raceEn}: the bib of ${linesEn(event.lines)} is ${event.bib}.`;
      break;
  }
  return { subject: `${SUBJECT[event.kind]}: ${raceZh}`, body: `${zh}\n${en}` };
}

/** An entry message's SMS template variables (lib/sms/kinds.ts): the fields its text is made of. */
export function entrySms(raceName: LocalText, zone: string, event: EntryEvent): SmsContent {
  const race = { race: raceName.zh, raceEn: raceName.en || raceName.zh };
  const entryNos = (lines: MessageLine[]) => lines.map((l) => l.entryNo).join(',');
  switch (event.kind) {
    case 'submitted':
      return event.order && event.order.deadlineAt !== null
        ? smsContent('paymentDue', {
            ...race,
            entryNo: entryNos(event.lines),
            orderNo: event.order.orderNo,
            amount: formatFen(event.order.amountFen),
            deadline: formatRaceTime(event.order.deadlineAt, undefined, zone),
          })
        : smsContent('entrySubmitted', { ...race, entryNo: entryNos(event.lines) });
    case 'paid':
      return smsContent('orderPaid', { ...race, orderNo: event.orderNo, amount: formatFen(event.amountFen) });
    case 'cancelledUnpaid':
      return smsContent('orderCancelledUnpaid', { ...race, orderNo: event.orderNo });
    case 'paymentReminder':
      return smsContent('paymentReminder', {
        ...race,
        orderNo: event.orderNo,
        amount: formatFen(event.amountFen),
        deadline: formatRaceTime(event.deadlineAt, undefined, zone),
      });
    case 'directApproved':
      return smsContent('directApproved', { ...race, name: maskName(event.name) });
    case 'organiserCancelled':
      return smsContent('entryCancelled', { ...race, entryNo: entryNos(event.lines) });
    case 'answersEdited':
      return smsContent('entryEdited', { ...race, entryNo: entryNos(event.lines) });
    case 'transferred':
      return smsContent('placeTransferred', {
        ...race,
        entryNo: entryNos(event.lines),
        fromName: maskName(event.fromName),
      });
    case 'organiserRefund':
      return smsContent('organiserRefund', { ...race, orderNo: event.orderNo, amount: formatFen(event.amountFen) });
    case 'bibAssigned':
      return smsContent('bibAssigned', { ...race, entryNo: entryNos(event.lines), bib: event.bib });
  }
}

/**
 * Queues the message of `event` to account `userId` under `key` (the event's own: once per key), through
 * `repos` (the event's transaction, or the pool after it). An account without phone or e-mail gets none.
 */
export async function tellRunner(
  repos: Repositories,
  raceOf: string | RaceInfo,
  userId: number,
  key: string,
  event: EntryEvent,
  now: number,
): Promise<void> {
  const contact = await repos.ballots.contactOf(userId);
  if (!contact) return;
  const race = typeof raceOf === 'string' ? await repos.races.findById(raceOf) : raceOf;
  if (!race) return;
  await repos.outbox.add({ ...runnerMessage(contact, race, key, event), createdAt: now });
}

/**
 * The outbox message of `event` to `contact` under `key` (what tellRunner queues), for a writer that queues it
 * with its own rows (a submission: services/entry/submit/plan.ts).
 */
export function runnerMessage(
  contact: { channel: 'sms' | 'email'; destination: string },
  race: RaceInfo,
  key: string,
  event: EntryEvent,
): {
  channel: 'sms' | 'email';
  destination: string;
  subject: string;
  body: string;
  dedupeKey: string;
  sms: SmsContent;
} {
  const name = { zh: race.raceName, en: race.raceNameEn || race.raceName };
  const { subject, body } = entryText(name, raceTimeZone(race), event);
  return {
    ...contact,
    subject,
    body,
    dedupeKey: runnerMessageKey(key, race.raceId),
    sms: entrySms(name, raceTimeZone(race), event),
  };
}

/** The message lines of an order's entries, named by their race's items. */
export async function linesOfOrder(repos: Repositories, orderId: number, raceId: string): Promise<MessageLine[]> {
  const race = await repos.races.findById(raceId);
  const items = race?.entry?.items ?? [];
  return (await repos.entries.ofOrder(orderId)).map((e) => ({
    entryNo: e.entryNo,
    name: e.name,
    itemName: items.find((i) => i.code === e.itemCode)?.name ?? { zh: e.itemCode, en: e.itemCode },
  }));
}
