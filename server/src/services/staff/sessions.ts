/**
 * Staff sign-in and console sessions (issue 30 §2). A session is a random token (sent in an HttpOnly cookie by
 * the console routes) with a CSRF token of its own that every changing request must echo in a header: no
 * cookie-only authentication. Sessions end after STAFF_SESSION_IDLE_MS unused, at STAFF_SESSION_MAX_MS, at
 * sign-out, or when an owner or the member revokes them. Wrong passwords lock the account as for runners
 * (lib/accounts.ts lockoutMs). Owners and finance must use a second factor (TOTP): until they have set it up,
 * their session can only set it up (and change the password).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  checkStaffPassword,
  normalizeStaffEmail,
  roleNeedsSecondFactor,
  STAFF_SESSION_IDLE_MS,
  STAFF_SESSION_MAX_MS,
  type StaffPendingStep,
  type StaffSessionView,
} from '#contract/staff';
import type { Repositories } from '../../db/repositories.ts';
import type { StaffRecord, StaffSession } from '../../db/staff-repository.ts';
import { hashToken } from '../../db/tokens-repository.ts';
import { lockoutMs } from '../accounts/accounts.ts';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/password-hash.ts';
import { matchTotp, newTotpSecret, totpLink } from '../../lib/totp.ts';
import { appendAudit, type AuditActor } from './audit.ts';
import { staffView, type StaffView } from './staff.ts';

export type LoginRefusal = 'staffLoginFailed' | 'staffLocked' | 'staffTotpRequired' | 'staffTotpWrong';

export interface OpenedSession {
  token: string;
  csrf: string;
  expiresAt: number;
  staff: StaffView;
  /** What the member must do before anything else: change the one-time password, set up the second factor. */
  pending: StaffPendingStep[];
}

export type LoginOutcome =
  { ok: true; session: OpenedSession } | { ok: false; refusal: LoginRefusal; lockedUntil?: number };

const newToken = () => randomBytes(32).toString('base64url');

/**
 * The CSRF token of a session token: derived from it, so the console can be given it again after a reload
 * (GET /api/admin/me) without keeping it; a page on another site cannot read the HttpOnly session cookie, so
 * it cannot derive the token, and a changing request without it is refused.
 */
export const csrfFor = (token: string): string =>
  createHash('sha256').update(`race-site console csrf:${token}`).digest('base64url');

export function pendingSteps(staff: StaffRecord): OpenedSession['pending'] {
  const steps: OpenedSession['pending'] = [];
  if (staff.mustChange) steps.push('changePassword');
  if (roleNeedsSecondFactor(staff.role) && staff.totpSecret === null) steps.push('setUpSecondFactor');
  return steps;
}

/** Signs a member in with e-mail, password and (when set up) a TOTP code. */
export async function staffLogin(
  repos: Repositories,
  input: { email: string; password: string; totp?: string; ip: string; userAgent: string },
  now: number,
): Promise<LoginOutcome> {
  const email = normalizeStaffEmail(input.email);
  const staff = email === undefined ? undefined : await repos.staff.findByEmail(email);
  if (!staff || staff.removedAt !== null) {
    await verifyPassword(input.password, await dummyHash()); // the same time as a wrong password
    return { ok: false, refusal: 'staffLoginFailed' };
  }
  if (staff.lockedUntil > now) return { ok: false, refusal: 'staffLocked', lockedUntil: staff.lockedUntil };
  if (!(await verifyPassword(input.password, staff.passwordHash))) {
    const { lockedUntil } = await repos.staff.recordLoginFailure(staff.id, now, lockoutMs);
    await appendAudit(
      repos,
      { kind: 'staff', staffId: staff.id, source: input.ip },
      { action: 'staff.loginFailed', target: staff.email },
      now,
    );
    return lockedUntil > now
      ? { ok: false, refusal: 'staffLocked', lockedUntil }
      : { ok: false, refusal: 'staffLoginFailed' };
  }
  let secondFactor = false;
  if (staff.totpSecret !== null) {
    if (!input.totp) return { ok: false, refusal: 'staffTotpRequired' };
    const step = matchTotp(staff.totpSecret, input.totp, now);
    if (step === undefined || !(await repos.staff.useTotpStep(staff.id, step))) {
      const { lockedUntil } = await repos.staff.recordLoginFailure(staff.id, now, lockoutMs);
      return lockedUntil > now
        ? { ok: false, refusal: 'staffLocked', lockedUntil }
        : { ok: false, refusal: 'staffTotpWrong' };
    }
    secondFactor = true;
  }
  await repos.staff.clearLoginFailures(staff.id);
  const token = newToken();
  const csrf = csrfFor(token);
  const expiresAt = now + STAFF_SESSION_MAX_MS;
  await repos.staff.openSession({
    token,
    csrf,
    staffId: staff.id,
    secondFactor,
    ip: input.ip,
    userAgent: input.userAgent,
    now,
    expiresAt,
  });
  await appendAudit(
    repos,
    { kind: 'staff', staffId: staff.id, source: input.ip },
    { action: 'staff.login', target: staff.email, after: { secondFactor } },
    now,
  );
  return { ok: true, session: { token, csrf, expiresAt, staff: staffView(staff, now), pending: pendingSteps(staff) } };
}

