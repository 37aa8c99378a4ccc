/**
 * The wording of the system messages (issue 32 §2): per race and kind (lib/sms/kinds.ts, every kind a runner
 * receives about a race: not the verification codes, which come before any race, nor raceNotice, whose text is
 * the organiser's message itself), in Chinese and English, with the kind's variables as placeholders. A race
 * without its own wording of a kind sends the site's built-in text (each writer's, bilingual); the defaults
 * below are that wording as a template, the start of the organiser's own; "reset" goes back to the built-in.
 *
 * A message with the race's wording is written in the runner's language (users.language; unknown: Chinese).
 * With a real SMS provider (Aliyun, Tencent) an SMS is still the provider's approved template with the kind's
 * variables (lib/sms/templates.ts): the wording here is what e-mail, the outbox and "my messages" show.
 */
import {
  MESSAGE_BODY_MAX,
  MESSAGE_SUBJECT_MAX,
  renderText,
  unknownPlaceholder,
  type MessageLanguage,
  type MessageText,
  type TemplateView,
} from '#contract/runner-messages';
import type { ConsoleMessageCode } from '#contract/console-messages';
import type { Repositories } from '../../db/repositories.ts';
import { SMS_KINDS, type SmsContent, type SmsKind } from '../../lib/sms/kinds.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

/** The kinds whose wording a race sets. */
export type TemplateKind = Exclude<SmsKind, 'loginCode' | 'registerCode' | 'resetCode' | 'raceNotice'>;

const t = (subjectZh: string, bodyZh: string, subjectEn: string, bodyEn: string): MessageText => ({
  subjectZh,
  bodyZh,
  subjectEn,
  bodyEn,
});

