/**
 * Email registration and password resets. A reset re-hashes the password, clears the lockout and revokes
 * every token of the account.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { isValidPhone, normalizeEmail } from '../../lib/accounts.ts';
import { MESSAGES, ok } from '../../lib/envelope.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { checkCode } from './codes.ts';
import { field, newPasswordFrom, noStore, reject, stringFields, type Body } from './common.ts';

export default async function accountRoutes(app: FastifyInstance) {
  const { users, tokens } = app.repos;

  app.get<{ Querystring: Body }>(
    API_PATHS.emailRegistered,
    {
      onRequest: app.rateLimit(LIMITS.emailCheck),
      schema: { querystring: stringFields('email', 'osId').anyOf[0] },
    },
    async (request, reply) => {
      noStore(reply);
      const email = normalizeEmail(field(request.query, 'email'));
      if (email === null) return reject(400, MESSAGES.badEmail);
      return ok(users.findByEmail(email) !== undefined);
    },
  );

  app.post<{ Body: Body | null }>(
    API_PATHS.register,
    {
      // Tells whether an e-mail has an account: counted in the account bucket of password login too.
      onRequest: app.rateLimit(LIMITS.register, LIMITS.login),
      schema: {
        body: stringFields(
          'accountEmail',
          'captcha',
          'loginPassword',
          'loginPasswordConfirm',
          'encryptType',
          'verificationToken',
          'machineCode',
        ),
      },
    },
    async (request, reply) => {
      noStore(reply);
      const body = request.body;
      const email = normalizeEmail(field(body, 'accountEmail'));
      if (email === null) return reject(400, MESSAGES.badEmail);
      const chosen = newPasswordFrom(
        body,
        app.settings.passwordKey,
        field(body, 'loginPasswordConfirm') === '' ? undefined : 'loginPasswordConfirm',
      );
      if ('error' in chosen) return chosen.error;
      if (users.findByEmail(email)) return reject(409, MESSAGES.emailRegistered);
      const requestToken = field(body, 'verificationToken');
      const checked = checkCode(app, {
        purpose: 'register',
        destination: email,
        code: field(body, 'captcha'),
        requestToken: requestToken === '' ? undefined : requestToken,
        ip: request.ip,
      });
      if (checked !== true) return checked;
      const passwordHash = await hashPassword(chosen.password);
      if (users.findByEmail(email)) return reject(409, MESSAGES.emailRegistered);
      const id = users.create({ email, passwordHash }, app.config.now());
      request.log.info({ user: id }, 'account registered');
      return ok(true);
    },
  );

  /** Shared steps of the two resets, once the account and its destination are known. */
  async function reset(body: Body | null | undefined, destination: string, userId: number | undefined, ip: string) {
    const chosen = newPasswordFrom(body, app.settings.passwordKey, 'confirmPassword');
    if ('error' in chosen) return chosen.error;
    if (userId === undefined) return reject(404, MESSAGES.accountMissing);
    const requestToken = field(body, 'verificationToken');
    if (requestToken === '') return reject(400, MESSAGES.codeError);
    const checked = checkCode(app, { purpose: 'reset', destination, code: field(body, 'captcha'), requestToken, ip });
    if (checked !== true) return checked;
    users.setPasswordHash(userId, await hashPassword(chosen.password));
    tokens.revokeAllForUser(userId, app.config.now());
    return ok(true);
  }

  const resetFields = ['verificationToken', 'captcha', 'encryptType', 'loginPassword', 'confirmPassword'];

  app.post<{ Body: Body | null }>(
    API_PATHS.resetByEmail,
    {
      onRequest: app.rateLimit(LIMITS.reset, LIMITS.login),
      schema: { body: stringFields('accountEmail', ...resetFields) },
    },
    async (request, reply) => {
      noStore(reply);
      const email = normalizeEmail(field(request.body, 'accountEmail'));
      if (email === null) return reject(400, MESSAGES.badEmail);
      return reset(request.body, email, users.findByEmail(email)?.id, request.ip);
    },
  );

  app.post<{ Body: Body | null }>(
    API_PATHS.resetByPhone,
    {
      // Tells whether a phone has an account: counted in the account bucket of password login too.
      onRequest: app.rateLimit(LIMITS.reset, LIMITS.login),
      schema: { body: stringFields('phone', 'enterprise', ...resetFields) },
    },
    async (request, reply) => {
      noStore(reply);
      const phone = field(request.body, 'phone');
      if (phone === '') return reject(400, MESSAGES.phoneRequired);
      if (!isValidPhone(phone)) return reject(400, MESSAGES.badPhone);
      return reset(request.body, phone, users.findByPhone(phone)?.id, request.ip);
    },
  );
}
