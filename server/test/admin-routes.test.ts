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
  { method: 'GET', url: '/staff/999999/sessions', allowed: ['owner'] },
  { method: 'POST', url: '/staff/999999/sessions/revoke', allowed: ['owner'] },
  { method: 'GET', url: '/sessions', allowed: [...STAFF_ROLES] },
  { method: 'POST', url: '/sessions/999999/revoke', allowed: [...STAFF_ROLES] },
  { method: 'POST', url: '/sessions/revoke-others', allowed: [...STAFF_ROLES] },
  { method: 'GET', url: '/audit', allowed: ['owner'] },
  { method: 'GET', url: '/audit/verify', allowed: ['owner'] },
  { method: 'GET', url: '/audit/actions', allowed: ['owner'] },
  { method: 'GET', url: '/audit/export?format=csv', allowed: ['owner'] },
];

describe('every role against every console call', () => {
  for (const { method, url, payload, allowed } of CALLS) {
    it.each([...STAFF_ROLES])(`${method} ${url}: %s`, async (role) => {
      const res = await call(sessions.get(role)!, method, url, payload);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = String(res.headers['content-type']).startsWith('application/json') ? res.json() : {};
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
    const races = (await call(limited, 'GET', '/races')).json().data as { raceId: string; timeZone: string }[];
    expect(races.map((r) => r.raceId)).toEqual([FIXTURE_RACE_ID]);
    // The console shows a race's times in its zone (the fixture names none: China Standard Time).
    expect(races[0]!.timeZone).toBe('Asia/Shanghai');
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
    const log = (await call(owner, 'GET', '/audit?action=staff.add&limit=5')).json().data.records as {
      actor: string;
      target: string;
      source: string;
    }[];
    expect(log[0]).toMatchObject({
      actor: `staff:${owner.id}`,
      actorName: 'owner <owner@example.org>',
      target: 'desk@example.org',
    });
    expect((await call(owner, 'GET', '/audit/verify')).json().data).toMatchObject({ ok: true });
  });
});

describe('staff from the console', () => {
  it('takes races: null as every race (not as a list with an empty race), when adding and when changing', async () => {
    const owner = sessions.get('owner')!;
    const added = await call(owner, 'POST', '/staff', {
      email: 'everywhere@example.org',
      role: 'service',
      races: null,
    });
    expect(added.json()).toMatchObject({ code: 0, data: { staff: { races: null } } });
    const id = added.json().data.staff.id as number;
    const limited = await call(owner, 'POST', `/staff/${id}`, { races: [FIXTURE_RACE_ID] });
    expect(limited.json()).toMatchObject({ code: 0, data: { races: [FIXTURE_RACE_ID] } });
    const everywhere = await call(owner, 'POST', `/staff/${id}`, { races: null });
    expect(everywhere.json()).toMatchObject({ code: 0, data: { races: null } });
  });
});

describe('sessions in the console', () => {
  it('a member lists their own sessions with where they are from, and signs out the others', async () => {
    await member('traveller@example.org', 'results');
    const here = await signIn('traveller@example.org');
    const who = { cookie: here.cookie, csrf: here.body.data.csrf as string };
    const listed = (await call(who, 'GET', '/sessions')).json().data as {
      id: number;
      current: boolean;
      ip: string;
      device: string;
    }[];
    expect(listed).toHaveLength(2);
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    expect(listed[0]).toMatchObject({ current: true, ip: '127.0.0.1' });
    expect(JSON.stringify(listed)).not.toMatch(/token|csrf/i);
    const other = listed.find((s) => !s.current)!;
    expect((await call(who, 'POST', `/sessions/${listed[0]!.id}/revoke`)).json()).toMatchObject({
      code: 404,
      msgCode: 'staffSessionNotFound',
    });
    expect((await call(who, 'POST', `/sessions/${other.id}/revoke`)).json()).toMatchObject({ code: 0 });
    expect((await call(who, 'POST', '/sessions/revoke-others')).json()).toMatchObject({
      code: 0,
      data: { revoked: 0 },
    });
    expect((await call(who, 'GET', '/sessions')).json().data).toHaveLength(1);
  });

  it('an owner sees and ends every session of a member, who must sign in again', async () => {
    const owner = sessions.get('owner')!;
    const beforeSignIn = app.config.now();
    const target = await member('leaver@example.org', 'service');
    const afterSignIn = app.config.now();
    const seen = (await call(owner, 'GET', `/staff/${target.id}/sessions`)).json();
    expect(seen).toMatchObject({ code: 0, data: [{ current: false }] });
    expect((await call(owner, 'POST', `/staff/${target.id}/sessions/revoke`)).json()).toMatchObject({
      code: 0,
      data: { revoked: 1 },
    });
    expect((await call(target, 'GET', '/me')).json()).toMatchObject({ code: 401, msgCode: 'staffLoginExpired' });
    const staffList = (await call(owner, 'GET', '/staff')).json().data as { email: string; lastSignInAt: number }[];
    const { lastSignInAt } = staffList.find((s) => s.email === 'leaver@example.org')!;
    expect(lastSignInAt).toBeGreaterThanOrEqual(beforeSignIn);
    expect(lastSignInAt).toBeLessThanOrEqual(afterSignIn);
    const log = (await call(owner, 'GET', '/audit?action=staff.revokeSessions')).json().data.records;
    expect(log[0]).toMatchObject({ actor: `staff:${owner.id}`, target: 'leaver@example.org' });
  });
});

describe('the audit log in the console', () => {
  it('filters by member, action and dates, pages with `before`, and refuses bad filters by field', async () => {
    const owner = sessions.get('owner')!;
    const observer = sessions.get('observer')!;
    const mine = (await call(owner, 'GET', `/audit?actor=${observer.id}&limit=200`)).json().data;
    expect(mine.records.length).toBeGreaterThan(0);
    expect(mine.records.every((r: { actor: string }) => r.actor === `staff:${observer.id}`)).toBe(true);
    const actions = (await call(owner, 'GET', '/audit/actions')).json().data as string[];
    expect(actions).toEqual([...actions].sort());
    expect(actions).toEqual(expect.arrayContaining(['staff.add', 'staff.login']));
    expect(new Set(actions).size).toBe(actions.length);
    const cliOnly = (await call(owner, 'GET', '/audit?actor=cli&action=staff.add')).json().data.records;
    expect(cliOnly.length).toBeGreaterThan(0);
    expect(cliOnly.every((r: { staffId: number | null }) => r.staffId === null)).toBe(true);

    const first = (await call(owner, 'GET', '/audit?limit=2')).json().data;
    expect(first.records).toHaveLength(2);
    expect(first.next).toBe(first.records[1].seq);
    const second = (await call(owner, 'GET', `/audit?limit=2&before=${first.next}`)).json().data;
    expect(second.records[0].seq).toBe(first.next - 1);

    // A window of one millisecond around a record's time holds it and the records of that same instant only.
    const { at, seq } = second.records[0];
    const window = (await call(owner, 'GET', `/audit?from=${at}&to=${at + 1}&limit=200`)).json().data.records;
    expect(window.map((r: { seq: number }) => r.seq)).toContain(seq);
    expect(window.every((r: { at: number }) => r.at === at)).toBe(true);
    expect(
      (await call(owner, 'GET', `/audit?to=${at}&action=${second.records[0].action}`))
        .json()
        .data.records.some((r: { seq: number }) => r.seq === seq),
    ).toBe(false);
    expect((await call(owner, 'GET', '/audit?to=1')).json().data).toEqual({ records: [], next: null });
    // A repeated parameter is refused, not read as a list (no 500).
    const race = FIXTURE_RACE_ID;
    for (const url of [
      '/audit?action=a&action=b',
      '/audit/export?actor=1&actor=2',
      '/audit?from=1&from=2',
      `/races/${race}/entries?q=a&q=b`,
      `/races/${race}/entries?status=1&status=2`,
      `/races/${race}/entries/export?format=csv&q=a&q=b`,
    ]) {
      const res = await call(owner, 'GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 400 });
    }
    for (const [query, field] of [
      ['actor=someone', 'actor'],
      ['from=yesterday', 'from'],
      [`from=${at}&to=${at}`, 'to'],
      ['before=0', 'before'],
      ['limit=500', 'limit'],
      ['format=xlsx', 'format'],
    ]) {
      const url = field === 'format' ? `/audit/export?${query}` : `/audit?${query}`;
      expect((await call(owner, 'GET', url)).json(), query).toMatchObject({
        code: 400,
        msgCode: 'staffBadQuery',
        msgParams: { field },
      });
    }
  });

  it('exports the filtered log as a CSV file (UTF-8 with a BOM) and records the export', async () => {
    const owner = sessions.get('owner')!;
    const res = await call(owner, 'GET', '/audit/export?format=csv&action=staff.add&actor=cli');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{8}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('seq,at (UTC),actor,actor name,from,action,race,target,before,after,hash');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.includes(',staff.add,'))).toBe(true);
    const log = (await call(owner, 'GET', '/audit?action=audit.export')).json().data.records;
    expect(log[0]).toMatchObject({ actor: `staff:${owner.id}`, source: '127.0.0.1' });
    expect(JSON.parse(log[0].after)).toMatchObject({ action: 'staff.add', actor: 'cli', count: lines.length - 1 });
  });
});
