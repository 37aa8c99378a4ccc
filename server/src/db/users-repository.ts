import type { Database } from 'better-sqlite3';

interface UserRow {
  id: number;
  phone: string | null;
  email: string | null;
  password_hash: string | null;
  created_at: number;
  failed_logins: number;
  locked_until: number;
}

export interface UserRecord {
  id: number;
  phone: string | null;
  email: string | null;
  passwordHash: string | null;
  createdAt: number;
  /** Consecutive failed password logins since the last success or reset. */
  failedLogins: number;
  /** Epoch ms until which password logins are refused (0: not locked). */
  lockedUntil: number;
}

const COLUMNS = 'id, phone, email, password_hash, created_at, failed_logins, locked_until';

const toRecord = (row: UserRow | undefined): UserRecord | undefined =>
  row
    ? {
        id: row.id,
        phone: row.phone,
        email: row.email,
        passwordHash: row.password_hash,
        createdAt: row.created_at,
        failedLogins: row.failed_logins,
        lockedUntil: row.locked_until,
      }
    : undefined;

/** Accounts: a phone and/or an email (stored lower-cased), a scrypt password hash, the login lockout. */
export function createUsersRepository(db: Database) {
  const byId = db.prepare<[number], UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = ?`);
  const byPhone = db.prepare<[string], UserRow>(`SELECT ${COLUMNS} FROM users WHERE phone = ?`);
  const byEmail = db.prepare<[string], UserRow>(`SELECT ${COLUMNS} FROM users WHERE email = ?`);
  const insert = db.prepare<[string | null, string | null, string | null, number]>(
    'INSERT INTO users (phone, email, password_hash, created_at) VALUES (?, ?, ?, ?)',
  );
  const setPassword = db.prepare<[string, number]>(
    'UPDATE users SET password_hash = ?, failed_logins = 0, locked_until = 0 WHERE id = ?',
  );
  const setFailures = db.prepare<[number, number, number]>(
    'UPDATE users SET failed_logins = ?, locked_until = ? WHERE id = ?',
  );
  const addFailure = db.prepare<[number], { failed_logins: number }>(
    'UPDATE users SET failed_logins = failed_logins + 1 WHERE id = ? RETURNING failed_logins',
  );
  const setLock = db.prepare<[number, number]>('UPDATE users SET locked_until = ? WHERE id = ?');

  return {
    findById(id: number): UserRecord | undefined {
      return toRecord(byId.get(id));
    },

    findByPhone(phone: string): UserRecord | undefined {
      return toRecord(byPhone.get(phone));
    },

    /** `email` lower-cased by the caller (the column is also case-insensitive). */
    findByEmail(email: string): UserRecord | undefined {
      return toRecord(byEmail.get(email));
    },

    create(user: { phone?: string; email?: string; passwordHash?: string }, now: number): number {
      const result = insert.run(user.phone ?? null, user.email ?? null, user.passwordHash ?? null, now);
      return Number(result.lastInsertRowid);
    },

    /** Replaces the password hash and clears the lockout. */
    setPasswordHash(id: number, passwordHash: string): void {
      setPassword.run(passwordHash, id);
    },

    setLoginFailures(id: number, failedLogins: number, lockedUntil: number): void {
      setFailures.run(failedLogins, lockedUntil, id);
    },

    /**
     * Counts one more failed login (atomically, so parallel attempts all count) and locks the account for
     * `lockMs(failures)` when that is above 0. Returns the new count and lock end.
     */
    recordLoginFailure(id: number, now: number, lockMs: (failures: number) => number) {
      return db.transaction(() => {
        const failures = addFailure.get(id)?.failed_logins ?? 0;
        const ms = lockMs(failures);
        const lockedUntil = ms > 0 ? now + ms : 0;
        if (lockedUntil > 0) setLock.run(lockedUntil, id);
        return { failures, lockedUntil };
      })();
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
