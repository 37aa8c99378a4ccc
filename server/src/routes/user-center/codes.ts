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
 * A send answers the same for known and unknown accounts (issue 27); see `send`. The spec's own "email
 * registered" check (API_PATHS.emailRegistered, the registration form's field check) still tells, rate-limited.
 *
 * Email purpose rule: emailSendType 1 → 'register', 2 → 'reset'; without emailSendType, a body carrying
 * raceAppBusinessType (the reset form) is 'reset', otherwise 'register'.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { CodeChannel, CodePurpose } from '../../db/codes-repository.ts';
import type { Envelope } from '#contract/api';
import { EMAIL_SEND_TYPES } from '#contract/enums';
import { normalizeEmail } from '#contract/rules';
import { fail, ok } from '../../lib/envelope.ts';
import { LIMITS, rateLimitKey } from '../../plugins/rate-limit.ts';
import { sendEmailCodeBody, sendPhoneCodeBody, sendResetPhoneCodeBody } from './bodies.ts';
import { noStore, parseOrReject, reject, type Body } from './common.ts';

export const CODE_RULES = {
  ttlMs: 10 * 60_000,
  resendMs: 60_000,
  maxTries: 5,
  /** Wrong tries on one code from all the sources other than the one that requested it, together. */
  maxStrangerTries: 10,
  perDestinationPerHour: 5,
  perIpPerHour: 20,
} as const;
const HOUR = 3_600_000;

/**
 * Checks a code sent from `ip` and consumes it when right; anything else is the envelope to answer.
 *
 * Wrong tries are counted per source (the IP, an IPv6 /64) as well as per code, so that nobody can use up
 * someone else's code: the source that requested the code has the code's own 5 tries, and the code dies at
 * the 5th wrong one, as before. Any other source gets 5 wrong tries on that code too, after which its
 * guesses are refused unchecked, and all such sources together get 10: strangers can no longer burn a
 * runner's pending code, and a code is guessed at most 5 + 10 times in all (codes-repository.ts `check`).
 */
export async function checkCode(
  app: FastifyInstance,
  input: { purpose: CodePurpose; destination: string; code: string; requestToken?: string; ip: string },
): Promise<true | Envelope<null>> {
  const { ip, ...rest } = input;
  const result = await app.repos.codes.check({
    ...rest,
    // A malformed code still counts as a wrong try against the open code.
    code: /^\d{6}$/.test(input.code) ? input.code : '',
    source: rateLimitKey(ip),
    now: app.config.now(),
    maxTries: CODE_RULES.maxTries,
    maxStrangerTries: CODE_RULES.maxStrangerTries,
  });
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
  const { codes, users } = app.repos;

  /**
   * The shared steps of the three send calls: the verificationToken of the code sent, a business rejection
   * (envelope), or a refusal for a while (`Refusal`, answered by `answer`).
   */
  async function send(
    body: Body,
    ip: string,
    request: { channel: CodeChannel; destination: string; purpose: CodePurpose },
  ): Promise<{ verificationToken: string } | Refusal | Envelope<null>> {
    const { channel, destination, purpose } = request;
    // The body schema already refused a send without a passed slider (slideFirst).
    const pass = { token: body.nc_token!, sig: body.sig!, sessionId: body.sessionId!, scene: body.scene! };
    if (!(await app.captcha.redeem(pass))) return reject(400, 'verificationFailed');

    // Known and unknown accounts are answered alike (issue 27: no account enumeration): the same answer, rate
    // limits and stored code either way, and the provider is called off the request. Only what is delivered
    // differs: a login or reset code goes to an account's phone or address only; a registration code to a free
    // address only (a taken one gets a notice instead). A code never delivered can only be answered codeError.
    const account = await (channel === 'sms' ? users.findByPhone(destination) : users.findByEmail(destination));
    const delivered = purpose === 'register' ? account === undefined : account !== undefined;

    const now = app.config.now();
    const source = rateLimitKey(ip);
    const last = await codes.lastRequestedAt(purpose, destination);
    if (last !== undefined && now - last < CODE_RULES.resendMs) {
      const wait = Math.max(1, Math.ceil((last + CODE_RULES.resendMs - now) / 1000));
      return refuse(wait, fail(429, 'codeResendWait', { seconds: wait }));
    }
    for (const [count, max] of [
      [await codes.countForDestination(destination, now - HOUR), CODE_RULES.perDestinationPerHour],
      [await codes.countForIp(source, now - HOUR), CODE_RULES.perIpPerHour],
    ] as const) {
      if (count.n >= max) {
        const wait = Math.max(1, Math.ceil(((count.oldest ?? now) + HOUR - now) / 1000));
        return refuse(wait, fail(429, 'tooManyRequestsWait', { seconds: wait }));
      }
    }

    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const verificationToken = randomBytes(24).toString('base64url');
    await codes.issue({
      requestToken: verificationToken,
      purpose,
      channel,
      destination,
      code,
      ip: source,
      now,
      ttlMs: CODE_RULES.ttlMs,
    });
    if (delivered) await app.delivery.sendCode({ channel, destination, purpose, code });
    else if (purpose === 'register') await app.delivery.sendAccountExists(destination);
    return { verificationToken };
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