export interface CurrentStaff {
  staff: StaffRecord;
  session: StaffSession;
  /** Steps still to do: while any is left, only they (and signing out) are allowed. */
  pending: OpenedSession['pending'];
}

/** The member of a session token at `now`, or undefined (no such session, ended, idle too long, removed). */
export async function currentStaff(repos: Repositories, token: string, now: number): Promise<CurrentStaff | undefined> {
  const session = await repos.staff.findSession(token, now, STAFF_SESSION_IDLE_MS);
  if (!session) return undefined;
  const staff = await repos.staff.findById(session.staffId);
  if (!staff || staff.removedAt !== null) return undefined;
  await repos.staff.touchSession(session.sessionId, now);
  return { staff, session, pending: pendingSteps(staff) };
}

/** Whether `csrf` is the session's CSRF token (compared in constant time). */
export function csrfMatches(session: StaffSession, csrf: string | undefined): boolean {
  if (!csrf || csrf.length > 512) return false;
  return timingSafeEqual(Buffer.from(hashToken(csrf)), Buffer.from(session.csrfHash));
}

export async function staffLogout(repos: Repositories, current: CurrentStaff, source: string, now: number) {
  await repos.staff.revokeSession(current.session.sessionId, now);
  await appendAudit(
    repos,
    { kind: 'staff', staffId: current.staff.id, source },
    { action: 'staff.logout', target: current.staff.email },
    now,
  );
}

export type PasswordRefusal =
  | 'staffPasswordWrong'
  | 'staffPasswordTooShort'
  | 'staffPasswordTooLong'
  | 'staffPasswordTooSimple'
  | 'staffPasswordSame';

/** The member changes their own password (the one-time one at first login); their other sessions end. */
export async function changeOwnPassword(
  repos: Repositories,
  current: CurrentStaff,
  input: { oldPassword: string; newPassword: string; source: string },
  now: number,
): Promise<{ ok: true } | { ok: false; refusal: PasswordRefusal }> {
  if (!(await verifyPassword(input.oldPassword, current.staff.passwordHash))) {
    return { ok: false, refusal: 'staffPasswordWrong' };
  }
  const problem = checkStaffPassword(input.newPassword);
  if (problem === 'tooShort') return { ok: false, refusal: 'staffPasswordTooShort' };
  if (problem === 'tooLong') return { ok: false, refusal: 'staffPasswordTooLong' };
  if (problem === 'tooSimple') return { ok: false, refusal: 'staffPasswordTooSimple' };
  if (input.newPassword === input.oldPassword) return { ok: false, refusal: 'staffPasswordSame' };
  await repos.staff.setPassword(current.staff.id, await hashPassword(input.newPassword), false, now);
  await repos.staff.revokeSessionsOf(current.staff.id, now, current.session.sessionId);
  await appendAudit(
    repos,
    { kind: 'staff', staffId: current.staff.id, source: input.source },
    { action: 'staff.changePassword', target: current.staff.email },
    now,
  );
  return { ok: true };
}

/** A new TOTP secret to show (as a QR code of its link) before the member confirms it with a code. */
export function proposeSecondFactor(current: CurrentStaff, issuer: string): { secret: string; link: string } {
  const secret = newTotpSecret();
  return { secret, link: totpLink(secret, current.staff.email, issuer) };
}

/**
 * Keeps `secret` as the member's second factor once `code` shows their app has it; the session counts as
 * verified. Replacing a second factor already set up takes the member's password too: a session left open on
 * someone's desk must not be enough to move their second factor to another phone.
 */