/** The built-in wording of each kind, as a template. */
export const DEFAULT_TEMPLATES: Record<TemplateKind, MessageText> = {
  ballotWon: t(
    '中签通知：{race}',
    '{race}：您报名的{item}（报名号 {entryNo}）已中签，请在 {deadline} 前支付订单 {orderNo}（¥{amount}），逾期名额将让给候补。',
    'Ballot result: {raceEn}',
    '{raceEn}: your entry {entryNo} in the {itemEn} won a place. Pay order {orderNo} (CNY {amount}) before {deadline} or the place goes to the wait list.',
  ),
  ballotPromoted: t(
    '候补递补：{race}',
    '{race}：您在{item}候补的报名（报名号 {entryNo}）已递补成功，请在 {deadline} 前支付订单 {orderNo}（¥{amount}）。',
    'A place from the wait list: {raceEn}',
    '{raceEn}: your wait-listed entry {entryNo} in the {itemEn} got a place. Pay order {orderNo} (CNY {amount}) before {deadline}.',
  ),
  ballotWonPaid: t(
    '中签通知：{race}',
    '{race}：您报名的{item}（报名号 {entryNo}）已中签，报名费已支付，报名完成。',
    'Ballot result: {raceEn}',
    '{raceEn}: your entry {entryNo} in the {itemEn} won a place; its fee is paid and your entry is complete.',
  ),
  ballotWaitList: t(
    '抽签结果：{race}',
    '{race}：您报名的{item}（报名号 {entryNo}）未中签，已进入候补，候补序号 {position}。',
    'Ballot result: {raceEn}',
    '{raceEn}: your entry {entryNo} in the {itemEn} was not drawn and is on the wait list, number {position}.',
  ),
  ballotNotWon: t(
    '抽签结果：{race}',
    '{race}：很遗憾，您报名的{item}（报名号 {entryNo}）未中签。',
    'Ballot result: {raceEn}',
    '{raceEn}: we are sorry, your entry {entryNo} in the {itemEn} was not drawn.',
  ),
  ballotNotWonRefund: t(
    '抽签结果：{race}',
    '{race}：很遗憾，您报名的{item}（报名号 {entryNo}）未中签，已支付的 ¥{amount} 将原路退回。',
    'Ballot result: {raceEn}',
    '{raceEn}: we are sorry, your entry {entryNo} in the {itemEn} was not drawn; the CNY {amount} you paid goes back to the original payment.',
  ),
  ballotClosedUnpaid: t(
    '报名取消：{race}',
    '{race}：您报名的{item}（报名号 {entryNo}）在抽签前未支付，已取消。',
    'Entry cancelled: {raceEn}',
    '{raceEn}: your entry {entryNo} in the {itemEn} was not paid before the draw and is cancelled.',
  ),
  ballotLatePaidRefund: t(
    '退款通知：{race}',
    '{race}：您报名的{item}（报名号 {entryNo}）的付款在抽签后到账，¥{amount} 将原路退回。',
    'Refund: {raceEn}',
    '{raceEn}: the payment of your entry {entryNo} in the {itemEn} arrived after the draw; CNY {amount} goes back to the original payment.',
  ),
  entrySubmitted: t(
    '报名提交：{race}',
    '{race}：报名号 {entryNo} 已提交。',
    'Entry submitted: {raceEn}',
    '{raceEn}: entry {entryNo} submitted.',
  ),
  paymentDue: t(
    '报名提交：{race}',
    '{race}：报名号 {entryNo} 已提交。请在 {deadline} 前支付订单 {orderNo}（¥{amount}），逾期未付订单将自动取消。',
    'Entry submitted: {raceEn}',
    '{raceEn}: entry {entryNo} submitted. Pay order {orderNo} (CNY {amount}) before {deadline} or it is cancelled.',
  ),
  paymentReminder: t(
    '支付提醒：{race}',
    '{race}：订单 {orderNo}（¥{amount}）尚未支付，请在 {deadline} 前支付，逾期订单将自动取消、名额释放。',
    'Payment reminder: {raceEn}',
    '{raceEn}: order {orderNo} (CNY {amount}) is not paid yet. Pay it before {deadline} or it is cancelled and its place released.',
  ),
  orderPaid: t(
    '支付成功：{race}',
    '{race}：订单 {orderNo} 已支付 ¥{amount}。',
    'Payment received: {raceEn}',
    '{raceEn}: order {orderNo} is paid, CNY {amount}.',
  ),
  orderCancelledUnpaid: t(
    '订单取消：{race}',
    '{race}：订单 {orderNo} 未在支付期限前支付，已自动取消，名额已释放。',
    'Order cancelled: {raceEn}',
    '{raceEn}: order {orderNo} was not paid by its deadline and is cancelled; its place is released.',
  ),
  directApproved: t(
    '直通审核：{race}',
    '{race}：{name} 的直通资格申请已审核通过，现可通过直通通道报名。',
    'Direct pass: {raceEn}',
    '{raceEn}: the direct-pass application of {name} is approved: you may now enter through the direct-pass channel.',
  ),
  entryCancelled: t(
    '报名取消：{race}',
    '{race}：报名号 {entryNo} 已由主办方取消，名额已释放。如有疑问请联系主办方。',
    'Entry cancelled: {raceEn}',
    '{raceEn}: entry {entryNo} was cancelled by the organiser and its place released. Contact the organiser with any question.',
  ),
  entryEdited: t(
    '报名信息变更：{race}',
    '{race}：主办方已修改报名号 {entryNo} 的报名信息，请在个人中心核对。',
    'Entry details changed: {raceEn}',
    '{raceEn}: the organiser changed the details of entry {entryNo}; please check them in your account.',
  ),
  placeTransferred: t(
    '名额转让：{race}',
    '{race}：主办方已将 {fromName} 的名额转让给报名号 {entryNo}。',
    'Place transferred: {raceEn}',
    '{raceEn}: the organiser transferred the place of {fromName} to entry {entryNo}.',
  ),
  organiserRefund: t(
    '退款：{race}',
    '{race}：主办方为订单 {orderNo} 发起退款 ¥{amount}，将原路退回。',
    'Refund: {raceEn}',
    '{raceEn}: the organiser refunds CNY {amount} of order {orderNo} to the original payment.',
  ),
  bibAssigned: t(
    '参赛号码：{race}',
    '{race}：报名号 {entryNo} 的参赛号码为 {bib}。',
    'Bib number: {raceEn}',
    '{raceEn}: the bib of entry {entryNo} is {bib}.',
  ),
  refundApproved: t(
    '退款申请通过：{race}',
    '{race} {item}：报名号 {entryNo} 的退款申请已通过，¥{amount} 将原路退回。',
    'Refund approved: {raceEn}',
    '{raceEn} {itemEn}: the refund request of entry {entryNo} is approved; CNY {amount} goes back to the original payment.',
  ),
  deferralApproved: t(
    '延期申请通过：{race}',
    '{race} {item}：报名号 {entryNo} 的延期申请已通过。',
    'Deferral approved: {raceEn}',
    '{raceEn} {itemEn}: the deferral request of entry {entryNo} is approved.',
  ),
  refundRejected: t(
    '退款申请未通过：{race}',
    '{race} {item}：报名号 {entryNo} 的退款申请未通过，原因：{reason}',
    'Refund request declined: {raceEn}',
    '{raceEn} {itemEn}: the refund request of entry {entryNo} is declined: {reason}',
  ),
  deferralRejected: t(
    '延期申请未通过：{race}',
    '{race} {item}：报名号 {entryNo} 的延期申请未通过，原因：{reason}',
    'Deferral request declined: {raceEn}',
    '{raceEn} {itemEn}: the deferral request of entry {entryNo} is declined: {reason}',
  ),
  deferralCode: t(
    '延期参赛邀请码：{race}',
    '报名号 {entryNo} 延期至 {race} {item}，您的邀请码为 {code}，请在 {until} 前使用。',
    'Your deferral code: {raceEn}',
    'Entry {entryNo} is deferred to {raceEn} {itemEn}: your invitation code is {code}, to be used before {until}.',
  ),
  packShipped: t(
    '参赛物资已寄出：{race}',
    '{race}：您的参赛物资已寄出，快递公司 {carrier}，运单号 {trackingNo}。',
    'Race pack shipped: {raceEn}',
    '{raceEn}: your race pack has been shipped by {carrier}, tracking number {trackingNo}.',
  ),
};

