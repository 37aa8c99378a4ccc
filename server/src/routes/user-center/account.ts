/**
 * Email registration and password resets. A reset re-hashes the password, clears the lockout and revokes
 * every token of the account. Neither tells a known account from an unknown one before its code is right
 * (issue 27); the spec's emailRegistered check is the one call that tells (rate-limited).
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { normalizeEmail } from '#contract/rules';
import { ok } from '../../lib/envelope.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { accountByEmail, accountByPhone, registerByEmail, setPassword } from '../../services/accounts/accounts.ts';
import { checkCode } from './codes.ts';
import { emailRegisteredQuery, registerBody, resetByEmailBody, resetByPhoneBody } from './bodies.ts';
import { newPasswordFrom, noStore, parseOrReject, reject, type Body } from './common.ts';

export default async function accountRoutes(app: FastifyInstance) {
  app.get(API_PATHS.emailRegistered, { onRequest: app.rateLimit(LIMITS.emailCheck) }, async (request, reply) => {
    noStore(reply);
    const parsed = parseOrReject(emailRegisteredQuery, request.query);
    if ('error' in parsed) return parsed.error;
    return ok((await accountByEmail(app.repos, normalizeEmail(parsed.body.email)!)) !== undefined);
  });

  app.post(
    API_PATHS.register,
    // Tells whether an e-mail has an account: counted in the account bucket of password login too.
    { onRequest: app.rateLimit(LIMITS.register, LIMITS.login) },
    async (request, reply) => {
      noStore(reply);
      const parsed = parseOrReject(registerBody, request.body);
      if ('error' in parsed) return parsed.error;
      const { body } = parsed;
      const email = normalizeEmail(body.accountEmail)!;
      const chosen = newPasswordFrom(
        body,
        app.settings.passwordKey,
        body.loginPasswordConfirm === '' ? undefined : 'loginPasswordConfirm',
      );
      if ('error' in chosen) return chosen.error;
      // A taken address is told only after its code (which went to no one: codes.ts), so the answer is the
      // same codeError as for a free address with a wrong code (issue 27).
      const requestToken = body.verificationToken;
      const checked = await checkCode(app, {
        purpose: 'register',
        destination: email,
        code: body.captcha,
        requestToken: requestToken === '' ? undefined : requestToken,
        ip: request.ip,
      });
      if (checked !== true) return checked;
      const passwordHash = await hashPassword(chosen.password);
      const id = await registerByEmail(app.repos, { email, passwordHash }, app.config.now());
      if (id === 'emailRegistered') return reject(409, 'emailRegistered');
      request.log.info({ user: id }, 'account registered');
      return ok(true);
    },
  );

  /** Shared steps of the two resets, once the account and its destination are known. */
  async function reset(body: Body, destination: string, userId: number | undefined, ip: string) {
    const chosen = newPasswordFrom(body, app.settings.passwordKey, 'confirmPassword');
    if ('error' in chosen) return chosen.error;
    const requestToken = body.verificationToken ?? '';
    if (requestToken === '') return reject(400, 'codeError');
    // The code first: an unknown account's code went to no one (codes.ts), so it answers codeError like a
    // wrong code for a known one (issue 27).
    const checked = await checkCode(app, { purpose: 'reset', destination, code: body.captcha ?? '', requestToken, ip });
    if (checked !== true) return checked;
    if (userId === undefined) return reject(400, 'codeError');
    await setPassword(app.repos, userId, chosen.password, app.config.now());
    return ok(true);
  }

  app.post(API_PATHS.resetByEmail, { onRequest: app.rateLimit(LIMITS.reset, LIMITS.login) }, async (request, reply) => {
    noStore(reply);
    const parsed = parseOrReject(resetByEmailBody, request.body);
    if ('error' in parsed) return parsed.error;
    const email = normalizeEmail(parsed.body.accountEmail)!;
    return reset(parsed.body, email, (await accountByEmail(app.repos, email))?.id, request.ip);
  });

  app.post(
    API_PATHS.resetByPhone,
    // Tells whether a phone has an account: counted in the account bucket of password login too.
    { onRequest: app.rateLimit(LIMITS.reset, LIMITS.login) },
    async (request, reply) => {
      noStore(reply);
      const parsed = parseOrReject(resetByPhoneBody, request.body);
      if ('error' in parsed) return parsed.error;
      const { phone } = parsed.body;
      return reset(parsed.body, phone, (await accountByPhone(app.repos, phone))?.id, request.ip);
    },
  );
}
