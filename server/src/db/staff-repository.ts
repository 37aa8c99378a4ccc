/**
 * Staff accounts and their console sessions (migration 21). Sessions are stored by the SHA-256 of their
 * token (tokens-repository.ts hashToken) and of their CSRF token; the TOTP secret encrypted under the key of
 * the ID-number secret (lib/personal-data.ts), given back decrypted.
 */
import type { StaffRole } from '#contract/staff';
import { personalCipher, type PersonalCipher } from '../lib/personal-data.ts';
import { sql, type Db } from './engine.ts';
import { hashToken, MAX_TOKEN_LENGTH } from './tokens-repository.ts';

export interface StaffRecord {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  /** The races this member may work on, or null for every race of the organiser. */
  races: string[] | null;
  passwordHash: string;
  /** The password was set by someone else (a one-time password): change it before anything else. */
  mustChange: boolean;
  /** The TOTP secret (base32), or null while no second factor is set up. */
  totpSecret: string | null;
  /** The last TOTP step used: a code is accepted once. */
  totpLastStep: number;
  failedLogins: number;
  lockedUntil: number;
  createdAt: number;
  updatedAt: number;
  removedAt: number | null;
}

interface StaffRow {
  id: number;
  email: string;
  name: string;
  role: string;
  races_json: string | null;
  password_hash: string;
  must_change: number;
  totp_secret_enc: string | null;
  totp_last_step: number;
  failed_logins: number;
  locked_until: number;
  created_at: number;
  updated_at: number;
  removed_at: number | null;
}

const toStaff = (r: StaffRow, cipher: PersonalCipher): StaffRecord => ({
  id: Number(r.id),
  email: r.email,
  name: r.name,
  role: r.role as StaffRole,
  races: r.races_json === null ? null : (JSON.parse(r.races_json) as string[]),
  passwordHash: r.password_hash,
  mustChange: Number(r.must_change) === 1,
  totpSecret: r.totp_secret_enc === null ? null : (cipher.decrypt(r.totp_secret_enc) ?? null),
  totpLastStep: Number(r.totp_last_step),
  failedLogins: Number(r.failed_logins),
  lockedUntil: Number(r.locked_until),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  removedAt: r.removed_at === null ? null : Number(r.removed_at),
});

export interface StaffSession {
  sessionId: number;
  staffId: number;
  csrfHash: string;
  secondFactor: boolean;
  createdAt: number;
  seenAt: number;
  expiresAt: number;
}

export interface StaffSessionRow {
  sessionId: number;
  ip: string;
  userAgent: string;
  createdAt: number;
  seenAt: number;
  expiresAt: number;
}

export type StaffChange = Partial<Pick<StaffRecord, 'name' | 'role' | 'races'>>;

