import { createHash, randomBytes } from 'node:crypto';
import { sql, type Db } from './engine.ts';

/** Tokens are opaque random strings; only their SHA-256 (hex) is stored. */
export function hashToken(rawToken: string): string {
  return createHash('sha256').update(rawToken, 'utf8').digest('hex');
}

/** Longer values are never tokens this server issued; they are refused without touching the database. */
export const MAX_TOKEN_LENGTH = 512;

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

export function createTokensRepository(db: Db) {
  return {
    /** The token's user when it exists, is not revoked and has not expired at `now`. */
    async findValidToken(rawToken: string, now: number): Promise<ValidToken | undefined> {
      if (rawToken === '' || rawToken.length > MAX_TOKEN_LENGTH) return undefined;
      const row = await db.get<TokenRow>(sql`
        SELECT id, user_id, expires_at FROM tokens
        WHERE token_hash = ${hashToken(rawToken)} AND revoked_at IS NULL AND expires_at > ${now}
      `);
      return row ? { tokenId: row.id, userId: row.user_id, expiresAt: row.expires_at } : undefined;
    },

    /** Issues a new token for the user; the raw value is returned once and never stored. */
    async issue(userId: number, ttlMs: number, now: number): Promise<{ token: string; expiresAt: number }> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = now + ttlMs;
      await db.run(sql`
        INSERT INTO tokens (token_hash, user_id, created_at, expires_at)
        VALUES (${hashToken(token)}, ${userId}, ${now}, ${expiresAt})
      `);
      return { token, expiresAt };
    },

    async revoke(rawToken: string, now: number): Promise<boolean> {
      if (rawToken === '' || rawToken.length > MAX_TOKEN_LENGTH) return false;
      const changed = await db.run(
        sql`UPDATE tokens SET revoked_at = ${now} WHERE token_hash = ${hashToken(rawToken)} AND revoked_at IS NULL`,
      );
      return changed > 0;
    },

    /** Revokes every live token of the user (password reset); returns how many. */
    revokeAllForUser(userId: number, now: number): Promise<number> {
      return db.run(sql`UPDATE tokens SET revoked_at = ${now} WHERE user_id = ${userId} AND revoked_at IS NULL`);
    },
  };
}

export type TokensRepository = ReturnType<typeof createTokensRepository>;
