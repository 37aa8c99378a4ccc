/**
 * The personal centre's profile and password (issue 14 §5; contract/api.ts profile, passwordChange):
 * - GET profile (token) → the userData of a login answer with the saved userInfo fields.
 * - POST profile (ProfileSaveRequest) → every field checked with contract/profile.ts checkProfile (unknown
 *   fields refused); the real-name card is set once: its number encrypted (lib/personal-data.ts) with a keyed
 *   hash, answered masked, never logged; a different card later is refused (cardLocked).
 * - POST passwordChange (PasswordChangeRequest, encrypted like the login) → the old password checked with
 *   scrypt as the login does, the new one by the contract rule; then every token of the account is revoked.
 * All three behind the runner's session (plugins/sessions.ts); the rules: services/accounts/accounts.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PATHS } from '#contract/api';
import { checkProfile } from '#contract/profile';
import { checkRegionValue } from '#contract/region-data';
import { formatRaceTime } from '#contract/race-clock';
import { checkConfirm, checkPassword } from '#contract/rules';
import { ok } from '../../lib/envelope.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { changePassword, profileSummary, saveProfile } from '../../services/accounts/accounts.ts';
import { refuseFields } from '../registration/screen-common.ts';
import { decryptField, reject, type Body } from './common.ts';
import { userData, type UserInfoProfile } from './user-data.ts';
import { tokenHeader } from '../../plugins/accounts.ts';

/** Login type of a userData answered outside a login (the token does not keep how it was issued). */
const PROFILE_LOGIN_TYPE = 0;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const todayOf = (app: FastifyInstance) => formatRaceTime(app.config.now(), 'YYYY-MM-DD');

/** The saved profile merged into userInfo (the login's answer and this route's), the card number masked. */
export const userInfoProfile = (app: FastifyInstance, userId: number): Promise<UserInfoProfile> =>
  profileSummary(app.repos, app.secrets.idNumber, userId, todayOf(app));

/** GET and POST profile, passwordChange: behind the runner's session (plugins/sessions.ts). */
export default async function profileRoutes(app: FastifyInstance) {
  const today = () => todayOf(app);

  const answerFor = async (request: FastifyRequest) =>
    userData(request.runner, tokenHeader(request), PROFILE_LOGIN_TYPE, await userInfoProfile(app, request.runner.id));

  app.get(API_PATHS.profile, async (request) => ok(await answerFor(request)));

  app.post(API_PATHS.profile, async (request) => {
    const body: unknown = request.body;
    if (!isPlainObject(body)) return reject(400, 'badRequest');
    const refusals = checkProfile(body, { today: today(), regionCheck: checkRegionValue });
    if (Object.keys(refusals).length > 0) return refuseFields(refusals);
    const user = request.runner;
    if ((await saveProfile(app.repos, app.secrets.idNumber, user.id, body)) === 'cardLocked') {
      return refuseFields({ cardNumber: { code: 'cardLocked' } });
    }
    request.log.info({ user: user.id, fields: Object.keys(body).filter((k) => k !== 'cardNumber') }, 'profile saved');
    return ok(await answerFor(request));
  });

  app.post(API_PATHS.passwordChange, { onRequest: app.rateLimit(LIMITS.reset, LIMITS.login) }, async (request) => {
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

    const user = request.runner;
    const changed = await changePassword(app.repos, user, { old: oldPassword, new: password! }, app.config.now);
    if (changed === 'oldPasswordWrong') {
      request.log.info({ user: user.id }, 'password change: wrong current password');
      return reject(400, 'oldPasswordWrong');
    }
    if (changed === 'newPasswordSame') return reject(400, 'newPasswordSame');
    request.log.info({ user: user.id, revoked: changed.revoked }, 'password changed, tokens revoked');
    return ok(true);
  });
}