export function createStaffRepository(db: Db, idNumberSecret: string) {
  const cipher = personalCipher(idNumberSecret);
  const toRecord = (r: StaffRow) => toStaff(r, cipher);
  return {
    async add(
      input: { email: string; name: string; role: StaffRole; races: string[] | null; passwordHash: string },
      now: number,
    ): Promise<number | undefined> {
      const row = await db.get<{ id: number }>(sql`
        INSERT INTO staff (email, name, role, races_json, password_hash, must_change, created_at, updated_at)
        VALUES (${input.email}, ${input.name}, ${input.role},
          ${input.races === null ? null : JSON.stringify(input.races)}, ${input.passwordHash}, 1, ${now}, ${now})
        ON CONFLICT (email) DO NOTHING
        RETURNING id
      `);
      return row === undefined ? undefined : Number(row.id);
    },

    async findById(id: number): Promise<StaffRecord | undefined> {
      const row = await db.get<StaffRow>(sql`SELECT * FROM staff WHERE id = ${id}`);
      return row && toRecord(row);
    },

    async findByEmail(email: string): Promise<StaffRecord | undefined> {
      const row = await db.get<StaffRow>(sql`SELECT * FROM staff WHERE email = ${email}`);
      return row && toRecord(row);
    },

    /** Every member not removed, by e-mail. */
    async list(): Promise<StaffRecord[]> {
      const rows = await db.all<StaffRow>(sql`SELECT * FROM staff WHERE removed_at IS NULL ORDER BY email`);
      return rows.map(toRecord);
    },

    /** How many owners are not removed (the last owner cannot be removed nor demoted). */
    async ownerCount(): Promise<number> {
      const row = await db.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM staff WHERE role = 'owner' AND removed_at IS NULL`,
      );
      return Number(row?.n ?? 0);
    },

    async change(id: number, change: StaffChange, now: number): Promise<boolean> {
      const current = await db.get<StaffRow>(sql`SELECT * FROM staff WHERE id = ${id} AND removed_at IS NULL`);
      if (!current) return false;
      const next = { ...toRecord(current), ...change };
      const races = next.races === null ? null : JSON.stringify(next.races);
      return (
        (await db.run(sql`
          UPDATE staff SET name = ${next.name}, role = ${next.role}, races_json = ${races}, updated_at = ${now}
          WHERE id = ${id} AND removed_at IS NULL
        `)) === 1
      );
    },

    /** Removes a member (kept for the audit log's names) and ends their sessions. */
    async remove(id: number, now: number): Promise<boolean> {
      const changed = await db.run(
        sql`UPDATE staff SET removed_at = ${now}, updated_at = ${now} WHERE id = ${id} AND removed_at IS NULL`,
      );
      await db.run(sql`UPDATE staff_sessions SET revoked_at = ${now} WHERE staff_id = ${id} AND revoked_at IS NULL`);
      return changed === 1;
    },

    /** A new password: `mustChange` when someone else set it (a one-time password); clears the lockout. */
    async setPassword(id: number, passwordHash: string, mustChange: boolean, now: number): Promise<void> {
      await db.run(sql`
        UPDATE staff SET password_hash = ${passwordHash}, must_change = ${mustChange ? 1 : 0}, failed_logins = 0,
          locked_until = 0, updated_at = ${now}
        WHERE id = ${id}
      `);
    },

    async setTotp(id: number, secret: string | null, step: number, now: number): Promise<void> {
      const stored = secret === null ? null : cipher.encrypt(secret);
      await db.run(sql`
        UPDATE staff SET totp_secret_enc = ${stored}, totp_last_step = ${step}, updated_at = ${now} WHERE id = ${id}
      `);
    },

    /** Takes TOTP step `step` when it is after the last one used (a code works once); false otherwise. */
    async useTotpStep(id: number, step: number): Promise<boolean> {
      return (
        (await db.run(sql`UPDATE staff SET totp_last_step = ${step} WHERE id = ${id} AND totp_last_step < ${step}`)) ===
        1
      );
    },

    /** One more failed login, counted atomically; locks for lockMs(failures) when above 0. */
    async recordLoginFailure(id: number, now: number, lockMs: (failures: number) => number) {
      return db.transaction(async (tx) => {
        const row = await tx.get<{ failed_logins: number }>(
          sql`UPDATE staff SET failed_logins = failed_logins + 1 WHERE id = ${id} RETURNING failed_logins`,
        );
        const failures = Number(row?.failed_logins ?? 0);
        const ms = lockMs(failures);
        const lockedUntil = ms > 0 ? now + ms : 0;
        if (lockedUntil > 0) await tx.run(sql`UPDATE staff SET locked_until = ${lockedUntil} WHERE id = ${id}`);
        return { failures, lockedUntil };
      });
    },

    async clearLoginFailures(id: number): Promise<void> {
      await db.run(sql`UPDATE staff SET failed_logins = 0, locked_until = 0 WHERE id = ${id}`);
    },

    // ------------------------------------------------------------------------------------------- sessions

    async openSession(input: {
      token: string;
      csrf: string;
      staffId: number;
      secondFactor: boolean;
      ip: string;
      userAgent: string;
      now: number;
      expiresAt: number;
    }): Promise<void> {
      await db.run(sql`
        INSERT INTO staff_sessions
          (token_hash, csrf_hash, staff_id, second_factor, ip, user_agent, created_at, seen_at, expires_at)
        VALUES (${hashToken(input.token)}, ${hashToken(input.csrf)}, ${input.staffId}, ${input.secondFactor ? 1 : 0},
          ${input.ip}, ${input.userAgent.slice(0, 300)}, ${input.now}, ${input.now}, ${input.expiresAt})
      `);
    },

    /** The session of a token when it is open at `now` (not revoked, not past its end, not idle too long). */
    async findSession(token: string, now: number, idleMs: number): Promise<StaffSession | undefined> {
      if (token === '' || token.length > MAX_TOKEN_LENGTH) return undefined;
      const row = await db.get<{
        id: number;
        staff_id: number;
        csrf_hash: string;
        second_factor: number;
        created_at: number;
        seen_at: number;
        expires_at: number;
      }>(sql`
        SELECT s.id, s.staff_id, s.csrf_hash, s.second_factor, s.created_at, s.seen_at, s.expires_at
        FROM staff_sessions s JOIN staff m ON m.id = s.staff_id
        WHERE s.token_hash = ${hashToken(token)} AND s.revoked_at IS NULL AND s.expires_at > ${now}
          AND s.seen_at > ${now - idleMs} AND m.removed_at IS NULL
      `);
      if (!row) return undefined;
      return {
        sessionId: Number(row.id),
        staffId: Number(row.staff_id),
        csrfHash: row.csrf_hash,
        secondFactor: Number(row.second_factor) === 1,
        createdAt: Number(row.created_at),
        seenAt: Number(row.seen_at),
        expiresAt: Number(row.expires_at),
      };
    },

    /** Marks a session used at `now` (its idle time starts again); at most once a minute. */
    async touchSession(sessionId: number, now: number): Promise<void> {
      await db.run(
        sql`UPDATE staff_sessions SET seen_at = ${now} WHERE id = ${sessionId} AND seen_at < ${now - 60_000}`,
      );
    },

    async markSecondFactor(sessionId: number): Promise<void> {
      await db.run(sql`UPDATE staff_sessions SET second_factor = 1 WHERE id = ${sessionId}`);
    },

    /** The open sessions of a member, newest first. */
    async sessionsOf(staffId: number, now: number, idleMs: number): Promise<StaffSessionRow[]> {
      const rows = await db.all<{
        id: number;
        ip: string;
        user_agent: string;
        created_at: number;
        seen_at: number;
        expires_at: number;
      }>(sql`
        SELECT id, ip, user_agent, created_at, seen_at, expires_at FROM staff_sessions
        WHERE staff_id = ${staffId} AND revoked_at IS NULL AND expires_at > ${now} AND seen_at > ${now - idleMs}
        ORDER BY created_at DESC, id DESC
      `);
      return rows.map((r) => ({
        sessionId: Number(r.id),
        ip: r.ip,
        userAgent: r.user_agent,
        createdAt: Number(r.created_at),
        seenAt: Number(r.seen_at),
        expiresAt: Number(r.expires_at),
      }));
    },

    /** Each member's last sign-in (the start of their newest session), by member id. */
    async lastSignIns(): Promise<Map<number, number>> {
      const rows = await db.all<{ staff_id: number; at: number }>(
        sql`SELECT staff_id, max(created_at) AS at FROM staff_sessions GROUP BY staff_id`,
      );
      return new Map(rows.map((r) => [Number(r.staff_id), Number(r.at)]));
    },

    /** Ends one session (of `staffId`, when given); true when it was open. */
    async revokeSession(sessionId: number, now: number, staffId?: number): Promise<boolean> {
      const owner = staffId === undefined ? sql`` : sql` AND staff_id = ${staffId}`;
      return (
        (await db.run(
          sql`UPDATE staff_sessions SET revoked_at = ${now} WHERE id = ${sessionId} AND revoked_at IS NULL${owner}`,
        )) === 1
      );
    },

    /** Ends every session of a member but `keep`; returns how many. */
    async revokeSessionsOf(staffId: number, now: number, keep?: number): Promise<number> {
      const except = keep === undefined ? sql`` : sql` AND id <> ${keep}`;
      return db.run(
        sql`UPDATE staff_sessions SET revoked_at = ${now} WHERE staff_id = ${staffId} AND revoked_at IS NULL${except}`,
      );
    },
  };
}

export type StaffRepository = ReturnType<typeof createStaffRepository>;
