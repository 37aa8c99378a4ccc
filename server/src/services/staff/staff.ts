/**
 * Staff accounts (issue 30 §2): added by an owner (or the first one by `site staff-add`) with a one-time
 * password to change at first login; a role (contract/staff.ts) and optionally a list of races; removed
 * softly (the audit log keeps their name). Every change is in the audit log, with the values before and after.
 */
import { randomInt } from 'node:crypto';
import { isStaffRole, normalizeStaffEmail, type StaffListed, type StaffRole, type StaffView } from '#contract/staff';
import type { Repositories } from '../../db/repositories.ts';
import type { StaffRecord } from '../../db/staff-repository.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import { appendAudit, type AuditActor } from './audit.ts';

/** A staff member as answers and the audit log show them: never their password or second-factor secret. */
export type { StaffView };

export const staffView = (s: StaffRecord, now: number): StaffView => ({
  id: s.id,
  email: s.email,
  name: s.name,
  role: s.role,
  races: s.races,
  mustChangePassword: s.mustChange,
  secondFactor: s.totpSecret !== null,
  locked: s.lockedUntil > now,
  createdAt: s.createdAt,
});

export type StaffRefusal =
  'staffEmailInvalid' | 'staffRoleInvalid' | 'staffExists' | 'staffNotFound' | 'staffLastOwner' | 'staffRaceUnknown';

export type StaffOutcome<T> = { ok: true; value: T } | { ok: false; refusal: StaffRefusal };

// Letters and digits a person reads without confusing them (no 0/O, 1/l/I).
const READABLE = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A one-time password: 16 readable characters with a letter and a digit (crypto-random). */
export function oneTimePassword(): string {
  for (;;) {
    const text = Array.from({ length: 16 }, () => READABLE[randomInt(READABLE.length)]).join('');
    if (/[A-Za-z]/.test(text) && /\d/.test(text)) return text;
  }
}

async function checkRaces(repos: Repositories, races: string[] | null): Promise<boolean> {
  if (races === null) return true;
  for (const raceId of races) if (!(await repos.races.findById(raceId))) return false;
  return true;
}

/** Adds a member; answers their one-time password (shown once, never stored in clear). */
export async function addStaff(
  repos: Repositories,
  input: { email: string; name?: string; role: string; races?: string[] | null },
  actor: AuditActor,
  now: number,
): Promise<StaffOutcome<{ staff: StaffView; password: string }>> {
  const email = normalizeStaffEmail(input.email);
  if (!email) return { ok: false, refusal: 'staffEmailInvalid' };
  if (!isStaffRole(input.role)) return { ok: false, refusal: 'staffRoleInvalid' };
  const races = input.races && input.races.length > 0 ? [...new Set(input.races)] : null;
  if (!(await checkRaces(repos, races))) return { ok: false, refusal: 'staffRaceUnknown' };
  const password = oneTimePassword();
  const passwordHash = await hashPassword(password);
  return repos.transaction(async (tx) => {
    const id = await tx.staff.add(
      { email, name: input.name?.trim() || email.split('@')[0]!, role: input.role as StaffRole, races, passwordHash },
      now,
    );
    if (id === undefined) return { ok: false, refusal: 'staffExists' } as const;
    const staff = staffView((await tx.staff.findById(id))!, now);
    await appendAudit(tx, actor, { action: 'staff.add', target: email, after: staff }, now);
    return { ok: true, value: { staff, password } } as const;
  });
}

