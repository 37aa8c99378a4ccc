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

/** Keeps `secret` as the member's second factor once `code` shows their app has it; the session counts as verified. */
export async function confirmSecondFactor(
  repos: Repositories,
  current: CurrentStaff,
  input: { secret: string; code: string; source: string },
  now: number,
): Promise<{ ok: true } | { ok: false; refusal: 'staffTotpWrong' }> {
  const step = matchTotp(input.secret, input.code, now);
  if (step === undefined) return { ok: false, refusal: 'staffTotpWrong' };
  await repos.staff.setTotp(current.staff.id, input.secret, step, now);
  await repos.staff.markSecondFactor(current.session.sessionId);
  await repos.staff.revokeSessionsOf(current.staff.id, now, current.session.sessionId);
  const actor: AuditActor = { kind: 'staff', staffId: current.staff.id, source: input.source };
  await appendAudit(repos, actor, { action: 'staff.secondFactorSet', target: current.staff.email }, now);
  return { ok: true };
}
