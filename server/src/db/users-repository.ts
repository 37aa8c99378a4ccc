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

    /** The user of a token (by its hash) that exists, is not revoked and has not expired at `now`: one query. */
    async findByValidToken(tokenHash: string, now: number): Promise<UserRecord | undefined> {
      return toRecord(
        await db.get<UserRow>(sql`
          SELECT ${sql.raw(
            COLUMNS.split(', ')
              .map((column) => `u.${column}`)
              .join(', '),
          )}
          FROM tokens AS t JOIN users AS u ON u.id = t.user_id
          WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL AND t.expires_at > ${now}`),
      );
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

    /** The personal centre's profile of the account (issue 14 §5): userInfo fields and the real-name card. */
    async findProfile(id: number): Promise<UserProfileRecord | undefined> {
      const row = await db.get<ProfileRow>(
        sql`SELECT profile_json, card_type, card_number_enc, card_hash FROM users WHERE id = ${id}`,
      );
      if (!row) return undefined;
      return {
        fields: JSON.parse(row.profile_json) as Record<string, unknown>,
        cardType: row.card_type === null ? null : Number(row.card_type),
        cardNumberEnc: row.card_number_enc,
        cardHash: row.card_hash,
      };
    },

    /** Replaces the profile's userInfo fields (the caller merged and checked them). */
    async saveProfileFields(id: number, fields: Record<string, unknown>): Promise<void> {
      await db.run(sql`UPDATE users SET profile_json = ${JSON.stringify(fields)} WHERE id = ${id}`);
    },

    /**
     * Sets the real-name card once: only while none is set (a second writer changes nothing). `cardNumberEnc`
     * is encrypted and `cardHash` keyed by the caller. Returns whether this call set it.
     */
    async setCardOnce(id: number, card: { type: number; numberEnc: string; hash: string }): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE users SET card_type = ${card.type}, card_number_enc = ${card.numberEnc}, card_hash = ${card.hash}
        WHERE id = ${id} AND card_number_enc IS NULL
      `);
      return changed > 0;
    },
  };
}

interface ProfileRow {
  profile_json: string;
  card_type: number | null;
  card_number_enc: string | null;
  card_hash: string | null;
}

export interface UserProfileRecord {
  /** The userInfo fields the runner saved (contract/profile.ts PROFILE_KEYS without the card). */
  fields: Record<string, unknown>;
  cardType: number | null;
  /** Encrypted (lib/personal-data.ts); null until set. */
  cardNumberEnc: string | null;
  cardHash: string | null;
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
