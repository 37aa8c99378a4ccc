import { createHash } from 'node:crypto';
import { sql, type Db } from './engine.ts';

export const hashPass = (token: string, sig: string) =>
  createHash('sha256').update(`${token}.${sig}`, 'utf8').digest('hex');

interface ChallengeRow {
  session_id: string;
  target_x: number;
  created_at: number;
  attempted_at: number | null;
}

/** Slider challenges of the built-in provider: issued, attempted once, passed, redeemed once. */
export function createCaptchaRepository(db: Db) {
  return {
    async create(sessionId: string, targetX: number, now: number, keepMs: number): Promise<void> {
      await db.run(sql`DELETE FROM captcha_challenges WHERE created_at < ${now - keepMs}`);
      await db.run(
        sql`INSERT INTO captcha_challenges (session_id, target_x, created_at) VALUES (${sessionId}, ${targetX}, ${now})`,
      );
    },

    /** Marks the challenge attempted and returns it, or undefined when unknown or already attempted. */
    async takeForAttempt(sessionId: string, now: number): Promise<{ targetX: number; createdAt: number } | undefined> {
      // One statement: of parallel attempts only one finds attempted_at still empty.
      const row = await db.get<ChallengeRow>(sql`
        UPDATE captcha_challenges SET attempted_at = ${now}
        WHERE session_id = ${sessionId} AND attempted_at IS NULL
        RETURNING session_id, target_x, created_at, attempted_at
      `);
      return row ? { targetX: row.target_x, createdAt: row.created_at } : undefined;
    },

    async markPassed(sessionId: string, passHash: string, now: number): Promise<void> {
      await db.run(
        sql`UPDATE captcha_challenges SET pass_hash = ${passHash}, passed_at = ${now} WHERE session_id = ${sessionId}`,
      );
    },

    /** Redeems a pass once, when it was issued after `passedAfter`. */
    async redeem(sessionId: string, passHash: string, now: number, passedAfter: number): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE captcha_challenges SET redeemed_at = ${now}
        WHERE session_id = ${sessionId} AND pass_hash = ${passHash} AND redeemed_at IS NULL AND passed_at > ${passedAfter}
      `);
      return changed > 0;
    },
  };
}

export type CaptchaRepository = ReturnType<typeof createCaptchaRepository>;
