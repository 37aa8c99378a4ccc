/**
 * What the server's logs may hold (issue #12 §2, house style "never in logs"): JSON lines (pino) that a log
 * collector reads as they are, one `incoming request` line (`req`: method, url, remoteAddress) and one
 * `request completed` line (`res`: method, url, statusCode; `responseTime` in ms) per request, and never a
 * whole phone number, ID or certificate number, e-mail address, password, code or token.
 *
 * - URLs, error messages and stacks, log messages and every string field are masked by redactLogText:
 *   ID numbers, e-mail addresses and mobile numbers keep their ends (lib/accounts.ts maskPersonalData, the
 *   masks of the answers), and the value of every secret `name=value` or `"name": "value"` pair (passwords,
 *   codes, tokens, signatures, credentials) and of `Bearer …` is replaced whole.
 * - Fields whose name says they hold a secret (SECRET_NAMES: `password`, `captcha`, `verificationToken`,
 *   `token`, `sig`, `authorization`, `cookie` …) are replaced whole wherever they sit in a logged object.
 * - Request headers and bodies are not logged at all; a header or body object that code logs by hand goes
 *   through the same field rule.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoggerOptions, LogFn } from 'pino';
import { maskPersonalData } from './accounts.ts';

export const REDACTED = '[redacted]';

/**
 * Names of fields that hold a secret whole. A bare `code` is left out for logged objects, where it is the
 * error code of our own lines (FST_ERR_…); in text (`?code=…`, `"code":"…"`) it counts as a secret.
 */
const SECRET_NAMES = String.raw`[\w-]*passw\w*|pwd|[\w-]*token|captcha\w*|[\w-]*secret|sig|signature|authorization|proxy-authorization|cookie|set-cookie|(?:sms|email|phone|verif\w*|auth|login|reset)code`;
const SECRET_FIELD = new RegExp(`^(?:${SECRET_NAMES})$`, 'i');
/** name=value (query strings, forms), "name": "value" or name: value (JSON, headers, messages). */
const SECRET_PAIR = new RegExp(
  String.raw`(?<![\w-])(${SECRET_NAMES}|code)(["']?\s*[:=]\s*["']?)(?:bearer\s+|basic\s+)?[^"'&\s,;}\]]+`,
  'gi',
);
const BEARER = /\b(bearer|basic)\s+[\w.~+/=-]+/gi;

/** A text (URL, message, stack) with its personal numbers masked and its secret values replaced. */
export function redactLogText(text: string): string {
  return maskPersonalData(text)
    .replace(SECRET_PAIR, (_match, name: string, separator: string) => `${name}${separator}${REDACTED}`)
    .replace(BEARER, (_match, scheme: string) => `${scheme} ${REDACTED}`);
}

const MAX_DEPTH = 6;

/**
 * A logged value with every string masked (redactLogText) and every secret field replaced, through plain
 * objects and arrays; deeper than MAX_DEPTH levels it is dropped. Other objects (errors, requests, replies)
 * are left to their serializers below.
 */
export function redactLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactLogText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => redactLogValue(item, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SECRET_FIELD.test(key) ? REDACTED : redactLogValue(item, depth + 1),
    ]),
  );
}

type LoggedRequest = Pick<FastifyRequest, 'method' | 'url'> & { ip?: string };
type LoggedReply = Partial<Pick<FastifyReply, 'request'>> & { statusCode: number };

/** How requests, answers and errors appear in a log line (Fastify's keys `req`, `res`, `err`). */
export const logSerializers = {
  req: (request: LoggedRequest) => ({
    method: request.method,
    url: redactLogText(request.url),
    remoteAddress: request.ip,
  }),
  // The reply carries its request, so the `request completed` line stands alone for a log collector.
  res: (reply: LoggedReply) => ({
    method: reply.request?.method,
    url: reply.request === undefined ? undefined : redactLogText(reply.request.url),
    statusCode: reply.statusCode,
  }),
  err: (error: Error & { code?: unknown; statusCode?: unknown }) => ({
    type: error.name,
    message: redactLogText(String(error.message)),
    stack: redactLogText(error.stack ?? ''),
    code: error.code,
    statusCode: error.statusCode,
  }),
};

export type LogSetting = boolean | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

export type ServerLoggerOptions = LoggerOptions & {
  level: Exclude<LogSetting, boolean>;
  stream?: NodeJS.WritableStream;
};

/**
 * The Fastify `logger` option: false for none, otherwise pino at `setting` (true is info) writing to
 * `stream` (default stdout), with the serializers above, every logged object through redactLogValue and every
 * string argument (the message) through redactLogText.
 */
export function serverLoggerOptions(setting: LogSetting | undefined, stream?: NodeJS.WritableStream) {
  const level = setting === true ? 'info' : setting;
  if (level === undefined || level === false) return false;
  const options: ServerLoggerOptions = {
    level,
    serializers: logSerializers,
    formatters: { log: (object) => redactLogValue(object) as Record<string, unknown> },
    hooks: {
      logMethod(args: Parameters<LogFn>, method) {
        const masked: unknown[] = args.map((arg: unknown) => (typeof arg === 'string' ? redactLogText(arg) : arg));
        // Without a message pino takes the error's own as the message: give it the masked one.
        const [first] = args as unknown[];
        const error = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
        if (error instanceof Error && typeof masked[1] !== 'string') masked.splice(1, 0, redactLogText(error.message));
        method.apply(this, masked as Parameters<LogFn>);
      },
    },
    ...(stream ? { stream } : {}),
  };
  return options;
}
