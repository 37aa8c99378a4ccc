import type { Database } from 'better-sqlite3';

interface UserRow {
  id: number;
  phone: string | null;
  email: string | null;
  password_hash: string | null;
  created_at: number;
}

export interface UserRecord {
  id: number;
  phone: string | null;
  email: string | null;
  passwordHash: string | null;
  createdAt: number;
}

/** Minimal accounts table; the account features fill it later. */
export function createUsersRepository(db: Database) {
  const byId = db.prepare<[number], UserRow>(
    'SELECT id, phone, email, password_hash, created_at FROM users WHERE id = ?',
  );
  const insert = db.prepare<[string | null, string | null, string | null, number]>(
    'INSERT INTO users (phone, email, password_hash, created_at) VALUES (?, ?, ?, ?)',
  );

  return {
    findById(id: number): UserRecord | undefined {
      const row = byId.get(id);
      return row
        ? { id: row.id, phone: row.phone, email: row.email, passwordHash: row.password_hash, createdAt: row.created_at }
        : undefined;
    },

    create(user: { phone?: string; email?: string; passwordHash?: string }, now: number): number {
      const result = insert.run(user.phone ?? null, user.email ?? null, user.passwordHash ?? null, now);
      return Number(result.lastInsertRowid);
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
