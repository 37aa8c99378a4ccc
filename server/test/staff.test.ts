/**
 * Staff accounts, their sign-in and sessions, and the hash-chained audit log (issue 30 §2, §3), through the
 * services the console routes call and the command line. Runs on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/engine.ts';
import type { OpenedDatabase } from '../src/db/database.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { base32Encode, matchTotp, totpAt, totpStep } from '../src/lib/totp.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { maskAuditValue, verifyAuditChain } from '../src/services/staff/audit.ts';
import {
  changeOwnPassword,
  confirmSecondFactor,
  csrfMatches,
  currentStaff,
  describeUserAgent,
  ownSessions,
  proposeSecondFactor,
  revokeOtherSessions,
  revokeOwnSession,
  staffLogin,
  staffLogout,
} from '../src/services/staff/sessions.ts';
import { changeStaff, listStaff, removeStaff, resetStaffPassword } from '../src/services/staff/staff.ts';
import { FIXTURE_RACE_ID, FIXTURE_SEED, openTestDatabase, removeTempDirs, siteCli, tempDir } from './helpers.ts';

const T0 = Date.UTC(2026, 10, 27, 2, 0, 0);
const MINUTE = 60_000;
const dataDir = tempDir();
let opened: OpenedDatabase;

/** The organiser CLI on this file's data folder at `at`. */
const cli = (at: number, ...argv: string[]) => siteCli(dataDir, () => at)(...argv);

const device = { ip: '203.0.113.7', userAgent: 'test browser' };

beforeAll(async () => {
  opened = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: T0 });
});

afterAll(async () => {
  await opened?.db.close();
  removeTempDirs();
});

describe('TOTP', () => {
  it('gives the codes of RFC 6238 (SHA-1) and accepts one step of drift either side', () => {
    const secret = base32Encode(Buffer.from('12345678901234567890'));
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(totpAt(secret, totpStep(59_000))).toBe('287082');
    expect(totpAt(secret, totpStep(1_111_111_109_000))).toBe('081804');
    const now = 1_111_111_109_000;
    expect(matchTotp(secret, '081804', now + 30_000)).toBe(totpStep(now));
    expect(matchTotp(secret, '081804', now + 90_000)).toBeUndefined();
    expect(matchTotp(secret, '08180', now)).toBeUndefined();
  });
});

