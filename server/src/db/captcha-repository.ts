import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';

export const hashPass = (token: string, sig: string) =>
  createHash('sha256').update(`${token}.${sig}`, 'utf8').digest('hex');

interface ChallengeRow {
  session_id: string;
  target_x: number;
  created_at: number;
  attempted_at: number | null;
}

/** Slider challenges of the built-in provider: issued, attempted once, passed, redeemed once. */
export function createCaptchaRepository(db: Database) {
  const insert = db.prepare<[string, number, number]>(
    'INSERT INTO captcha_challenges (session_id, target_x, created_at) VALUES (?, ?, ?)',
  );
  const prune = db.prepare<[number]>('DELETE FROM captcha_challenges WHERE created_at < ?');
  const get = db.prepare<[string], ChallengeRow>(
    'SELECT session_id, target_x, created_at, attempted_at FROM captcha_challenges WHERE session_id = ?',
  );
  const attempt = db.prepare<[number, string]>(
    'UPDATE captcha_challenges SET attempted_at = ? WHERE session_id = ? AND attempted_at IS NULL',
  );
  const pass = db.prepare<[string, number, string]>(
    'UPDATE captcha_challenges SET pass_hash = ?, passed_at = ? WHERE session_id = ?',
  );
  const redeem = db.prepare<[number, string, string, number]>(`
    UPDATE captcha_challenges SET redeemed_at = ?
    WHERE session_id = ? AND pass_hash = ? AND redeemed_at IS NULL AND passed_at > ?
  `);

  return {
    create(sessionId: string, targetX: number, now: number, keepMs: number): void {
      prune.run(now - keepMs);
      insert.run(sessionId, targetX, now);
    },

    /** Marks the challenge attempted and returns it, or undefined when unknown or already attempted. */
    takeForAttempt(sessionId: string, now: number): { targetX: number; createdAt: number } | undefined {
      return db.transaction(() => {
        const row = get.get(sessionId);
        if (!row || row.attempted_at !== null) return undefined;
        attempt.run(now, sessionId);
        return { targetX: row.target_x, createdAt: row.created_at };
      })();
    },

    markPassed(sessionId: string, passHash: string, now: number): void {
      pass.run(passHash, now, sessionId);
    },

    /** Redeems a pass once, when it was issued after `passedAfter`. */
    redeem(sessionId: string, passHash: string, now: number, passedAfter: number): boolean {
      return redeem.run(now, sessionId, passHash, passedAfter).changes > 0;
    },
  };
}

export type CaptchaRepository = ReturnType<typeof createCaptchaRepository>;