export const TEMPLATE_KINDS = Object.keys(DEFAULT_TEMPLATES) as TemplateKind[];
export const isTemplateKind = (kind: string): kind is TemplateKind => Object.hasOwn(DEFAULT_TEMPLATES, kind);

export type MessagesRefusal = { ok: false; status: number; code: ConsoleMessageCode; params?: Record<string, string> };
export type MessagesOutcome<T> = { ok: true; value: T } | MessagesRefusal;
export const refuse = (status: number, code: ConsoleMessageCode, params?: Record<string, string>): MessagesRefusal => ({
  ok: false,
  status,
  code,
  params,
});

/** A text's four parts checked: each given and within its length, and no placeholder but `variables`. */
export function checkText(text: MessageText, variables: readonly string[]): MessagesOutcome<MessageText> {
  const trimmed: MessageText = {
    subjectZh: String(text.subjectZh ?? '').trim(),
    bodyZh: String(text.bodyZh ?? '').trim(),
    subjectEn: String(text.subjectEn ?? '').trim(),
    bodyEn: String(text.bodyEn ?? '').trim(),
  };
  const subjects = [trimmed.subjectZh, trimmed.subjectEn];
  const bodies = [trimmed.bodyZh, trimmed.bodyEn];
  if (
    subjects.some((s) => s.length === 0 || s.length > MESSAGE_SUBJECT_MAX) ||
    bodies.some((b) => b.length === 0 || b.length > MESSAGE_BODY_MAX)
  ) {
    return refuse(400, 'messageTextMissing', {
      subjectMax: String(MESSAGE_SUBJECT_MAX),
      bodyMax: String(MESSAGE_BODY_MAX),
    });
  }
  const unknown = unknownPlaceholder([...subjects, ...bodies], variables);
  if (unknown !== undefined) {
    return refuse(400, 'messagePlaceholderUnknown', {
      name: `{${unknown}}`,
      allowed: variables.map((v) => `{${v}}`).join(' '),
    });
  }
  return { ok: true, value: trimmed };
}

