/**
 * The console's calls (issue 30 §2): every role against every call, allowed or refused by the server; the
 * session cookie and its CSRF header; races a member is limited to; the first steps before anything else;
 * money hidden from roles without it; no-store everywhere. Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES, type StaffRole } from '#contract/staff';
import { hashPassword } from '../src/lib/password-hash.ts';
import { totpAt, totpStep } from '../src/lib/totp.ts';
import { ADMIN_PREFIX, CSRF_HEADER, STAFF_COOKIE } from '../src/routes/admin/index.ts';
import { addStaff } from '../src/services/staff/staff.ts';
import { buildTestApp, FIXTURE_RACE_ID, removeTempDirs } from './helpers.ts';

const PASSWORD = 'Canal-Marathon-2027';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
let app: FastifyInstance;
const sessions = new Map<string, { cookie: string; csrf: string; id: number }>();

async function signIn(email: string, totp?: string) {
  const res = await app.inject({
    method: 'POST',
    url: `${ADMIN_PREFIX}/login`,
    payload: { email, password: PASSWORD, ...(totp ? { totp } : {}) },
  });
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return { res, body: res.json(), cookie: setCookie.split(';')[0]!, setCookie };
}

async function member(email: string, role: StaffRole, races: string[] | null = null) {
  const added = await addStaff(app.repos, { email, role, races }, { kind: 'cli' }, app.config.now());
  if (!added.ok) throw new Error(added.refusal);
  await app.repos.staff.setPassword(added.value.staff.id, await hashPassword(PASSWORD), false, app.config.now());
  if (role === 'owner' || role === 'finance') await app.repos.staff.setTotp(added.value.staff.id, SECRET, 0, 0);
  const signed = await signIn(
    email,
    role === 'owner' || role === 'finance' ? totpAt(SECRET, totpStep(app.config.now())) : undefined,
  );
  expect(signed.body, email).toMatchObject({ code: 0 });
  return { cookie: signed.cookie, csrf: signed.body.data.csrf as string, id: added.value.staff.id };
}

const call = (who: { cookie: string; csrf: string }, method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({
    method,
    url: `${ADMIN_PREFIX}${url}`,
    headers: { cookie: who.cookie, [CSRF_HEADER]: who.csrf },
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  app = await buildTestApp();
  // Each role on a member of its own (owners and finance with their second factor).
  for (const role of STAFF_ROLES) sessions.set(role, await member(`${role}@example.org`, role));
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

// Which roles each call allows (contract/staff.ts): the rest are refused with 403 staffForbidden.
const CALLS: { method: 'GET' | 'POST'; url: string; payload?: object; allowed: StaffRole[] }[] = [
  { method: 'GET', url: '/me', allowed: [...STAFF_ROLES] },
  { method: 'GET', url: '/races', allowed: [...STAFF_ROLES] },
  {
    method: 'GET',
    url: `/races/${FIXTURE_RACE_ID}/dashboard`,
    allowed: ['owner', 'finance', 'service', 'results', 'observer'],
  },
  { method: 'GET', url: `/races/${FIXTURE_RACE_ID}/entries`, allowed: ['owner', 'finance', 'service'] },
  { method: 'GET', url: '/staff', allowed: ['owner'] },
  { method: 'POST', url: '/staff', payload: { email: 'new@example.org', role: 'bogus' }, allowed: ['owner'] },
  { method: 'POST', url: '/staff/999999', payload: { name: 'x' }, allowed: ['owner'] },
  { method: 'POST', url: '/staff/999999/remove', allowed: ['owner'] },
  { method: 'POST', url: '/staff/999999/password', payload: {}, allowed: ['owner'] },
  { method: 'GET', url: '/audit', allowed: ['owner'] },
  { method: 'GET', url: '/audit/verify', allowed: ['owner'] },
];

describe('every role against every console call', () => {
  for (const { method, url, payload, allowed } of CALLS) {
    it.each([...STAFF_ROLES])(`${method} ${url}: %s`, async (role) => {
      const res = await call(sessions.get(role)!, method, url, payload);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json();
      if (allowed.includes(role))
        expect(body.msgCode ?? '', JSON.stringify(body)).not.toMatch(/^staff(Forbidden|Csrf|LoginExpired)$/);
      else expect(body).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
    });
  }
});

describe('console sessions', () => {
  it('sets an HttpOnly, SameSite=Strict cookie limited to the console’s calls, and refuses calls without it', async () => {
    const signed = await signIn('observer@example.org');
    expect(signed.setCookie).toMatch(
      new RegExp(`^${STAFF_COOKIE}=[\\w-]{43}; Path=/api/admin/; HttpOnly; SameSite=Strict; Max-Age=43200`),
    );
    const anonymous = await app.inject({ method: 'GET', url: `${ADMIN_PREFIX}/me` });
    expect(anonymous.json()).toMatchObject({ code: 401, msgCode: 'staffLoginExpired' });
    const forged = await app.inject({
      method: 'GET',
      url: `${ADMIN_PREFIX}/me`,
      headers: { cookie: `${STAFF_COOKIE}=forged` },
    });
    expect(forged.json()).toMatchObject({ code: 401, msgCode: 'staffLoginExpired' });
  });

  it('refuses a changing call without the session’s CSRF token, and answers the token again to /me', async () => {
    const owner = sessions.get('owner')!;
    const noToken = await app.inject({
      method: 'POST',
      url: `${ADMIN_PREFIX}/staff`,
      headers: { cookie: owner.cookie },
      payload: { email: 'x@example.org', role: 'observer' },
    });
    expect(noToken.json()).toMatchObject({ code: 403, msgCode: 'staffCsrf' });
    const other = await call({ cookie: owner.cookie, csrf: sessions.get('observer')!.csrf }, 'POST', '/logout');
    expect(other.json()).toMatchObject({ code: 403, msgCode: 'staffCsrf' });
    expect((await call(owner, 'GET', '/me')).json().data.csrf).toBe(owner.csrf);
  });

  it('asks owners for their TOTP code before a session opens, and refuses a wrong one', async () => {
    const res = await signIn('owner@example.org');
    expect(res.body).toMatchObject({ code: 401, msgCode: 'staffTotpRequired' });
    expect((await signIn('owner@example.org', '000000')).body).toMatchObject({ msgCode: 'staffTotpWrong' });
  });

  it('lets a member with a one-time password do nothing but change it', async () => {
    const added = await addStaff(
      app.repos,
      { email: 'fresh@example.org', role: 'observer' },
      { kind: 'cli' },
      app.config.now(),
    );
    if (!added.ok) throw new Error(added.refusal);
    const res = await app.inject({
      method: 'POST',
      url: `${ADMIN_PREFIX}/login`,
      payload: { email: 'fresh@example.org', password: added.value.password },
    });
    const who = { cookie: String(res.headers['set-cookie']).split(';')[0]!, csrf: res.json().data.csrf };
    expect(res.json().data.pending).toEqual(['changePassword']);
    expect((await call(who, 'GET', `/races/${FIXTURE_RACE_ID}/dashboard`)).json()).toMatchObject({
      code: 403,
      msgCode: 'staffSetupPending',
    });
    const changed = await call(who, 'POST', '/password', { oldPassword: added.value.password, newPassword: PASSWORD });
    expect(changed.json()).toMatchObject({ code: 0 });
    expect((await call(who, 'GET', `/races/${FIXTURE_RACE_ID}/dashboard`)).json()).toMatchObject({ code: 0 });
  });
});

describe('what each member sees', () => {
  it('refuses a race outside a member’s list', async () => {
    const limited = await member('limited@example.org', 'service', [FIXTURE_RACE_ID]);
    expect((await call(limited, 'GET', `/races/${FIXTURE_RACE_ID}/entries`)).json()).toMatchObject({ code: 0 });
    expect((await call(limited, 'GET', '/races/another-race/entries')).json()).toMatchObject({
      code: 403,
      msgCode: 'staffRaceForbidden',
    });
    const races = (await call(limited, 'GET', '/races')).json().data as { raceId: string }[];
    expect(races.map((r) => r.raceId)).toEqual([FIXTURE_RACE_ID]);
  });

  it('shows money figures to owners and finance only', async () => {
    const url = `/races/${FIXTURE_RACE_ID}/dashboard`;
    expect((await call(sessions.get('finance')!, 'GET', url)).json().data.money).toEqual({
      paidFen: 0,
      refundedFen: 0,
      netFen: 0,
      owedRefunds: 0,
      owedRefundFen: 0,
    });
    expect((await call(sessions.get('observer')!, 'GET', url)).json().data.money).toBeNull();
  });

  it('refuses bad filters by field in the member’s language', async () => {
    const res = await call(sessions.get('service')!, 'GET', `/races/${FIXTURE_RACE_ID}/entries?status=9`);
    expect(res.json()).toMatchObject({ code: 400, msgCode: 'staffBadQuery', msgParams: { field: 'status' } });
  });

  it('records staff changes made in the console in the audit log, by the member who made them', async () => {
    const owner = sessions.get('owner')!;
    const added = await call(owner, 'POST', '/staff', { email: 'desk@example.org', role: 'checkIn' });
    expect(added.json()).toMatchObject({ code: 0, data: { staff: { email: 'desk@example.org', role: 'checkIn' } } });
    const log = (await call(owner, 'GET', '/audit?action=staff.add&limit=5')).json().data as {
      actor: string;
      target: string;
      source: string;
    }[];
    expect(log[0]).toMatchObject({ actor: `staff:${owner.id}`, target: 'desk@example.org' });
    expect((await call(owner, 'GET', '/audit/verify')).json().data).toMatchObject({ ok: true });
  });
});
