/**
 * The response envelope of the contract (spec §7): `{ code, msg, data }`, code 0 is success. Errors use the
 * HTTP-like status number as their code.
 */
import type { Envelope } from '#contract/api';
import { CONSOLE_MESSAGES, isConsoleMessageCode, type ConsoleMessageCode } from '#contract/console-messages';
import { fillMessage, messageText, type MessageCode, type MessageParams } from '#contract/messages';

export const SUCCESS_MSG = 'success';

export function ok<T>(data: T): Envelope<T> {
  return { code: 0, msg: SUCCESS_MSG, data };
}

/**
 * A refusal: the status as its code, the contract's English text as msg (for clients that know only msg)
 * and the message by code with its parameters (the SPA shows it in the visitor's language).
 */
export function fail(
  status: number,
  msgCode: MessageCode | ConsoleMessageCode,
  msgParams?: MessageParams,
): Envelope<null> {
  const msg = isConsoleMessageCode(msgCode)
    ? fillMessage(CONSOLE_MESSAGES[msgCode].en, msgParams)
    : messageText(msgCode, msgParams);
  return {
    code: status,
    msg,
    data: null,
    msgCode,
    ...(msgParams ? { msgParams } : {}),
  };
}

/**
 * An error whose message is safe to show to the caller. `statusCode` becomes both the HTTP status and the
 * envelope code; the answer is `fail(statusCode, msgCode, msgParams)`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly msgCode: MessageCode,
    readonly msgParams?: MessageParams,
  ) {
    super(messageText(msgCode, msgParams));
    this.name = 'HttpError';
  }
}

/** JSON schema of an envelope whose data is `data` or null (Fastify response schemas). */
export function envelopeSchema(data: Record<string, unknown>) {
  return {
    type: 'object',
    required: ['code', 'msg', 'data'],
    properties: {
      code: { type: 'integer' },
      msg: { type: 'string' },
      data: { anyOf: [data, { type: 'null' }] },
      msgCode: { type: 'string' },
      msgParams: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
    },
  } as const;
}

/** The 429 answer's headers and envelope (plugins/rate-limit.ts; also sent by the hot path, lib/hot-path.ts). */
export function tooManyRequestsAnswer(retryAfterSeconds: number) {
  return {
    headers: { 'retry-after': String(retryAfterSeconds), 'cache-control': 'no-store' },
    envelope: fail(429, 'tooManyRequestsWait', { seconds: retryAfterSeconds }),
  };
}
