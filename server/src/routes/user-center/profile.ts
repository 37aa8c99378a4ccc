/**
 * The personal centre's profile and password (issue 14 §5; contract/api.ts profile, passwordChange):
 * - GET profile (token) → the userData of a login answer with the saved userInfo fields.
 * - POST profile (ProfileSaveRequest) → every field checked with contract/profile.ts checkProfile (unknown
 *   fields refused); the real-name card is set once: its number encrypted (lib/personal-data.ts) with a keyed
 *   hash, answered masked, never logged; a different card later is refused (cardLocked).
 * - POST passwordChange (PasswordChangeRequest, encrypted like the login) → the old password checked with
 *   scrypt as the login does, the new one by the contract rule; then every token of the account is revoked.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PATHS } from '#contract/api';
import { ageOn } from '#contract/entry';
import type { CertificateType } from '#contract/enums';
import { checkProfile, PROFILE_KEYS } from '#contract/profile';
import { checkRegionValue } from '#contract/region-data';
import { formatRaceTime } from '#contract/race-clock';
import { checkConfirm, checkPassword } from '#contract/rules';
import { ok } from '../../lib/envelope.ts';
import { hashPassword, verifyPassword } from '../../lib/password-hash.ts';
import { personalCipher } from '../../lib/personal-data.ts';
import { maskCertNo, normalizeCertNo, normalizeName } from '../../lib/race-center.ts';
import type { UserRecord } from '../../db/users-repository.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { refuseFields } from '../registration/screen-common.ts';
import { decryptField, noStore, reject, type Body } from './common.ts';
import { userData, type UserInfoProfile } from './user-data.ts';
import { tokenHeader } from '../../plugins/accounts.ts';

/** Login type of a userData answered outside a login (the token does not keep how it was issued). */
const PROFILE_LOGIN_TYPE = 0;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const todayOf = (app: FastifyInstance) => formatRaceTime(app.config.now(), 'YYYY-MM-DD');

/** The saved profile merged into userInfo (the login's answer and this route's), the card number masked. */
export async function userInfoProfile(app: FastifyInstance, userId: number): Promise<UserInfoProfile> {
  const profile = await app.repos.users.findProfile(userId);
  const fields = profile?.fields ?? {};
  const number = profile?.cardNumberEnc
    ? personalCipher(app.secrets.idNumber).decrypt(profile.cardNumberEnc)
    : undefined;
  const birthday = typeof fields.birthday === 'string' ? fields.birthday : '';
  return {
    fields,
    cardType: profile?.cardType ?? null,
    maskedCardNumber: number ? maskCertNo(number) : '',
    userAge: birthday ? Math.max(0, ageOn(birthday, todayOf(app))) : 0,
  };
}

export default async function profileRoutes(app: FastifyInstance) {
  const { users, tokens, raceCenter } = app.repos;
  const cipher = personalCipher(app.secrets.idNumber);
  const today = () => todayOf(app);

  const answerFor = async (user: UserRecord, token: string) =>
    userData(user, token, PROFILE_LOGIN_TYPE, await userInfoProfile(app, user.id));

  const loggedIn = async (request: FastifyRequest) => {
    const user = await app.userFromToken(request);
    return user ? { user, token: tokenHeader(request) } : undefined;
  };

  app.get(API_PATHS.profile, async (request, reply) => {
    noStore(reply);
    const session = await loggedIn(request);
    if (!session) return reject(401, 'loginExpired');
    return ok(await answerFor(session.user, session.token));
  });

  app.post(API_PATHS.profile, async (request, reply) => {
    noStore(reply);
    const session = await loggedIn(request);
    if (!session) return reject(401, 'loginExpired');
    const body: unknown = request.body;
    if (!isPlainObject(body)) return reject(400, 'badRequest');
    const refusals = checkProfile(body, { today: today(), regionCheck: checkRegionValue });
    if (Object.keys(refusals).length > 0) return refuseFields(refusals);

    const { user } = session;
    const current = await users.findProfile(user.id);
    if (body.cardType !== undefined) {
      const type = body.cardType as CertificateType;
      const number = normalizeCertNo(String(body.cardNumber));
      const hash = raceCenter.certHash(number);
      if (current?.cardNumberEnc) {
        // The same card again (a resent form) changes nothing; another one is refused.
        if (current.cardHash !== hash || current.cardType !== type)
          return refuseFields({ cardNumber: { code: 'cardLocked' } });
      } else if (!(await users.setCardOnce(user.id, { type, numberEnc: cipher.encrypt(number), hash }))) {
        const now = await users.findProfile(user.id);
        if (now?.cardHash !== hash || now.cardType !== type)
          return refuseFields({ cardNumber: { code: 'cardLocked' } });
      }
    }

    // Merge the given fields over the saved ones; an empty value clears a field.
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
    await users.saveProfileFields(user.id, fields);
    request.log.info({ user: user.id, fields: Object.keys(body).filter((k) => k !== 'cardNumber') }, 'profile saved');
    return ok(await answerFor(user, session.token));
  });

  app.post(
    API_PATHS.passwordChange,
    { onRequest: app.rateLimit(LIMITS.reset, LIMITS.login) },
    async (request, reply) => {
      noStore(reply);
      const session = await loggedIn(request);
      if (!session) return reject(401, 'loginExpired');
      if (!isPlainObject(request.body)) return reject(400, 'badRequest');
      const body = Object.fromEntries(
        Object.entries(request.body).map(([k, v]) => [k, typeof v === 'string' ? v : '']),
      ) as Body;
      const key = app.settings.passwordKey;
      const oldPassword = decryptField(body, 'oldPassword', key);
      if (oldPassword === null) return reject(400, 'oldPasswordRequired');
      const password = decryptField(body, 'loginPassword', key);
      const rule = password === null ? { code: 'passwordRule' as const } : checkPassword(password);
      if (rule) return reject(400, rule.code);
      const confirm = checkConfirm(decryptField(body, 'confirmPassword', key) ?? '', password!);
      if (confirm) return reject(400, confirm.code);

      const { user } = session;
      if (!(await verifyPassword(oldPassword, user.passwordHash))) {
        request.log.info({ user: user.id }, 'password change: wrong current password');
        return reject(400, 'oldPasswordWrong');
      }
      if (oldPassword === password) return reject(400, 'newPasswordSame');
      await users.setPasswordHash(user.id, await hashPassword(password!));
      const revoked = await tokens.revokeAllForUser(user.id, app.config.now());
      request.log.info({ user: user.id, revoked }, 'password changed, tokens revoked');
      return ok(true);
    },
  );
}