describe('staff sign-in, from the first owner made on the command line', () => {
  let password = '';
  let totpSecret = '';

  it('staff-add prints a one-time password; bad input is refused with a reason', async () => {
    const added = await cli(T0, 'staff-add', 'Director@Example.org', '--role', 'owner', '--name', '王总监');
    expect(added.code, added.err).toBe(0);
    password = /One-time password: (\S+)/.exec(added.out)![1]!;
    expect(password).toMatch(/^[A-Za-z2-9]{16}$/);
    expect(added.out).toContain('Added director@example.org (owner)');
    expect((await cli(T0, 'staff-add', 'director@example.org', '--role', 'owner')).err).toContain('already exists');
    expect((await cli(T0, 'staff-add', 'x@example.org', '--role', 'boss')).err).toContain('role must be one of');
    expect((await cli(T0, 'staff-add', 'not-an-address', '--role', 'service')).err).toContain('not an e-mail');
    expect((await cli(T0, 'staff-add', 'x@example.org', '--role', 'service', '--races', 'nope')).err).toContain(
      'does not exist',
    );
    expect((await cli(T0, 'staff-add', 'x@example.org')).code).toBe(2);
    // The password is kept hashed only.
    const row = await opened.db.get<{ password_hash: string }>(sql`SELECT password_hash FROM staff`);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain(password);
  });

  it('the first sign-in must change the one-time password, then set up the second factor', async () => {
    const { repos } = opened;
    const login = await staffLogin(repos, { email: 'director@example.org', password, ...device }, T0 + MINUTE);
    expect(login.ok).toBe(true);
    if (!login.ok) return;
    expect(login.session.pending).toEqual(['changePassword', 'setUpSecondFactor']);
    const current = (await currentStaff(repos, login.session.token, T0 + MINUTE))!;
    expect(current.staff.email).toBe('director@example.org');
    expect(csrfMatches(current.session, login.session.csrf)).toBe(true);
    expect(csrfMatches(current.session, login.session.token)).toBe(false);
    expect(csrfMatches(current.session, undefined)).toBe(false);

    const change = (newPassword: string, oldPassword = password) =>
      changeOwnPassword(repos, current, { oldPassword, newPassword, source: device.ip }, T0 + 2 * MINUTE);
    expect(await change('short1')).toEqual({ ok: false, refusal: 'staffPasswordTooShort' });
    expect(await change('onlyletterslong')).toEqual({ ok: false, refusal: 'staffPasswordTooSimple' });
    expect(await change('Canal-Marathon-2027', 'wrong')).toEqual({ ok: false, refusal: 'staffPasswordWrong' });
    expect(await change('Canal-Marathon-2027')).toEqual({ ok: true });
    password = 'Canal-Marathon-2027';

    const proposed = proposeSecondFactor(current, 'race-site');
    expect(proposed.link).toMatch(
      /^otpauth:\/\/totp\/race-site%3Adirector%40example.org\?secret=[A-Z2-7]+&issuer=race-site/,
    );
    const at = T0 + 3 * MINUTE;
    expect(
      await confirmSecondFactor(repos, current, { secret: proposed.secret, code: '000000', source: device.ip }, at),
    ).toEqual({ ok: false, refusal: 'staffTotpWrong' });
    const code = totpAt(proposed.secret, totpStep(at));
    expect(await confirmSecondFactor(repos, current, { secret: proposed.secret, code, source: device.ip }, at)).toEqual(
      { ok: true },
    );
    totpSecret = proposed.secret;
    // Kept encrypted: the secret is not in the database in clear.
    const row = await opened.db.get<{ totp_secret_enc: string }>(sql`SELECT totp_secret_enc FROM staff`);
    expect(row!.totp_secret_enc).not.toContain(totpSecret);
    expect((await currentStaff(repos, login.session.token, at))!.pending).toEqual([]);
    // Replacing the second factor takes the password as well: an open session alone is not enough.
    const later = T0 + 4 * MINUTE;
    const withFactor = (await currentStaff(repos, login.session.token, later))!;
    const replacement = proposeSecondFactor(withFactor, 'race-site');
    const replace = (extra: { password?: string }) =>
      confirmSecondFactor(
        repos,
        withFactor,
        { secret: replacement.secret, code: totpAt(replacement.secret, totpStep(later)), source: device.ip, ...extra },
        later,
      );
    expect(await replace({})).toEqual({ ok: false, refusal: 'staffPasswordWrong' });
    expect(await replace({ password: 'not-the-password-1' })).toEqual({ ok: false, refusal: 'staffPasswordWrong' });
    expect(await replace({ password })).toEqual({ ok: true });
    totpSecret = replacement.secret;
    await staffLogout(repos, current, device.ip, at);
    expect(await currentStaff(repos, login.session.token, at)).toBeUndefined();
  });

  it('then asks for a TOTP code that works once, and locks after repeated failures', async () => {
    const { repos } = opened;
    const at = T0 + 10 * MINUTE;
    const email = 'director@example.org';
    expect(await staffLogin(repos, { email, password, ...device }, at)).toEqual({
      ok: false,
      refusal: 'staffTotpRequired',
    });
    const code = totpAt(totpSecret, totpStep(at));
    const first = await staffLogin(repos, { email, password, totp: code, ...device }, at);
    expect(first.ok).toBe(true);
    // The same code again (a replay): refused.
    expect(await staffLogin(repos, { email, password, totp: code, ...device }, at)).toMatchObject({
      ok: false,
      refusal: 'staffTotpWrong',
    });
    // Wrong passwords: refused alike for an unknown address; locked from the 5th failure in a row.
    expect(await staffLogin(repos, { email: 'nobody@example.org', password, ...device }, at)).toEqual({
      ok: false,
      refusal: 'staffLoginFailed',
    });
    const outcomes = [];
    for (let i = 0; i < 5; i += 1) outcomes.push(await staffLogin(repos, { email, password: 'wrong', ...device }, at));
    expect(outcomes.at(-1)).toMatchObject({ ok: false, refusal: 'staffLocked' });
    const locked = await staffLogin(
      repos,
      { email, password, totp: totpAt(totpSecret, totpStep(at) + 1), ...device },
      at,
    );
    expect(locked).toMatchObject({ ok: false, refusal: 'staffLocked' });
  });

  it('a session ends when idle for 30 minutes, and at 12 hours however busy', async () => {
    const { repos } = opened;
    await cli(T0, 'staff-add', 'viewer@example.org', '--role', 'observer');
    const reset = await cli(T0, 'staff-password', 'viewer@example.org');
    const viewerPassword = /: (\S+)$/m.exec(reset.out)![1]!;
    const login = await staffLogin(repos, { email: 'viewer@example.org', password: viewerPassword, ...device }, T0);
    expect(login.ok && login.session.pending).toEqual(['changePassword']);
    if (!login.ok) return;
    const { token } = login.session;
    expect(await currentStaff(repos, token, T0 + 29 * MINUTE)).toBeDefined();
    expect(await currentStaff(repos, token, T0 + 58 * MINUTE)).toBeDefined();
    expect(await currentStaff(repos, token, T0 + 89 * MINUTE)).toBeUndefined();
    const again = await staffLogin(repos, { email: 'viewer@example.org', password: viewerPassword, ...device }, T0);
    if (!again.ok) throw new Error('no session');
    let at = T0;
    for (; at < T0 + 12 * 60 * MINUTE - 20 * MINUTE; at += 20 * MINUTE) {
      expect(await currentStaff(repos, again.session.token, at)).toBeDefined();
    }
    expect(await currentStaff(repos, again.session.token, T0 + 12 * 60 * MINUTE)).toBeUndefined();
  });
});

