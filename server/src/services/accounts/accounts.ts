/**
 * Runner accounts (spec §2, §4, §5, §7; issue 14 §5): finding an account, registering one, password login
 * with its lockout, the session tokens, password resets and changes, and the personal centre's profile.
 * The routes (routes/user-center/) parse and decrypt the bodies, check the codes and answer.
 */
import type { CertificateType } from '#contract/enums';
import { ageOn } from '#contract/entry';
import { PROFILE_KEYS } from '#contract/profile';
import type { Repositories } from '../../db/repositories.ts';
import type { UserRecord } from '../../db/users-repository.ts';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/password-hash.ts';
import { personalCipher } from '../../lib/personal-data.ts';
import { maskCertNo, normalizeCertNo, normalizeName } from '../../lib/race-center.ts';

/** How long a login's token is valid. */
export const TOKEN_TTL_MS = 7 * 24 * 3_600_000;

/** Password lockout, for runners and staff alike (services/staff/sessions.ts): from the 5th consecutive failure, 1 min, doubling, at most 1 h. */
export const LOCKOUT = { freeFailures: 4, firstMs: 60_000, maxMs: 3_600_000 } as const;

export function lockoutMs(failures: number): number {
  if (failures <= LOCKOUT.freeFailures) return 0;
  return Math.min(LOCKOUT.firstMs * 2 ** Math.min(failures - LOCKOUT.freeFailures - 1, 20), LOCKOUT.maxMs);
}

export const accountByPhone = (repos: Repositories, phone: string) => repos.users.findByPhone(phone);
export const accountByEmail = (repos: Repositories, email: string) => repos.users.findByEmail(email);

/** A new account with an e-mail address, or 'emailRegistered' when the address has one already. */
export async function registerByEmail(
  repos: Repositories,
  account: { email: string; passwordHash: string },
  now: number,
): Promise<number | 'emailRegistered'> {
  if (await repos.users.findByEmail(account.email)) return 'emailRegistered';
  return repos.users.create(account, now);
}

/**
 * A password login of the account `user` (found by phone or e-mail): the account's id when the password is
 * right and the account not locked, otherwise 'badCredentials' (the same about the same time for a missing
 * account, a locked one and a wrong password), with the failure count once a wrong password was counted.
 */
export async function passwordLogin(
  repos: Repositories,
  user: UserRecord | undefined,
  password: string | null,
  now: () => number,
): Promise<
  { userId: number } | { refused: 'badCredentials'; failures?: { userId: number; count: number; lockedUntil: number } }
> {
  if (!user || user.lockedUntil > now() || password === null) {
    await verifyPassword(password ?? '', await dummyHash());
    return { refused: 'badCredentials' };
  }
  if (!(await verifyPassword(password, user.passwordHash))) {
    const { failures, lockedUntil } = await repos.users.recordLoginFailure(user.id, now(), lockoutMs);
    return { refused: 'badCredentials', failures: { userId: user.id, count: failures, lockedUntil } };
  }
  // Parallel guesses all pass the lock check before any is counted: re-check once the hash is done.
  const current = await repos.users.findById(user.id);
  if (!current || current.lockedUntil > now()) return { refused: 'badCredentials' };
  if (current.failedLogins > 0) await repos.users.setLoginFailures(user.id, 0, 0);
  return { userId: user.id };
}

/** A new session token for the account, with the account; undefined when the account is gone. */
export async function startSession(
  repos: Repositories,
  userId: number,
  now: number,
): Promise<{ user: UserRecord; token: string } | undefined> {
  const user = await repos.users.findById(userId);
  if (!user) return undefined;
  const { token } = await repos.tokens.issue(user.id, TOKEN_TTL_MS, now);
  return { user, token };
}

/** Ends the session of a token: false when it was no live session. */
export const endSession = (repos: Repositories, token: string, now: number) => repos.tokens.revoke(token, now);

