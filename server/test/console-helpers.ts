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

export type ConsoleCaller = ((
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) => Promise<LightMyRequestResponse>) & { staffId: number };

export async function consoleMember(
  app: FastifyInstance,
  role: StaffRole,
  now: () => number,
  races: string[] | null = null,
): Promise<ConsoleCaller> {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.org`;
  const added = await addStaff(app.repos, { email, role, name: `${role} 员工`, races }, { kind: 'cli' }, now());
  if (!added.ok) throw new Error(added.refusal);
  await app.repos.staff.setPassword(added.value.staff.id, await hashPassword(PASSWORD), false, now());
  const twoFactor = role === 'owner' || role === 'finance';
  if (twoFactor) await app.repos.staff.setTotp(added.value.staff.id, SECRET, 0, 0);
  const res = await app.inject({
    method: 'POST',
    url: `${ADMIN_PREFIX}/login`,
    payload: { email, password: PASSWORD, ...(twoFactor ? { totp: totpAt(SECRET, totpStep(now())) } : {}) },
  });
  expect(res.json(), email).toMatchObject({ code: 0 });
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  const csrf = res.json().data.csrf as string;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `${ADMIN_PREFIX}${url}`,
      headers: { cookie, [CSRF_HEADER]: csrf },
      ...(payload ? { payload } : {}),
    });
  return Object.assign(call, { staffId: added.value.staff.id });
}
