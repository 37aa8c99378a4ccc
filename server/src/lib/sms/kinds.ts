/**
 * Every kind of message the site sends to a runner's phone (issue 31 §4), with the variables each offers to a
 * provider's template. A real SMS provider (Aliyun, Tencent) sends only approved templates, never free text:
 * the organiser has one template approved per kind (lib/sms/templates.ts maps kind → template code), written
 * with the variables named here. Every writer of the outbox passes its message's kind and variables
 * (`sms` of OutboxRepository.add); the text body stays what the development outbox and e-mail show.
 *
 * Variables are short fields of the message (a code, a race name, an entry number, an amount in yuan, a
 * deadline in the race's time zone, a masked name), never a personal ID number nor a whole name.
 */

/** The variables of a kind, in their default order (Tencent's TemplateParamSet is a list, in this order). */
export const SMS_KINDS = {
  // Verification codes (plugins/delivery.ts).
  loginCode: ['code', 'minutes'],
  registerCode: ['code', 'minutes'],
  resetCode: ['code', 'minutes'],
  // Ballot outcomes (services/entry/ballot.ts).
  ballotWon: ['race', 'item', 'entryNo', 'orderNo', 'amount', 'deadline', 'raceEn', 'itemEn'],
  ballotPromoted: ['race', 'item', 'entryNo', 'orderNo', 'amount', 'deadline', 'raceEn', 'itemEn'],
  ballotWonPaid: ['race', 'item', 'entryNo', 'raceEn', 'itemEn'],
  ballotWaitList: ['race', 'item', 'entryNo', 'position', 'raceEn', 'itemEn'],
  ballotNotWon: ['race', 'item', 'entryNo', 'raceEn', 'itemEn'],
  ballotNotWonRefund: ['race', 'item', 'entryNo', 'amount', 'raceEn', 'itemEn'],
  ballotClosedUnpaid: ['race', 'item', 'entryNo', 'raceEn', 'itemEn'],
  ballotLatePaidRefund: ['race', 'item', 'entryNo', 'amount', 'raceEn', 'itemEn'],
  // An entry's life (services/entry/entry-messages.ts). paymentDue: submitted with an order to pay by a deadline;
  // paymentReminder: that order still unpaid a day before its deadline (services/entry/payment-reminders.ts).
  entrySubmitted: ['race', 'entryNo', 'raceEn'],
  paymentDue: ['race', 'entryNo', 'orderNo', 'amount', 'deadline', 'raceEn'],
  paymentReminder: ['race', 'orderNo', 'amount', 'deadline', 'raceEn'],
  orderPaid: ['race', 'orderNo', 'amount', 'raceEn'],
  orderCancelledUnpaid: ['race', 'orderNo', 'raceEn'],
  directApproved: ['race', 'name', 'raceEn'],
  entryCancelled: ['race', 'entryNo', 'raceEn'],
  entryEdited: ['race', 'entryNo', 'raceEn'],
  placeTransferred: ['race', 'entryNo', 'fromName', 'raceEn'],
  organiserRefund: ['race', 'orderNo', 'amount', 'raceEn'],
  bibAssigned: ['race', 'entryNo', 'bib', 'raceEn'],
  // Refund and deferral requests (services/after-entry/refunds.ts).
  refundApproved: ['race', 'item', 'entryNo', 'amount', 'raceEn', 'itemEn'],
  deferralApproved: ['race', 'item', 'entryNo', 'raceEn', 'itemEn'],
  refundRejected: ['race', 'item', 'entryNo', 'reason', 'raceEn', 'itemEn'],
  deferralRejected: ['race', 'item', 'entryNo', 'reason', 'raceEn', 'itemEn'],
  deferralCode: ['race', 'item', 'entryNo', 'code', 'until', 'raceEn', 'itemEn'],
  // The race pack by post (services/after-entry/mailing.ts).
  packShipped: ['race', 'carrier', 'trackingNo', 'raceEn'],
  // A message of the organiser to chosen entrants (services/messages/campaigns.ts): a provider sends no free
  // text, so its template says that a message (title: its subject) waits in the runner's personal centre.
  raceNotice: ['race', 'title', 'raceEn'],
} as const satisfies Record<string, readonly string[]>;

export type SmsKind = keyof typeof SMS_KINDS;
export const SMS_KIND_NAMES = Object.keys(SMS_KINDS) as SmsKind[];

export const isSmsKind = (name: string): name is SmsKind => Object.hasOwn(SMS_KINDS, name);

/** What an outbox row carries for a provider's template: its kind and its variables' values. */
export interface SmsContent {
  kind: SmsKind;
  params: Record<string, string>;
}

/** The kind's content, its values turned to text (a missing value is an empty text, never "undefined"). */
export function smsContent<K extends SmsKind>(
  kind: K,
  params: Partial<Record<(typeof SMS_KINDS)[K][number], string | number>>,
): SmsContent {
  const values: Record<string, string> = {};
  for (const name of SMS_KINDS[kind]) {
    const value = (params as Record<string, string | number | undefined>)[name];
    values[name] = value === undefined ? '' : String(value);
  }
  return { kind, params: values };
}

/** Minutes a verification code stays valid (the text of plugins/delivery.ts says the same). */
export const CODE_VALID_MINUTES = 10;

/** A mainland China mobile number (with or without +86 / 0086 / 86 before it): the Chinese template's. */
export function isMainlandPhone(phone: string): boolean {
  return /^(?:\+?86|0086)?1[3-9]\d{9}$/.test(phone.replace(/[\s-]/g, ''));
}
