/**
 * An SMS provider (issue 31 §4): sends one approved template with its variables to one phone, and reads the
 * delivery receipts it posts back. The built-in ones are listed in lib/sms/providers.ts (the outbox, Aliyun,
 * Tencent); plugins/delivery.ts calls them for codes and for the runner messages queued in the outbox.
 */
import type { SmsTemplate } from './templates.ts';

export interface SmsSendRequest {
  /** As the account holds it (a mainland number is 11 digits; others may carry +country). */
  phone: string;
  /** A mainland China number: the provider's domestic form; otherwise its international one. */
  mainland: boolean;
  template: SmsTemplate;
  /** The message's variables by our names (lib/sms/kinds.ts); the template takes those it names. */
  values: Record<string, string>;
}

export type SmsSendResult =
  | { ok: true; messageId: string }
  | {
      ok: false;
      /** The provider's error code (Aliyun's Code, Tencent's Code), or ours for a call that never got one. */
      code: string;
      message: string;
      /** Worth another try later: throttled by the provider, a network error, a provider's server error. */
      transient: boolean;
      /** The provider said to slow down (a longer wait before the next try). */
      throttled: boolean;
    };

/** One message's receipt: delivered to the phone, or not, with the provider's reason. */
export interface SmsReceipt {
  messageId: string;
  delivered: boolean;
  /** The provider's status code (DELIVERED, DELIVRD, an operator's error code …). */
  code: string;
  reason: string;
}

/** A receipt body that is not the provider's form (answered 400, nothing changed). */
export class SmsReceiptFormatError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'SmsReceiptFormatError';
  }
}

export interface SmsProvider {
  /** SMS_PROVIDER's value. */
  name: string;
  /** Sends a message; resolves with the provider's message id or its error, never rejects. */
  send(request: SmsSendRequest): Promise<SmsSendResult>;
  /** The receipts of a callback body (parsed JSON); throws SmsReceiptFormatError on anything else. */
  parseReceipts(body: unknown): SmsReceipt[];
  /** The JSON the provider expects back once the receipts are recorded. */
  receiptAnswer: unknown;
}

/** The variables a template takes, by the template's names, in its order. */
export const templateValues = (template: SmsTemplate, values: Record<string, string>): [string, string][] =>
  template.params.map(([name, ours]) => [name, values[ours] ?? '']);

/** Network failures of a provider call (no answer at all): worth another try. */
export const networkFailure = (error: unknown): SmsSendResult => ({
  ok: false,
  code: 'network',
  message: error instanceof Error ? error.message : String(error),
  transient: true,
  throttled: false,
});
