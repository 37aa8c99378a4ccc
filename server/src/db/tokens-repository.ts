import { createHash, randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';

/** Tokens are opaque random strings; only their SHA-256 (hex) is stored. */
export function hashToken(rawToken: string): string {
  return createHash('sha256').update(rawToken, 'utf8').digest('hex');
}

/** Longer values are never tokens this server issued; they are refused without touching the database. */
const MAX_TOKEN_LENGTH = 512;

export interface ValidToken {
  tokenId: number;
  userId: number;
  expiresAt: number;
}

interface TokenRow {
  id: number;
  user_id: number;
  expires_at: number;
}

export function createTokensRepository(db: Database) {
  const valid = db.prepare<[string, number], TokenRow>(`
    SELECT id, user_id, expires_at FROM tokens
    WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?
  `);
  const insert = db.prepare<[string, number, number, number]>(
    'INSERT INTO tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const revokeAll = db.prepare<[number, number]>(
    'UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL',
  );
  const revoke = db.prepare<[number, string]>(
    'UPDATE tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL',
  );

  return {
    /** The token's user when it exists, is not revoked and has not expired at `now`. */
    findValidToken(rawToken: string, now: number): ValidToken | undefined {
      if (rawToken === '' || rawToken.length > MAX_TOKEN_LENGTH) return undefined;
      const row = valid.get(hashToken(rawToken), now);
      return row ? { tokenId: row.id, userId: row.user_id, expiresAt: row.expires_at } : undefined;
    },

    /** Issues a new token for the user; the raw value is returned once and never stored. */
    issue(userId: number, ttlMs: number, now: number): { token: string; expiresAt: number } {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = now + ttlMs;
      insert.run(hashToken(token), userId, now, expiresAt);
      return { token, expiresAt };
    },

    revoke(rawToken: string, now: number): boolean {
      if (rawToken === '' || rawToken.length > MAX_TOKEN_LENGTH) return false;
      return revoke.run(now, hashToken(rawToken)).changes > 0;
    },

    /** Revokes every live token of the user (password reset); returns how many. */
    revokeAllForUser(userId: number, now: number): number {
      return revokeAll.run(now, userId).changes;
    },
  };
}

export type TokensRepository = ReturnType<typeof createTokensRepository>;
