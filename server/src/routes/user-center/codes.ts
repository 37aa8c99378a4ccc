/**
 * Verification codes (spec §4, §7): send by SMS (login, captchaType '2'), by email (registration or reset,
 * captchaType '20'), by SMS for a reset (captchaType '3').
 *
 * Every send redeems a passed slider check (nc_token, sig, sessionId, scene) once. A code is 6 digits
 * (crypto.randomInt), stored hashed, valid 10 minutes, single use, bound to its purpose and destination,
 * dead after 5 wrong tries from the address that requested it (other addresses: see `checkCode`). A new request within 60 s for the same purpose and destination is refused;
 * otherwise it replaces the previous code. At most 5 codes per destination and 20 per IP (IPv6: per /64) an
 * hour.
 *
 * A send answers the same for known and unknown accounts (issue 27); the rules: services/accounts/verification-codes.ts. The spec's own "email
 * registered" check (API_PATHS.emailRegistered, the registration form's field check) still tells, rate-limited.
 *
 * Email purpose rule: emailSendType 1 → 'register', 2 → 'reset'; without emailSendType, a body carrying
 * raceAppBusinessType (the reset form) is 'reset', otherwise 'register'.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { CodeChannel, CodePurpose } from '../../db/codes-repository.ts';
import type { Envelope } from '#contract/api';
import { EMAIL_SEND_TYPES } from '#contract/enums';
import { normalizeEmail } from '#contract/rules';
import { fail, ok } from '../../lib/envelope.ts';
import { LIMITS, rateLimitKey } from '../../plugins/rate-limit.ts';
import { checkCode as checkVerificationCode, sendCode } from '../../services/accounts/verification-codes.ts';
import { sendEmailCodeBody, sendPhoneCodeBody, sendResetPhoneCodeBody } from './bodies.ts';
import { noStore, parseOrReject, reject, type Body } from './common.ts';

/** Checks a code sent from `ip` and consumes it when right (services/accounts/verification-codes.ts); anything else is the envelope to answer. */
export async function checkCode(
  app: FastifyInstance,
  input: { purpose: CodePurpose; destination: string; code: string; requestToken?: string; ip: string },
): Promise<true | Envelope<null>> {
  const { ip, ...rest } = input;
  const result = await checkVerificationCode(app.repos, { ...rest, source: rateLimitKey(ip), now: app.config.now() });
  if (result === 'ok') return true;
  return reject(400, result === 'spent' ? 'codeTriesUsed' : 'codeError');
}

/** A send refused for a while: HTTP 429 with Retry-After (seconds). */
interface Refusal {
  retryAfter: number;
  envelope: Envelope<null>;
}

const refuse = (seconds: number, envelope: Envelope<null>): Refusal => ({ retryAfter: seconds, envelope });

export function emailPurpose(body: Body): CodePurpose {
  const type = body.emailSendType;
  if (type === EMAIL_SEND_TYPES.register) return 'register';
  if (type === EMAIL_SEND_TYPES.reset) return 'reset';
  return body.raceAppBusinessType ? 'reset' : 'register';
}

export default async function codeRoutes(app: FastifyInstance) {
  /**
   * The shared steps of the three send calls: the verificationToken of the code sent, a business rejection
   * (envelope), or a refusal for a while (`Refusal`, answered by `answer`).
   */
  async function send(
    body: Body,
    ip: string,
    request: { channel: CodeChannel; destination: string; purpose: CodePurpose },
  ): Promise<{ verificationToken: string } | Refusal | Envelope<null>> {
    // The body schema already refused a send without a passed slider (slideFirst).
    const pass = { token: body.nc_token!, sig: body.sig!, sessionId: body.sessionId!, scene: body.scene! };
    if (!(await app.captcha.redeem(pass))) return reject(400, 'verificationFailed');
    const sent = await sendCode(
      { repos: app.repos, delivery: app.delivery },
      { ...request, source: rateLimitKey(ip), now: app.config.now() },
    );
    if ('verificationToken' in sent) return sent;
    return refuse(sent.waitSeconds, fail(429, sent.reason, { seconds: sent.waitSeconds }));
  }

  /** What a send call answers: its data, or the rejection (HTTP 429 and Retry-After for a refusal). */
  function answer<T>(reply: FastifyReply, sent: Awaited<ReturnType<typeof send>>, data: (token: string) => T) {
    if ('verificationToken' in sent) return ok(data(sent.verificationToken));
    if ('retryAfter' in sent) {
      void reply.code(429).header('retry-after', String(sent.retryAfter));
      return sent.envelope;
    }
    return sent;
  }

  const options = { onRequest: app.rateLimit(LIMITS.sendCode) };

  app.post(API_PATHS.sendPhoneCode, options, async (request, reply) => {
    noStore(reply);
    const parsed = parseOrReject(sendPhoneCodeBody, request.body);
    if ('error' in parsed) return parsed.error;
    const { body } = parsed;
    const sent = await send(body, request.ip, { channel: 'sms', destination: body.userPhone, purpose: 'login' });
    return answer(reply, sent, (verificationToken) => ({ verificationToken }));
  });

  app.post(API_PATHS.sendEmailCode, options, async (request, reply) => {
    noStore(reply);
    const parsed = parseOrReject(sendEmailCodeBody, request.body);
    if ('error' in parsed) return parsed.error;
    const { body } = parsed;
    const email = normalizeEmail(body.accountEmail)!;
    const sent = await send(body, request.ip, { channel: 'email', destination: email, purpose: emailPurpose(body) });
    // captchaCode is part of the contract's answer; the code itself only ever goes to the mailbox.
    return answer(reply, sent, (verificationToken) => ({ captchaCode: '', verificationToken }));
  });

  app.post(API_PATHS.sendResetPhoneCode, options, async (request, reply) => {
    noStore(reply);
    const parsed = parseOrReject(sendResetPhoneCodeBody, request.body);
    if ('error' in parsed) return parsed.error;
    const { body } = parsed;
    const sent = await send(body, request.ip, { channel: 'sms', destination: body.userPhone, purpose: 'reset' });
    return answer(reply, sent, (verificationToken) => ({ verificationToken }));
  });
}
