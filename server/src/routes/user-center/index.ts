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
import { dummyHash, verifyPassword } from '../../lib/password-hash.ts';
import { tokenHeader, TOKEN_TTL_MS } from '../../plugins/accounts.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import accountRoutes from './account.ts';
import captchaRoutes from './captcha.ts';
import codeRoutes, { checkCode } from './codes.ts';
import participantRoutes from './participants.ts';
import profileRoutes, { userInfoProfile } from './profile.ts';
import { loginBody } from './bodies.ts';
import { decryptField, noStore, parseOrReject, reject } from './common.ts';
import { userData } from './user-data.ts';
import { lockoutMs } from '../../lib/accounts.ts';

export { LOCKOUT, lockoutMs } from '../../lib/accounts.ts';

export default async function userCenterRoutes(app: FastifyInstance) {
  const { users, tokens } = app.repos;

  await app.register(captchaRoutes);
  await app.register(codeRoutes);
  await app.register(accountRoutes);
  await app.register(profileRoutes);
  await app.register(participantRoutes);

  const issue = async (userId: number, loginType: number) => {
    const user = await users.findById(userId);
    if (!user) return reject(404, 'accountMissing');
    const { token } = await tokens.issue(user.id, TOKEN_TTL_MS, app.config.now());
    return ok(userData(user, token, loginType, await userInfoProfile(app, user.id)));
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
      const user = await users.findByPhone(phone);
      if (!user) return reject(400, 'codeError');
      request.log.info({ user: user.id, phone: maskDestination(phone) }, 'login by code');
      return issue(user.id, 1);
    }

    // The body schema took loginType 0 (phone) or 5 (e-mail).
    const user = await (loginType === '0'
      ? users.findByPhone(phone)
      : users.findByEmail(normalizeEmail(body.accountEmail)!));
    const password = decryptField(body, 'password', app.settings.passwordKey);
    const now = app.config.now();
    // Same message and about the same time for a missing account, a locked one and a wrong password.
    if (!user || user.lockedUntil > now || password === null) {
      await verifyPassword(password ?? '', await dummyHash());
      return reject(400, 'badCredentials');
    }
    if (!(await verifyPassword(password, user.passwordHash))) {
      const { failures, lockedUntil } = await users.recordLoginFailure(user.id, now, lockoutMs);
      request.log.info({ user: user.id, failures, lockedUntil }, 'login failed');
      return reject(400, 'badCredentials');
    }
    // Parallel guesses all pass the lock check before any is counted: re-check once the hash is done.
    const current = await users.findById(user.id);
    if (!current || current.lockedUntil > app.config.now()) return reject(400, 'badCredentials');
    if (current.failedLogins > 0) await users.setLoginFailures(user.id, 0, 0);
    return issue(user.id, Number(loginType));
  });

  app.post(API_PATHS.logout, async (request, reply) => {
    noStore(reply);
    const token = tokenHeader(request);
    if (token === '' || !(await tokens.revoke(token, app.config.now()))) return reject(401, 'loginExpired');
    return ok(true);
  });
}
