/**
 * Verification codes (spec §4, §7): a code is 6 digits (crypto.randomInt), stored hashed, valid 10 minutes,
 * single use, bound to its purpose and destination. A new request within 60 s for the same purpose and
 * destination is refused; otherwise it replaces the previous code. At most 5 codes per destination and 20 per
 * source (an IP, an IPv6 /64) an hour. Known and unknown accounts are answered alike (issue 27). The routes
 * (routes/user-center/codes.ts) redeem the slider pass first and answer the outcomes.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { CodeChannel, CodePurpose } from '../../db/codes-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { Delivery } from '../../plugins/delivery.ts';

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
 * Checks a code sent from `source` (the rate-limit key of the caller's address) and consumes it when right:
 * 'ok', 'spent' (its tries are used up) or 'wrong'.
 *
 * Wrong tries are counted per source as well as per code, so that nobody can use up someone else's code: the
 * source that requested the code has the code's own 5 tries, and the code dies at the 5th wrong one. Any
 * other source gets 5 wrong tries on that code too, after which its guesses are refused unchecked, and all
 * such sources together get 10 (codes-repository.ts `check`).
 */
export async function checkCode(
  repos: Repositories,
  input: {
    purpose: CodePurpose;
    destination: string;
    code: string;
    requestToken?: string;
    source: string;
    now: number;
  },
): Promise<'ok' | 'spent' | 'wrong'> {
  const result = await repos.codes.check({
    ...input,
    // A malformed code still counts as a wrong try against the open code.
    code: /^\d{6}$/.test(input.code) ? input.code : '',
    maxTries: CODE_RULES.maxTries,
    maxStrangerTries: CODE_RULES.maxStrangerTries,
  });
  return result === 'ok' ? 'ok' : result === 'spent' ? 'spent' : 'wrong';
}

/** A send's outcome: the token of the code sent, or a wait (seconds) and its reason. */
export type SendOutcome =
  { verificationToken: string } | { waitSeconds: number; reason: 'codeResendWait' | 'tooManyRequestsWait' };

/**
 * Issues a code for `destination` and delivers it. Only what is delivered differs between known and unknown
 * accounts: a login or reset code goes to an account's phone or address only; a registration code to a free
 * address only (a taken one gets a notice instead). A code never delivered can only be answered codeError.
 */
export async function sendCode(
  deps: { repos: Repositories; delivery: Delivery },
  request: { channel: CodeChannel; destination: string; purpose: CodePurpose; source: string; now: number },
): Promise<SendOutcome> {
  const { codes, users } = deps.repos;
  const { channel, destination, purpose, source, now } = request;
  const account = await (channel === 'sms' ? users.findByPhone(destination) : users.findByEmail(destination));
  const delivered = purpose === 'register' ? account === undefined : account !== undefined;

  const last = await codes.lastRequestedAt(purpose, destination);
  if (last !== undefined && now - last < CODE_RULES.resendMs) {
    const wait = Math.max(1, Math.ceil((last + CODE_RULES.resendMs - now) / 1000));
    return { waitSeconds: wait, reason: 'codeResendWait' };
  }
  for (const [count, max] of [
    [await codes.countForDestination(destination, now - HOUR), CODE_RULES.perDestinationPerHour],
    [await codes.countForIp(source, now - HOUR), CODE_RULES.perIpPerHour],
  ] as const) {
    if (count.n >= max) {
      const wait = Math.max(1, Math.ceil(((count.oldest ?? now) + HOUR - now) / 1000));
      return { waitSeconds: wait, reason: 'tooManyRequestsWait' };
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
  if (delivered) await deps.delivery.sendCode({ channel, destination, purpose, code });
  else if (purpose === 'register') await deps.delivery.sendAccountExists(destination);
  return { verificationToken };
}
