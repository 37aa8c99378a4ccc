/**
 * A console member for server tests: added with a role (and races), signed in, and a caller of the console's
 * API with their session cookie and CSRF header.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { StaffRole } from '#contract/staff';
import { hashPassword } from '../src/lib/password-hash.ts';
import { totpAt, totpStep } from '../src/lib/totp.ts';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import { addStaff } from '../src/services/staff/staff.ts';

const PASSWORD = 'Canal-Marathon-2027';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** A signed-in member's session: its cookie and CSRF token, for app.inject (see sessionHeaders). */
export interface ConsoleSession {
  cookie: string;
  csrf: string;
  id: number;
  email: string;
  name: string;
}

const needsSecondFactor = (role: StaffRole) => role === 'owner' || role === 'finance';

/** Signs a member in (with the authenticator's code when the role has one): the session's cookie and token. */
export async function signInMember(
  app: FastifyInstance,
  email: string,
  role: StaffRole,
  now: () => number,
): Promise<{ cookie: string; csrf: string }> {
  const twoFactor = needsSecondFactor(role);
  const res = await app.inject({
    method: 'POST',
    url: `${ADMIN_PREFIX}/login`,
    payload: { email, password: PASSWORD, ...(twoFactor ? { totp: totpAt(SECRET, totpStep(now())) } : {}) },
  });
  expect(res.json(), email).toMatchObject({ code: 0 });
  return { cookie: String(res.headers['set-cookie']).split(';')[0]!, csrf: res.json().data.csrf as string };
}

/**
 * Adds a member with `role` (and `races`), past their first steps (the test password, an authenticator for
 * owners and finance), and signs them in.
 */
export async function memberSession(
  app: FastifyInstance,
  options: { email: string; role: StaffRole; now: () => number; races?: string[] | null; name?: string },
): Promise<ConsoleSession> {
  const { email, role, now, races = null, name = `${role} 员工` } = options;
  const added = await addStaff(app.repos, { email, role, name, races }, { kind: 'cli' }, now());
  if (!added.ok) throw new Error(added.refusal);
  await app.repos.staff.setPassword(added.value.staff.id, await hashPassword(PASSWORD), false, now());
  if (needsSecondFactor(role)) await app.repos.staff.setTotp(added.value.staff.id, SECRET, 0, 0);
  return { ...(await signInMember(app, email, role, now)), id: added.value.staff.id, email, name };
}

/** The headers of a console call in `session`. */
export const sessionHeaders = (session: { cookie: string; csrf: string }) => ({
  cookie: session.cookie,
  [CSRF_HEADER]: session.csrf,
});

export type ConsoleCaller = ((
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) => Promise<LightMyRequestResponse>) & { staffId: number };

/** A member with `role`, signed in, as a caller of the console's API (url after /api/admin). */
export async function consoleMember(
  app: FastifyInstance,
  role: StaffRole,
  now: () => number,
  races: string[] | null = null,
): Promise<ConsoleCaller> {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.org`;
  const session = await memberSession(app, { email, role, now, races });
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `${ADMIN_PREFIX}${url}`,
      headers: sessionHeaders(session),
      ...(payload ? { payload } : {}),
    });
  return Object.assign(call, { staffId: session.id });
}
