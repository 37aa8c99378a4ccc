import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from 'better-sqlite3';

export type CodePurpose = 'login' | 'register' | 'reset';
export type CodeChannel = 'sms' | 'email';

/** A code is stored as HMAC-SHA256 of `destination:code` under the server's code secret, never in clear. */
export function hashCode(key: string, destination: string, code: string): string {
  return createHmac('sha256', key).update(`${destination}:${code}`, 'utf8').digest('hex');
}

/** The verificationToken handed to the caller is stored as its SHA-256. */
export function hashRequestToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

interface CodeRow {
  id: number;
  request_hash: string;
  code_hash: string;
  ip: string;
  attempts: number;
  stranger_attempts: number;
  created_at: number;
  expires_at: number;
}

/** 'spent': the source has no tries left on the open code (it was not checked). */
export type CodeCheck = 'ok' | 'wrong' | 'none' | 'spent';

/**
 * Verification codes (login, register, reset) and the counts behind their send limits. `codeKey`: the secret
 * of the stored code hashes (lib/secrets.ts).
 */
export function createCodesRepository(db: Database, codeKey: string) {
  const insert = db.prepare<[string, CodePurpose, CodeChannel, string, string, string, number, number]>(`
    INSERT INTO verification_codes (request_hash, purpose, channel, destination, code_hash, ip, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
  `);
  const closeOpen = db.prepare<[number, CodePurpose, string]>(
    'UPDATE verification_codes SET closed_at = ? WHERE purpose = ? AND destination = ? AND closed_at IS NULL',
  );
  const latestFor = db.prepare<[CodePurpose, string], { created_at: number }>(`
    SELECT created_at FROM verification_codes WHERE purpose = ? AND destination = ?
    ORDER BY created_at DESC, id DESC LIMIT 1
  `);
  const countDestination = db.prepare<[string, number], { n: number; oldest: number | null }>(
    'SELECT count(*) AS n, min(created_at) AS oldest FROM verification_codes WHERE destination = ? AND created_at > ?',
  );
  const countIp = db.prepare<[string, number], { n: number; oldest: number | null }>(
    'SELECT count(*) AS n, min(created_at) AS oldest FROM verification_codes WHERE ip = ? AND created_at > ?',
  );
  const openFor = db.prepare<[CodePurpose, string, number], CodeRow>(`
    SELECT id, request_hash, code_hash, ip, attempts, stranger_attempts, created_at, expires_at FROM verification_codes
    WHERE purpose = ? AND destination = ? AND closed_at IS NULL AND expires_at > ?
    ORDER BY created_at DESC, id DESC LIMIT 1
  `);
  const close = db.prepare<[number, number]>('UPDATE verification_codes SET closed_at = ? WHERE id = ?');
  const wrongTry = db.prepare<[number, number, number]>(`
    UPDATE verification_codes SET attempts = attempts + 1,
      closed_at = CASE WHEN attempts + 1 >= ? THEN ? ELSE closed_at END
    WHERE id = ?
  `);
  const strangerTries = db.prepare<[number, string], { wrong: number }>(
    'SELECT wrong FROM code_guesses WHERE code_id = ? AND source = ?',
  );
  const strangerWrongTry = db.prepare<[number, string]>(`
    INSERT INTO code_guesses (code_id, source, wrong) VALUES (?, ?, 1)
    ON CONFLICT (code_id, source) DO UPDATE SET wrong = wrong + 1
  `);
  const countStrangerTry = db.prepare<[number]>(
    'UPDATE verification_codes SET stranger_attempts = stranger_attempts + 1 WHERE id = ?',
  );
  // code_guesses rows go with their code (ON DELETE CASCADE).
  const prune = db.prepare<[number]>('DELETE FROM verification_codes WHERE created_at < ?');

  return {
    /** Issues a code: earlier open codes of the same purpose and destination are closed (replaced). */
    issue(input: {
      requestToken: string;
      purpose: CodePurpose;
      channel: CodeChannel;
      destination: string;
      code: string;
      ip: string;
      now: number;
      ttlMs: number;
    }): void {
      db.transaction(() => {
        prune.run(input.now - 2 * 24 * 3_600_000);
        closeOpen.run(input.now, input.purpose, input.destination);
        insert.run(
          hashRequestToken(input.requestToken),
          input.purpose,
          input.channel,
          input.destination,
          hashCode(codeKey, input.destination, input.code),
          input.ip,
          input.now,
          input.now + input.ttlMs,
        );
      })();
    },

    /** When the last code of this purpose and destination was requested (any state). */
    lastRequestedAt(purpose: CodePurpose, destination: string): number | undefined {
      return latestFor.get(purpose, destination)?.created_at;
    },

    /** Codes requested for a destination / from an IP since `since`, and the oldest of them. */
    countForDestination(destination: string, since: number) {
      return countDestination.get(destination, since) ?? { n: 0, oldest: null };
    },
    countForIp(ip: string, since: number) {
      return countIp.get(ip, since) ?? { n: 0, oldest: null };
    },

    /**
     * Checks a code sent from `source` against the open code of the purpose and destination (and of the
     * request, when `requestToken` is given). Right: the code is closed (single use).
     *
     * Wrong tries are counted per source. From the source that requested the code (its `ip`): one more try
     * on the code, which is closed at `maxTries`. From any other source: one more try of that source on
     * that code and one more of all other sources together; a source with `maxTries` wrong tries, or any
     * other source once they have `maxStrangerTries` together, is refused unchecked ('spent') while the
     * code stays open for the source that requested it.
     */
    check(input: {
      purpose: CodePurpose;
      destination: string;
      code: string;
      requestToken?: string;
      source: string;
      now: number;
      maxTries: number;
      maxStrangerTries: number;
    }): CodeCheck {
      return db.transaction((): CodeCheck => {
        const row = openFor.get(input.purpose, input.destination, input.now);
        if (!row) return 'none';
        const stranger = row.ip !== input.source;
        if (stranger) {
          const tries = strangerTries.get(row.id, input.source)?.wrong ?? 0;
          if (tries >= input.maxTries || row.stranger_attempts >= input.maxStrangerTries) return 'spent';
        }
        const sameRequest =
          input.requestToken === undefined || safeEqualHex(row.request_hash, hashRequestToken(input.requestToken));
        const sameCode = safeEqualHex(row.code_hash, hashCode(codeKey, input.destination, input.code));
        if (sameRequest && sameCode) {
          close.run(input.now, row.id);
          return 'ok';
        }
        if (stranger) {
          strangerWrongTry.run(row.id, input.source);
          countStrangerTry.run(row.id);
        } else {
          wrongTry.run(input.maxTries, input.now, row.id);
        }
        return 'wrong';
      })();
    },
  };
}

function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export type CodesRepository = ReturnType<typeof createCodesRepository>;
