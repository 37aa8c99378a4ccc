/**
 * The response envelope of the contract (spec §7): `{ code, msg, data }`, code 0 is success. Errors use the
 * HTTP-like status number as their code.
 */
import type { Envelope } from '../../../src/features/site-config/race-types.ts';

export const SUCCESS_MSG = 'success';

export function ok<T>(data: T): Envelope<T> {
  return { code: 0, msg: SUCCESS_MSG, data };
}

export function fail(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null };
}

/**
 * An error whose message is safe to show to the caller. `statusCode` becomes both the HTTP status and the
 * envelope code.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Messages of the contract (spec §8) and of the reference server. */
export const MESSAGES = {
  unboundRace: '未绑定赛事...',
  loginExpired: 'Your login has expired, please log in again',
  raceNotFound: 'Race not found',
  notFound: 'Not Found',
  internal: 'Internal Server Error',
  badDomainName: 'domainName must be a host name',
} as const;

/** JSON schema of an envelope whose data is `data` or null (Fastify response schemas). */
export function envelopeSchema(data: Record<string, unknown>) {
  return {
    type: 'object',
    required: ['code', 'msg', 'data'],
    properties: {
      code: { type: 'integer' },
      msg: { type: 'string' },
      data: { anyOf: [data, { type: 'null' }] },
    },
  } as const;
}
