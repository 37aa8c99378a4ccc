import { sql, type Db } from './engine.ts';

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
export function createUsersRepository(db: Db) {
  const findBy = async (column: 'id' | 'phone' | 'email', value: number | string) =>
    toRecord(await db.get<UserRow>(sql`SELECT ${sql.raw(COLUMNS)} FROM users WHERE ${sql.ref(column)} = ${value}`));

  return {
    findById(id: number): Promise<UserRecord | undefined> {
      return findBy('id', id);
    },

    findByPhone(phone: string): Promise<UserRecord | undefined> {
      return findBy('phone', phone);
    },

    /** `email` lower-cased by the caller. */
    findByEmail(email: string): Promise<UserRecord | undefined> {
      return findBy('email', email);
    },

    async create(user: { phone?: string; email?: string; passwordHash?: string }, now: number): Promise<number> {
      const row = await db.get<{ id: number }>(sql`
        INSERT INTO users (phone, email, password_hash, created_at)
        VALUES (${user.phone ?? null}, ${user.email ?? null}, ${user.passwordHash ?? null}, ${now}) RETURNING id
      `);
      return Number(row?.id);
    },

    /** Replaces the password hash and clears the lockout. */
    async setPasswordHash(id: number, passwordHash: string): Promise<void> {
      await db.run(
        sql`UPDATE users SET password_hash = ${passwordHash}, failed_logins = 0, locked_until = 0 WHERE id = ${id}`,
      );
    },

    async setLoginFailures(id: number, failedLogins: number, lockedUntil: number): Promise<void> {
      await db.run(
        sql`UPDATE users SET failed_logins = ${failedLogins}, locked_until = ${lockedUntil} WHERE id = ${id}`,
      );
    },

    /**
     * Counts one more failed login (atomically, so parallel attempts all count) and locks the account for
     * `lockMs(failures)` when that is above 0. Returns the new count and lock end.
     */
    recordLoginFailure(id: number, now: number, lockMs: (failures: number) => number) {
      return db.transaction(async (tx) => {
        const row = await tx.get<{ failed_logins: number }>(
          sql`UPDATE users SET failed_logins = failed_logins + 1 WHERE id = ${id} RETURNING failed_logins`,
        );
        const failures = row?.failed_logins ?? 0;
        const ms = lockMs(failures);
        const lockedUntil = ms > 0 ? now + ms : 0;
        if (lockedUntil > 0) await tx.run(sql`UPDATE users SET locked_until = ${lockedUntil} WHERE id = ${id}`);
        return { failures, lockedUntil };
      });
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