/** Changes a member's name, role or races; the last owner keeps the owner role. */
export async function changeStaff(
  repos: Repositories,
  id: number,
  change: { name?: string; role?: string; races?: string[] | null },
  actor: AuditActor,
  now: number,
): Promise<StaffOutcome<StaffView>> {
  if (change.role !== undefined && !isStaffRole(change.role)) return { ok: false, refusal: 'staffRoleInvalid' };
  const races = change.races === undefined ? undefined : change.races && change.races.length > 0 ? change.races : null;
  if (races !== undefined && !(await checkRaces(repos, races))) return { ok: false, refusal: 'staffRaceUnknown' };
  return repos.transaction(async (tx) => {
    await tx.db.lock('staff-owners');
    const before = await tx.staff.findById(id);
    if (!before || before.removedAt !== null) return { ok: false, refusal: 'staffNotFound' } as const;
    if (before.role === 'owner' && change.role !== undefined && change.role !== 'owner') {
      if ((await tx.staff.ownerCount()) <= 1) return { ok: false, refusal: 'staffLastOwner' } as const;
    }
    await tx.staff.change(
      id,
      {
        ...(change.name?.trim() ? { name: change.name.trim() } : {}),
        ...(change.role !== undefined ? { role: change.role as StaffRole } : {}),
        ...(races !== undefined ? { races } : {}),
      },
      now,
    );
    const after = staffView((await tx.staff.findById(id))!, now);
    // A new role or races take effect at once: the member's sessions end.
    if (after.role !== before.role || JSON.stringify(after.races) !== JSON.stringify(before.races)) {
      await tx.staff.revokeSessionsOf(id, now);
    }
    await appendAudit(
      tx,
      actor,
      { action: 'staff.change', target: before.email, before: staffView(before, now), after },
      now,
    );
    return { ok: true, value: after } as const;
  });
}

/** Removes a member and ends their sessions; never the last owner. */
export async function removeStaff(
  repos: Repositories,
  id: number,
  actor: AuditActor,
  now: number,
): Promise<StaffOutcome<StaffView>> {
  return repos.transaction(async (tx) => {
    await tx.db.lock('staff-owners');
    const before = await tx.staff.findById(id);
    if (!before || before.removedAt !== null) return { ok: false, refusal: 'staffNotFound' } as const;
    if (before.role === 'owner' && (await tx.staff.ownerCount()) <= 1) {
      return { ok: false, refusal: 'staffLastOwner' } as const;
    }
    await tx.staff.remove(id, now);
    const view = staffView(before, now);
    await appendAudit(tx, actor, { action: 'staff.remove', target: before.email, before: view }, now);
    return { ok: true, value: view } as const;
  });
}

/**
 * A new one-time password for a member who lost theirs (and, with `resetSecondFactor`, their authenticator):
 * their sessions end and the lockout is cleared.
 */
export async function resetStaffPassword(
  repos: Repositories,
  id: number,
  options: { resetSecondFactor: boolean },
  actor: AuditActor,
  now: number,
): Promise<StaffOutcome<{ staff: StaffView; password: string }>> {
  const password = oneTimePassword();
  const passwordHash = await hashPassword(password);
  return repos.transaction(async (tx) => {
    const before = await tx.staff.findById(id);
    if (!before || before.removedAt !== null) return { ok: false, refusal: 'staffNotFound' } as const;
    await tx.staff.setPassword(id, passwordHash, true, now);
    if (options.resetSecondFactor) await tx.staff.setTotp(id, null, 0, now);
    await tx.staff.revokeSessionsOf(id, now);
    const staff = staffView((await tx.staff.findById(id))!, now);
    await appendAudit(
      tx,
      actor,
      {
        action: 'staff.resetPassword',
        target: before.email,
        before: { secondFactor: before.totpSecret !== null },
        after: { secondFactor: staff.secondFactor, mustChangePassword: true },
      },
      now,
    );
    return { ok: true, value: { staff, password } } as const;
  });
}

export type { StaffListed };

/** The members, by e-mail. */
export async function listStaff(repos: Repositories, now: number): Promise<StaffListed[]> {
  const lastSignIns = await repos.staff.lastSignIns();
  return (await repos.staff.list()).map((s) => ({ ...staffView(s, now), lastSignInAt: lastSignIns.get(s.id) ?? null }));
}

/** The member with this e-mail (any case), removed or not, or undefined. */
export async function staffByEmail(repos: Repositories, email: string): Promise<StaffRecord | undefined> {
  const normalized = normalizeStaffEmail(email);
  return normalized === undefined ? undefined : repos.staff.findByEmail(normalized);
}