describe('owners manage staff', () => {
  it('the last owner can be neither removed nor given another role; a removed member is signed out', async () => {
    const { repos } = opened;
    const owner = (await repos.staff.findByEmail('director@example.org'))!;
    const actor = { kind: 'staff', staffId: owner.id, source: device.ip } as const;
    expect(await removeStaff(repos, owner.id, actor, T0)).toEqual({ ok: false, refusal: 'staffLastOwner' });
    expect(await changeStaff(repos, owner.id, { role: 'finance' }, actor, T0)).toEqual({
      ok: false,
      refusal: 'staffLastOwner',
    });
    const viewer = (await repos.staff.findByEmail('viewer@example.org'))!;
    const changed = await changeStaff(repos, viewer.id, { role: 'service', races: [FIXTURE_RACE_ID] }, actor, T0);
    expect(changed).toMatchObject({ ok: true, value: { role: 'service', races: [FIXTURE_RACE_ID] } });
    expect((await removeStaff(repos, viewer.id, actor, T0)).ok).toBe(true);
    expect((await cli(T0, 'staff-list')).out).not.toContain('viewer@example.org');
  });
});

describe('sessions a member can see and end', () => {
  const CHROME_WINDOWS =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const SAFARI_IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  const WECHAT_ANDROID =
    'Mozilla/5.0 (Linux; Android 14; V2227A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36 MicroMessenger/8.0.49';

  it('summarises a user agent as browser and system', () => {
    expect(describeUserAgent(CHROME_WINDOWS)).toBe('Chrome 131 · Windows');
    expect(describeUserAgent(SAFARI_IPHONE)).toBe('Safari 17 · iPhone');
    expect(describeUserAgent(WECHAT_ANDROID)).toBe('WeChat 8 · Android');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge 131 · macOS');
    expect(describeUserAgent('curl/8.5.0')).toBe('');
    expect(describeUserAgent('')).toBe('');
  });

  /** Adds `email` (observer) with a password of its own and signs them in from `userAgent` at `at`. */
  async function signedIn(email: string, userAgent: string, at: number) {
    const { repos } = opened;
    let member = await repos.staff.findByEmail(email);
    if (!member) {
      await cli(T0, 'staff-add', email, '--role', 'observer');
      member = (await repos.staff.findByEmail(email))!;
    }
    await repos.staff.setPassword(member.id, await hashPassword('Canal-Marathon-2027'), false, T0);
    const login = await staffLogin(
      repos,
      { email, password: 'Canal-Marathon-2027', ip: '198.51.100.4', userAgent },
      at,
    );
    if (!login.ok) throw new Error(login.refusal);
    return { token: login.session.token, current: (await currentStaff(repos, login.session.token, at))! };
  }

  it('a member sees their own sessions (newest first, this one marked) and signs out one or all of the others', async () => {
    const { repos } = opened;
    const at = T0 + 30 * MINUTE;
    const laptop = await signedIn('desk@example.org', CHROME_WINDOWS, at);
    const phone = await signedIn('desk@example.org', SAFARI_IPHONE, at + MINUTE);
    const tablet = await signedIn('desk@example.org', WECHAT_ANDROID, at + 2 * MINUTE);
    const seen = await ownSessions(repos, laptop.current, at + 3 * MINUTE);
    expect(seen.map((s) => [s.device, s.current, s.ip])).toEqual([
      ['WeChat 8 · Android', false, '198.51.100.4'],
      ['Safari 17 · iPhone', false, '198.51.100.4'],
      ['Chrome 131 · Windows', true, '198.51.100.4'],
    ]);
    expect(seen[2]).toMatchObject({ createdAt: at, lastUsedAt: at, expiresAt: at + 12 * 60 * MINUTE });
    expect(JSON.stringify(seen)).not.toContain(laptop.token);

    // One session: not the current one, nor another member's.
    const director = (await repos.staff.findByEmail('director@example.org'))!;
    const directorSession = await repos.staff.sessionsOf(director.id, at, 30 * MINUTE);
    for (const id of [laptop.current.session.sessionId, ...directorSession.map((s) => s.sessionId), 999_999]) {
      expect(await revokeOwnSession(repos, laptop.current, id, '198.51.100.4', at)).toEqual({
        ok: false,
        refusal: 'staffSessionNotFound',
      });
    }
    expect(await revokeOwnSession(repos, laptop.current, phone.current.session.sessionId, '198.51.100.4', at)).toEqual({
      ok: true,
    });
    expect(await currentStaff(repos, phone.token, at + 3 * MINUTE)).toBeUndefined();

    expect(await revokeOtherSessions(repos, laptop.current, '198.51.100.4', at + 3 * MINUTE)).toEqual({ revoked: 1 });
    expect(await currentStaff(repos, tablet.token, at + 3 * MINUTE)).toBeUndefined();
    expect(await currentStaff(repos, laptop.token, at + 3 * MINUTE)).toBeDefined();
    expect((await ownSessions(repos, laptop.current, at + 3 * MINUTE)).map((s) => s.current)).toEqual([true]);
    const log = (await cli(at, 'audit-list', '--action', 'staff.revokeSessions')).out;
    expect(log).toContain('desk@example.org');
    expect(log).toContain('"revoked":1');
    expect((await cli(at, 'audit-list', '--action', 'staff.revokeSession')).out).toContain('desk@example.org');
  });

  it('staff-sessions lists a member’s sessions on the command line and --revoke ends them all', async () => {
    const at = T0 + 40 * MINUTE;
    const first = await signedIn('desk@example.org', CHROME_WINDOWS, at);
    const second = await signedIn('desk@example.org', SAFARI_IPHONE, at);
    const listed = await cli(at, 'staff-sessions', 'desk@example.org');
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain('Safari 17 · iPhone');
    expect(listed.out).toContain('198.51.100.4');
    const revoked = await cli(at, 'staff-sessions', 'DESK@example.org', '--revoke');
    expect(revoked.out).toMatch(/Ended [3-9] sessions of desk@example\.org\./);
    expect(await currentStaff(opened.repos, first.token, at)).toBeUndefined();
    expect(await currentStaff(opened.repos, second.token, at)).toBeUndefined();
    expect((await cli(at, 'staff-sessions', 'desk@example.org')).out).toBe('desk@example.org has no open session.');
    expect((await cli(at, 'staff-sessions', 'nobody@example.org')).code).toBe(1);
    expect((await cli(at, 'audit-list', '--action', 'staff.revokeSessions', '--actor', 'cli')).out).toMatch(
      /cli:\S+\s+cli\s+staff\.revokeSessions\s+desk@example\.org/,
    );
  });

  it('removing a member, resetting their password or changing their role ends their sessions', async () => {
    const { repos } = opened;
    const at = T0 + 45 * MINUTE;
    const owner = (await repos.staff.findByEmail('director@example.org'))!;
    const actor = { kind: 'staff', staffId: owner.id, source: device.ip } as const;
    let session = await signedIn('desk@example.org', CHROME_WINDOWS, at);
    expect(
      (await resetStaffPassword(repos, session.current.staff.id, { resetSecondFactor: false }, actor, at)).ok,
    ).toBe(true);
    expect(await currentStaff(repos, session.token, at)).toBeUndefined();
    session = await signedIn('desk@example.org', CHROME_WINDOWS, at);
    expect((await changeStaff(repos, session.current.staff.id, { role: 'results' }, actor, at)).ok).toBe(true);
    expect(await currentStaff(repos, session.token, at)).toBeUndefined();
    session = await signedIn('desk@example.org', CHROME_WINDOWS, at + MINUTE);
    const listed = (await listStaff(repos, at + MINUTE)).find((s) => s.email === 'desk@example.org');
    expect(listed).toMatchObject({ lastSignInAt: at + MINUTE, role: 'results' });
    expect((await removeStaff(repos, session.current.staff.id, actor, at + MINUTE)).ok).toBe(true);
    expect(await repos.staff.sessionsOf(session.current.staff.id, at + MINUTE, 30 * MINUTE)).toEqual([]);
  });
});

