/**
 * user-center: login and logout, the slider check, verification codes, email registration and password
 * resets (spec §2 "Login drawer", §4, §5, §7). Every answer is the envelope; business rejections are HTTP
 * 200 with the envelope code and the message to show, rate limits HTTP 429 with Retry-After.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { normalizeEmail } from '#contract/rules';
import { maskDestination } from '../../lib/accounts.ts';
import { ok } from '../../lib/envelope.ts';
import { tokenHeader } from '../../plugins/accounts.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import {
  accountByEmail,
  accountByPhone,
  endSession,
  passwordLogin,
  startSession,
} from '../../services/accounts/accounts.ts';
import accountRoutes from './account.ts';
import captchaRoutes from './captcha.ts';
import codeRoutes, { checkCode } from './codes.ts';
import participantRoutes from './participants.ts';
import profileRoutes, { userInfoProfile } from './profile.ts';
import { loginBody } from './bodies.ts';
import { decryptField, noStore, parseOrReject, reject } from './common.ts';
import { userData } from './user-data.ts';
import myMessagesRoutes from './messages.ts';

/**
 * The personal centre's logged-in calls: the profile, the password change and the saved participants.
 * Registered behind the runner's session (plugins/sessions.ts, app.ts).
 */
export async function userCenterRunnerRoutes(app: FastifyInstance) {
  await app.register(profileRoutes);
  await app.register(participantRoutes);
  await app.register(myMessagesRoutes);
}

export default async function userCenterRoutes(app: FastifyInstance) {
  await app.register(captchaRoutes);
  await app.register(codeRoutes);
  await app.register(accountRoutes);

  const issue = async (userId: number, loginType: number) => {
    const session = await startSession(app.repos, userId, app.config.now());
    if (!session) return reject(404, 'accountMissing');
    return ok(userData(session.user, session.token, loginType, await userInfoProfile(app, session.user.id)));
  };

  app.post(API_PATHS.login, { onRequest: app.rateLimit(LIMITS.login) }, async (request, reply) => {
    noStore(reply);
    const parsed = parseOrReject(loginBody, request.body);
    if ('error' in parsed) return parsed.error;
    const { body } = parsed;
    const { loginType, phone } = body;

    if (loginType === '1') {
      // The code first: an unknown phone's code went to no one (codes.ts), so it answers codeError like a
      // wrong code for a known one (issue 27: no account enumeration).
      const checked = await checkCode(app, {
        purpose: 'login',
        destination: phone,
        code: body.captcha,
        ip: request.ip,
      });
      if (checked !== true) return checked;
      const user = await accountByPhone(app.repos, phone);
      if (!user) return reject(400, 'codeError');
      request.log.info({ user: user.id, phone: maskDestination(phone) }, 'login by code');
      return issue(user.id, 1);
    }

    // The body schema took loginType 0 (phone) or 5 (e-mail).
    const user = await (loginType === '0'
      ? accountByPhone(app.repos, phone)
      : accountByEmail(app.repos, normalizeEmail(body.accountEmail)!));
    const password = decryptField(body, 'password', app.settings.passwordKey);
    const login = await passwordLogin(app.repos, user, password, app.config.now);
    if ('refused' in login) {
      if (login.failures) {
        const { userId, count: failures, lockedUntil } = login.failures;
        request.log.info({ user: userId, failures, lockedUntil }, 'login failed');
      }
      return reject(400, login.refused);
    }
    return issue(login.userId, Number(loginType));
  });

  app.post(API_PATHS.logout, async (request, reply) => {
    noStore(reply);
    const token = tokenHeader(request);
    if (token === '' || !(await endSession(app.repos, token, app.config.now()))) return reject(401, 'loginExpired');
    return ok(true);
  });
}
