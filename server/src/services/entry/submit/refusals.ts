/**
 * What a submission answers when it is refused: a refusal of the call (a status and a message code) or of
 * some fields (each participant's `<index>.<key>`), and the outcome type every step of submit/ returns.
 */
import type { EntrySubmitAnswer } from '#contract/entry';
import type { MessageCode, MessageParams, Refusal } from '#contract/messages';

export type SubmitRefusal =
  | { kind: 'call'; status: number; code: MessageCode; params?: MessageParams }
  | { kind: 'fields'; fields: Record<string, Refusal> };

export type SubmitOutcome = { ok: true; answer: EntrySubmitAnswer } | { ok: false; refusal: SubmitRefusal };

/** A refusal of the whole call. */
export const call = (status: number, code: MessageCode, params?: MessageParams): SubmitRefusal =>
  params ? { kind: 'call', status, code, params } : { kind: 'call', status, code };

/** A refusal of one field. */
export const fieldRefusal = (key: string, refusal: Refusal): SubmitRefusal => ({
  kind: 'fields',
  fields: { [key]: refusal },
});