describe('the audit log on the command line: filters and export', () => {
  it('audit-list filters by member and by dates; bad filters are refused', async () => {
    const at = T0 + 50 * MINUTE;
    const byDirector = await cli(at, 'audit-list', '--actor', 'director@example.org', '--limit', '200');
    expect(byDirector.code, byDirector.err).toBe(0);
    expect(byDirector.out).toContain('staff.secondFactorSet');
    expect(byDirector.out).not.toMatch(/^\d+\s+\S+ \S+\s+cli:/m);
    const byCli = (await cli(at, 'audit-list', '--actor', 'cli', '--limit', '200')).out;
    expect(byCli).toContain('staff.add');
    expect(byCli).not.toContain('staff.secondFactorSet');
    // T0 + 3 min is when the second factor was set: a window around it, and one before it.
    const window = await cli(at, 'audit-list', '--from', '2026-11-27T02:03:00Z', '--to', '2026-11-27T10:04:00+08:00');
    expect(window.out).toContain('staff.secondFactorSet');
    expect(window.out).not.toContain('staff.add');
    expect((await cli(at, 'audit-list', '--to', '2026-11-27')).out).toBe('No records.');
    expect((await cli(at, 'audit-list', '--from', 'yesterday')).err).toContain('--from must be a date');
    expect((await cli(at, 'audit-list', '--actor', 'nobody@example.org')).err).toContain('no member with the e-mail');
  });

  it('audit-export writes every matching record to a CSV file with a BOM and neutralised formulas, and is recorded', async () => {
    const { repos } = opened;
    const at = T0 + 55 * MINUTE;
    await cli(at, 'staff-add', 'formula@example.org', '--role', 'observer', '--name', '=HYPERLINK("http://x")');
    const member = (await repos.staff.findByEmail('formula@example.org'))!;
    await staffLogin(repos, { email: 'formula@example.org', password: 'wrong', ...device }, at);
    const file = join(dataDir, 'audit.csv');
    const written = await cli(at, 'audit-export', file, '--actor', 'formula@example.org');
    expect(written.code, written.err).toBe(0);
    expect(written.out).toBe(`Wrote 1 record to ${file}.`);
    const text = readFileSync(file, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe('seq,at (UTC),actor,actor name,from,action,race,target,before,after,hash');
    expect(lines[1]).toContain(`staff:${member.id},"'=HYPERLINK(""http://x"") <formula@example.org>"`);
    expect(lines[1]).toContain('staff.loginFailed');
    expect(lines[2]).toBe('');
    expect((await cli(at, 'audit-list', '--action', 'audit.export')).out).toContain('"count":1');
    expect((await cli(at, 'audit-export', join(dataDir, 'audit.txt'))).code).toBe(2);
  });
});

describe('the audit log', () => {
  it('records staff actions and changing CLI commands (not read-only ones), with personal numbers masked', async () => {
    expect((await cli(T0 + 20 * MINUTE, 'bind', 'audit.example.org', FIXTURE_RACE_ID)).code).toBe(0);
    expect((await cli(T0 + 20 * MINUTE, 'list')).code).toBe(0);
    const listed = await cli(T0 + 21 * MINUTE, 'audit-list', '--limit', '200');
    expect(listed.code, listed.err).toBe(0);
    // bind records itself, as the console's binding does (domain.bind), instead of the generic cli.bind.
    expect(listed.out).toMatch(/domain\.bind\s+fixture-race-2025\s+audit\.example\.org/);
    expect(listed.out).not.toContain('cli.bind');
    expect(listed.out).not.toContain('cli.list');
    for (const action of [
      'staff.add',
      'staff.login',
      'staff.loginFailed',
      'staff.changePassword',
      'staff.secondFactorSet',
      'staff.logout',
      'staff.change',
      'staff.remove',
      'staff.resetPassword',
    ]) {
      expect(listed.out, action).toContain(action);
    }
    expect(listed.out).toMatch(/cli:\S+@\S+/);
    expect(listed.out).not.toMatch(/password_?hash|scrypt/i);
    expect(maskAuditValue({ cert: '110101199003071234', phone: '13800138000', password: 'x', note: 'ok' })).toEqual({
      cert: '1101**********1234',
      phone: '138****8000',
      password: '[hidden]',
      note: 'ok',
    });
  });

  it('verifies its chain, and finds a record changed or removed afterwards', async () => {
    const { repos, db } = opened;
    const intact = await verifyAuditChain(repos);
    expect(intact.ok).toBe(true);
    const verified = await cli(T0, 'audit-verify');
    expect(verified.code).toBe(0);
    expect(verified.out).toMatch(/intact: \d+ records\.\nHead hash: [0-9a-f]{64}/);

    await db.run(sql`UPDATE audit_log SET target = 'someone-else@example.org' WHERE seq = 2`);
    expect(await verifyAuditChain(repos)).toMatchObject({ ok: false, brokenAt: 2, count: 1 });
    const broken = await cli(T0, 'audit-verify');
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('BROKEN at record 2: record 2 was changed after it was written');

    const original = await db.get<{ target: string }>(sql`SELECT target FROM audit_log WHERE seq = 1`);
    expect(original).toBeDefined();
    await db.run(sql`DELETE FROM audit_log WHERE seq = 2`);
    expect(await verifyAuditChain(repos)).toMatchObject({ ok: false, brokenAt: 2, reason: 'record 2 is missing' });
  });
});