/** Sets the account's password and ends all its sessions: the number of sessions ended. */
export async function setPassword(repos: Repositories, userId: number, password: string, now: number) {
  await repos.users.setPasswordHash(userId, await hashPassword(password));
  return repos.tokens.revokeAllForUser(userId, now);
}

/**
 * A password change: the current password checked as the login does, then the new one set and every
 * session ended.
 */
export async function changePassword(
  repos: Repositories,
  user: UserRecord,
  passwords: { old: string; new: string },
  now: () => number,
): Promise<{ revoked: number } | 'oldPasswordWrong' | 'newPasswordSame'> {
  if (!(await verifyPassword(passwords.old, user.passwordHash))) return 'oldPasswordWrong';
  if (passwords.old === passwords.new) return 'newPasswordSame';
  await repos.users.setPasswordHash(user.id, await hashPassword(passwords.new));
  return { revoked: await repos.tokens.revokeAllForUser(user.id, now()) };
}

/**
 * The personal centre's saved profile, merged over userInfo's defaults: the fields the runner saved, the
 * real-name card type and its number masked, the age on `today` (YYYY-MM-DD) from the birthday.
 */
export async function profileSummary(repos: Repositories, idNumberSecret: string, userId: number, today: string) {
  const profile = await repos.users.findProfile(userId);
  const fields = profile?.fields ?? {};
  const number = profile?.cardNumberEnc ? personalCipher(idNumberSecret).decrypt(profile.cardNumberEnc) : undefined;
  const birthday = typeof fields.birthday === 'string' ? fields.birthday : '';
  return {
    fields,
    cardType: profile?.cardType ?? null,
    maskedCardNumber: number ? maskCertNo(number) : '',
    userAge: birthday ? Math.max(0, ageOn(birthday, today)) : 0,
  };
}

/**
 * Saves a checked profile body (contract/profile.ts checkProfile passed): the real-name card is set once,
 * its number encrypted with a keyed hash (a resent same card changes nothing, another one is 'cardLocked');
 * the given fields are merged over the saved ones, an empty value clearing a field.
 */
export async function saveProfile(
  repos: Repositories,
  idNumberSecret: string,
  userId: number,
  body: Record<string, unknown>,
): Promise<'saved' | 'cardLocked'> {
  const { users } = repos;
  const current = await users.findProfile(userId);
  if (body.cardType !== undefined) {
    const type = body.cardType as CertificateType;
    const number = normalizeCertNo(String(body.cardNumber));
    const hash = repos.raceCenter.certHash(number);
    if (current?.cardNumberEnc) {
      // The same card again (a resent form) changes nothing; another one is refused.
      if (current.cardHash !== hash || current.cardType !== type) return 'cardLocked';
    } else if (
      !(await users.setCardOnce(userId, { type, numberEnc: personalCipher(idNumberSecret).encrypt(number), hash }))
    ) {
      const now = await users.findProfile(userId);
      if (now?.cardHash !== hash || now.cardType !== type) return 'cardLocked';
    }
  }

  const fields: Record<string, unknown> = { ...(current?.fields ?? {}) };
  for (const key of PROFILE_KEYS) {
    if (key === 'cardType' || key === 'cardNumber' || !(key in body)) continue;
    const value = body[key];
    if (value === undefined || value === null || value === '' || value === 0) delete fields[key];
    else if (typeof value !== 'string') fields[key] = value;
    // The name as on the certificate: ends trimmed, a run of spaces inside made one.
    else fields[key] = key === 'userName' ? normalizeName(value) : value.trim();
  }
  if (typeof fields.userEmail === 'string') fields.userEmail = fields.userEmail.toLowerCase();
  await users.saveProfileFields(userId, fields);
  return 'saved';
}

/** The account id of a live session token (not revoked, not expired), or undefined. */
export async function sessionAccountId(repos: Repositories, token: string, now: number): Promise<number | undefined> {
  return token === '' ? undefined : (await repos.tokens.findValidToken(token, now))?.userId;
}
