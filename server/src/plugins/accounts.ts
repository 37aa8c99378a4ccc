/**
 * Account settings (env), the token check of authenticated calls, and the demo account, created on start
 * with the demo seed only (SEED_DIR's race.json says "demoAccount": true and its race is in the database;
 * db/seed.ts demoAccountRace) when neither its phone nor its email exists: phone 13800138000, email
 * runner@example.com, password Runner2027 (quick login in the debug build and the browser tests). A server
 * started with the organiser's own seed, or none, never has it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { demoAccountRace } from '../db/seed.ts';
import { hashToken, MAX_TOKEN_LENGTH } from '../db/tokens-repository.ts';
import type { UserRecord } from '../db/users-repository.ts';
import { hashPassword } from '../lib/password-hash.ts';
import type { AccountSettings } from '../lib/settings.ts';

export const DEMO_ACCOUNT = { phone: '13800138000', email: 'runner@example.com', password: 'Runner2027' } as const;

declare module 'fastify' {
  interface FastifyInstance {
    settings: AccountSettings;
    /** The user of the request's `token` header when it is valid (not revoked, not expired). */
    userFromToken(request: FastifyRequest): Promise<UserRecord | undefined>;
  }
}

export function tokenHeader(request: FastifyRequest): string {
  const raw = request.headers.token;
  return typeof raw === 'string' ? raw.trim() : '';
}

async function accountsPlugin(app: FastifyInstance, options: { settings: AccountSettings; seedDemo: boolean }) {
  app.decorate('settings', options.settings);
  app.decorate('userFromToken', async (request: FastifyRequest) => {
    const token = tokenHeader(request);
    if (token === '' || token.length > MAX_TOKEN_LENGTH) return undefined;
    return app.repos.users.findByValidToken(hashToken(token), app.config.now());
  });

  if (options.seedDemo && (await demoAccountRace({ repos: app.repos, seedDir: app.config.seedDir })) !== undefined) {
    const { users } = app.repos;
    const exists = async () =>
      (await users.findByPhone(DEMO_ACCOUNT.phone)) !== undefined ||
      (await users.findByEmail(DEMO_ACCOUNT.email)) !== undefined;
    if (!(await exists())) {
      const passwordHash = await hashPassword(DEMO_ACCOUNT.password);
      try {
        await users.create({ phone: DEMO_ACCOUNT.phone, email: DEMO_ACCOUNT.email, passwordHash }, app.config.now());
        app.log.info('created the demo account (see README: demo account)');
      } catch (error) {
        // Another instance starting on the same database created it first.
        if (!(await exists())) throw error;
      }
    }
  }
}

export default fp(accountsPlugin, { name: 'accounts', dependencies: ['db', 'app-config'] });