export async function confirmSecondFactor(
  repos: Repositories,
  current: CurrentStaff,
  input: { secret: string; code: string; password?: string; source: string },
  now: number,
): Promise<{ ok: true } | { ok: false; refusal: 'staffTotpWrong' | 'staffPasswordWrong' }> {
  if (current.staff.totpSecret !== null && !(await verifyPassword(input.password ?? '', current.staff.passwordHash))) {
    return { ok: false, refusal: 'staffPasswordWrong' };
  }
  const step = matchTotp(input.secret, input.code, now);
  if (step === undefined) return { ok: false, refusal: 'staffTotpWrong' };
  await repos.staff.setTotp(current.staff.id, input.secret, step, now);
  await repos.staff.markSecondFactor(current.session.sessionId);
  await repos.staff.revokeSessionsOf(current.staff.id, now, current.session.sessionId);
  const actor: AuditActor = { kind: 'staff', staffId: current.staff.id, source: input.source };
  await appendAudit(repos, actor, { action: 'staff.secondFactorSet', target: current.staff.email }, now);
  return { ok: true };
}

// ------------------------------------------------------------------------------------ sessions one can see

/** An open session as its member (or an owner) sees it (contract/staff.ts). */
export type SessionView = StaffSessionView;

const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\/(\d+)/, 'WeChat'],
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/HarmonyOS|OpenHarmony/, 'HarmonyOS'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** 'Chrome 131 · Windows' from a user agent; '' when neither the browser nor the system is known. */
export function describeUserAgent(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent));
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const name = browser ? `${browser[1]} ${browser[0].exec(userAgent)![1]}` : undefined;
  return [name, system].filter(Boolean).join(' · ');
}

async function sessionViews(repos: Repositories, staffId: number, now: number, currentId?: number) {
  return (await repos.staff.sessionsOf(staffId, now, STAFF_SESSION_IDLE_MS)).map((s): SessionView => ({
    id: s.sessionId,
    current: s.sessionId === currentId,
    ip: s.ip,
    device: describeUserAgent(s.userAgent),
    createdAt: s.createdAt,
    lastUsedAt: s.seenAt,
    expiresAt: s.expiresAt,
  }));
}

/** The member's own open sessions, newest first, the current one marked. */
export function ownSessions(repos: Repositories, current: CurrentStaff, now: number): Promise<SessionView[]> {
  return sessionViews(repos, current.staff.id, now, current.session.sessionId);
}

/** The member signs out one of their other sessions (a lost laptop); not the current one (that is sign-out). */
export async function revokeOwnSession(
  repos: Repositories,
  current: CurrentStaff,
  sessionId: number,
  source: string,
  now: number,
): Promise<{ ok: true } | { ok: false; refusal: 'staffSessionNotFound' }> {
  if (sessionId === current.session.sessionId) return { ok: false, refusal: 'staffSessionNotFound' };
  if (!(await repos.staff.revokeSession(sessionId, now, current.staff.id))) {
    return { ok: false, refusal: 'staffSessionNotFound' };
  }
  await appendAudit(
    repos,
    { kind: 'staff', staffId: current.staff.id, source },
    { action: 'staff.revokeSession', target: current.staff.email, after: { session: sessionId } },
    now,
  );
  return { ok: true };
}

/** The member signs out every session but this one; answers how many ended. */
export async function revokeOtherSessions(
  repos: Repositories,
  current: CurrentStaff,
  source: string,
  now: number,
): Promise<{ revoked: number }> {
  const revoked = await repos.staff.revokeSessionsOf(current.staff.id, now, current.session.sessionId);
  await appendAudit(
    repos,
    { kind: 'staff', staffId: current.staff.id, source },
    { action: 'staff.revokeSessions', target: current.staff.email, after: { revoked, kept: 'current' } },
    now,
  );
  return { revoked };
}

/** A member's open sessions, for an owner (console) or the command line. */
export async function staffSessions(
  repos: Repositories,
  id: number,
  now: number,
): Promise<{ ok: true; value: SessionView[] } | { ok: false; refusal: 'staffNotFound' }> {
  const member = await repos.staff.findById(id);
  if (!member || member.removedAt !== null) return { ok: false, refusal: 'staffNotFound' };
  return { ok: true, value: await sessionViews(repos, id, now) };
}

/**
 * Ends every session of a member (an owner, in the console or on the command line: a lost phone, a member
 * leaving); the member signs in again. Ending one's own sessions this way signs oneself out too.
 */
export async function revokeStaffSessions(
  repos: Repositories,
  id: number,
  actor: AuditActor,
  now: number,
): Promise<{ ok: true; value: { revoked: number } } | { ok: false; refusal: 'staffNotFound' }> {
  return repos.transaction(async (tx) => {
    const member = await tx.staff.findById(id);
    if (!member || member.removedAt !== null) return { ok: false, refusal: 'staffNotFound' } as const;
    const revoked = await tx.staff.revokeSessionsOf(id, now);
    await appendAudit(tx, actor, { action: 'staff.revokeSessions', target: member.email, after: { revoked } }, now);
    return { ok: true, value: { revoked } } as const;
  });
}
