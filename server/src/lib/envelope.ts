/**
 * The response envelope of the contract (spec §7): `{ code, msg, data }`, code 0 is success. Errors use the
 * HTTP-like status number as their code.
 */
import type { Envelope } from '#contract/api';

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
  unpublishedConfig: 'A race is bound to this domain, but no site configuration is published for it',
  loginExpired: 'Your login has expired, please log in again',
  raceNotFound: 'Race not found',
  notFound: 'Not Found',
  internal: 'Internal Server Error',
  badDomainName: 'domainName must be a host name',
  tooManyRequests: 'Too many requests, please try again later',
  verificationFailed: 'Verification failed',
  codeError: 'Verification code error, please re-enter',
  codeTriesUsed: 'Too many wrong codes, please get a new code',
  accountMissing: 'Account information does not exist',
  badCredentials: 'Account or password is incorrect',
  passwordRule: 'Please enter a 6-20 digit password combining digits and letters',
  passwordsDiffer: 'The two passwords do not match',
  emailRegistered: 'This email has been registered',
  badPhone: 'Please enter a correct phone number',
  phoneRequired: 'Please enter phone number',
  badEmail: 'Please enter a correct email address',
  badLoginEmail: 'Please enter a valid email address',
  slideFirst: 'Please slide the slider to verify first',
  badFileType: '文件格式不正确',
  fileTooBig: 'Please upload a file smaller than 10 MB',
  uploadQuota: 'Daily upload limit reached, please try again tomorrow',
  registrationMissing: 'Registration information does not exist',
  badQueryType: 'queryType must be 1 (registration status), 2 (third-party), 3 (web) or 5 (app registration info)',
  scoreMissing: 'Your score information was not found...',
  noData: '没有查询到数据哦',
  certificateInvalid: "This certificate does not match the organiser's records",
  lookupNeedsKey: 'Give a bib, or a name and a certificate number',
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