/** The text in one language, its placeholders filled. */
export const renderIn = (text: MessageText, language: MessageLanguage, values: Record<string, string>) => ({
  subject: renderText(language === 'en' ? text.subjectEn : text.subjectZh, values),
  body: renderText(language === 'en' ? text.bodyEn : text.bodyZh, values),
});

/**
 * The subject and body of a system message to account `userId` about race `raceId`: the race's wording of
 * the message's kind in the runner's language, or the writer's built-in text (`builtIn`).
 */
export async function systemText(
  repos: Repositories,
  raceId: string,
  userId: number,
  sms: SmsContent,
  builtIn: { subject: string; body: string },
): Promise<{ subject: string; body: string; language?: MessageLanguage }> {
  if (!isTemplateKind(sms.kind)) return builtIn;
  const own = await repos.messages.templateOf(raceId, sms.kind);
  if (!own) return builtIn;
  const language = (await repos.messages.languageOf(userId)) ?? 'zh';
  return { ...renderIn(own, language, sms.params), language };
}

/** Every kind's wording for the console: its variables, the default, the race's own. */
export async function templatesView(repos: Repositories, raceId: string): Promise<TemplateView[]> {
  const own = new Map((await repos.messages.templatesOf(raceId)).map((r) => [r.kind, r]));
  return TEMPLATE_KINDS.map((kind) => {
    const mine = own.get(kind);
    return {
      kind,
      variables: [...SMS_KINDS[kind]],
      defaults: DEFAULT_TEMPLATES[kind],
      custom: mine
        ? {
            subjectZh: mine.subjectZh,
            bodyZh: mine.bodyZh,
            subjectEn: mine.subjectEn,
            bodyEn: mine.bodyEn,
            updatedAt: mine.updatedAt,
          }
        : null,
    };
  });
}

const actorName = (actor: AuditActor) => (actor.kind === 'cli' ? 'cli' : `staff:${actor.staffId}`);

/** Saves a race's wording of a kind (audited: message-template-save). */
export async function saveTemplate(
  repos: Repositories,
  raceId: string,
  kind: string,
  text: MessageText,
  actor: AuditActor,
  now: number,
): Promise<MessagesOutcome<TemplateView>> {
  if (!isTemplateKind(kind)) return refuse(404, 'messageKindUnknown', { kind: kind.slice(0, 40) });
  const checked = checkText(text, SMS_KINDS[kind]);
  if (!checked.ok) return checked;
  const before = await repos.messages.templateOf(raceId, kind);
  await repos.messages.saveTemplate(raceId, kind, checked.value, now, actorName(actor));
  await appendAudit(
    repos,
    actor,
    { action: 'message-template-save', raceId, target: kind, before: before ?? null, after: checked.value },
    now,
  );
  return { ok: true, value: (await templatesView(repos, raceId)).find((v) => v.kind === kind)! };
}

/** Back to the built-in wording (audited: message-template-reset). */
export async function resetTemplate(
  repos: Repositories,
  raceId: string,
  kind: string,
  actor: AuditActor,
  now: number,
): Promise<MessagesOutcome<TemplateView>> {
  if (!isTemplateKind(kind)) return refuse(404, 'messageKindUnknown', { kind: kind.slice(0, 40) });
  const before = await repos.messages.templateOf(raceId, kind);
  if (before) {
    await repos.messages.resetTemplate(raceId, kind);
    await appendAudit(repos, actor, { action: 'message-template-reset', raceId, target: kind, before }, now);
  }
  return { ok: true, value: (await templatesView(repos, raceId)).find((v) => v.kind === kind)! };
}
