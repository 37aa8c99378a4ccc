/**
 * Talking to runners (issue 32 §2): the organiser's templates of the system messages, messages to a chosen set
 * of entrants, their delivery per runner, and the runner's own list of the messages sent to them. Shared by
 * the server (services/messages/), the console (admin/src/pages/messages) and the personal centre.
 *
 * A template or a message is text with placeholders `{name}`: each is one of the variables the message has (a
 * system message's: its kind's variables, lib/sms/kinds.ts; a message to entrants': MESSAGE_VARIABLES). A
 * placeholder that is not one of them is refused, naming it.
 */

/** The languages a runner reads; a runner whose language is unknown reads Chinese. */
export type MessageLanguage = 'zh' | 'en';
export const MESSAGE_LANGUAGES: readonly MessageLanguage[] = ['zh', 'en'];

/** A text in both languages: the subject of an e-mail and the body (the SMS text and the e-mail's body). */
export interface MessageText {
  subjectZh: string;
  bodyZh: string;
  subjectEn: string;
  bodyEn: string;
}

export const MESSAGE_SUBJECT_MAX = 120;
export const MESSAGE_BODY_MAX = 2000;

/** How a message to entrants goes: by SMS, by e-mail, or by every way the runner has (phone and/or e-mail). */
export const MESSAGE_CHANNELS = ['sms', 'email', 'both'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** The variables of a message to entrants: the entrant's own fields (the name masked, as every message has it). */
export const MESSAGE_VARIABLES = ['name', 'race', 'item', 'entryNo', 'bib', 'raceEn', 'itemEn'] as const;

/** Who a message to entrants goes to: every filter given narrows it (none: every live entry of the race). */
export interface MessageAudience {
  /** An item's code. */
  item?: string;
  /** The entries' status (contract/entry.ts ENTRY_STATUSES); default the live ones (submitted, won, in review). */
  status?: number;
  /** The entries' sign-up channel (public, direct, code, team, charity). */
  channel?: string;
  /** Signed the race's current commitment letter, or not (won entries only). */
  letter?: 'signed' | 'unsigned';
  /** Booked a pick-up slot (or collected), or not (won entries only). */
  pickup?: 'booked' | 'unbooked';
  /** One entry, by its number. */
  entryNo?: string;
}
export const AUDIENCE_LETTER = ['signed', 'unsigned'] as const;
export const AUDIENCE_PICKUP = ['booked', 'unbooked'] as const;

/** Where one runner's copy stands (the outbox's states; bounced: a failure the e-mail or SMS receipt told of). */
export type DeliveryState = 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'skipped';

/** The placeholders of a text, each once, in their order. */
export function placeholdersOf(text: string): string[] {
  const names = [...text.matchAll(/\{([^{}\s]*)\}/g)].map((m) => m[1] ?? '');
  return [...new Set(names)];
}

/** The first placeholder of `texts` that is not one of `variables`, or undefined. */
export function unknownPlaceholder(texts: readonly string[], variables: readonly string[]): string | undefined {
  for (const text of texts) {
    const unknown = placeholdersOf(text).find((name) => !variables.includes(name));
    if (unknown !== undefined) return unknown;
  }
  return undefined;
}

/** A text with its placeholders filled (a variable without a value: empty). */
export const renderText = (text: string, values: Record<string, string>): string =>
  text.replace(/\{([^{}\s]*)\}/g, (_all, name: string) => values[name] ?? '');

/** One kind of system message as the console shows it: its variables, the default wording, the race's own. */
export interface TemplateView {
  kind: string;
  variables: string[];
  defaults: MessageText;
  /** The race's wording, or null: the default is used. */
  custom: (MessageText & { updatedAt: number }) | null;
}

/** The console's summary of a message to entrants. */
export interface CampaignView {
  id: number;
  raceId: string;
  text: MessageText;
  channel: MessageChannel;
  audience: MessageAudience;
  state: 'scheduled' | 'sent' | 'cancelled';
  sendAt: number;
  createdAt: number;
  createdBy: string;
  /** Per state, the runners' copies (empty until it is sent). */
  counts: Partial<Record<DeliveryState, number>>;
  recipients: number;
}

/** Who a message would reach, before it is sent. */
export interface AudiencePreview {
  /** Entries matched. */
  entries: number;
  /** Copies it makes by channel (an entry whose account has neither is counted in `unreachable`). */
  sms: number;
  email: number;
  unreachable: number;
  /** A few of them, names masked. */
  sample: { entryNo: string; name: string; item: string; channels: ('sms' | 'email')[]; language: MessageLanguage }[];
}

/** One runner's copy of a message to entrants. */
export interface DeliveryRow {
  id: number;
  entryNo: string;
  name: string;
  channel: 'sms' | 'email';
  /** Masked phone or e-mail. */
  destination: string;
  language: MessageLanguage;
  state: DeliveryState;
  attempts: number;
  error: string | null;
  at: number;
}

/** A message in the runner's "my messages". */
export interface MyMessage {
  id: number;
  channel: 'sms' | 'email';
  subject: string;
  body: string;
  sentAt: number;
}
