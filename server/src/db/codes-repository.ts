import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { sql, type Db } from './engine.ts';

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
export function createCodesRepository(db: Db, codeKey: string) {
  const counts = (row: { n: number; oldest: number | null } | undefined) => row ?? { n: 0, oldest: null };

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
    }): Promise<void> {
      return db.transaction(async (tx) => {
        await tx.lock(`code:${input.purpose}:${input.destination}`);
        // code_guesses rows go with their code (ON DELETE CASCADE).
        await tx.run(sql`DELETE FROM verification_codes WHERE created_at < ${input.now - 2 * 24 * 3_600_000}`);
        await tx.run(sql`
          UPDATE verification_codes SET closed_at = ${input.now}
          WHERE purpose = ${input.purpose} AND destination = ${input.destination} AND closed_at IS NULL
        `);
        await tx.run(sql`
          INSERT INTO verification_codes (request_hash, purpose, channel, destination, code_hash, ip, created_at, expires_at)
          VALUES (${hashRequestToken(input.requestToken)}, ${input.purpose}, ${input.channel}, ${input.destination},
            ${hashCode(codeKey, input.destination, input.code)}, ${input.ip}, ${input.now}, ${input.now + input.ttlMs})
        `);
      });
    },

    /** When the last code of this purpose and destination was requested (any state). */
    async lastRequestedAt(purpose: CodePurpose, destination: string): Promise<number | undefined> {
      const row = await db.get<{ created_at: number }>(sql`
        SELECT created_at FROM verification_codes WHERE purpose = ${purpose} AND destination = ${destination}
        ORDER BY created_at DESC, id DESC LIMIT 1
      `);
      return row?.created_at;
    },

    /** Codes requested for a destination / from an IP since `since`, and the oldest of them. */
    async countForDestination(destination: string, since: number) {
      return counts(
        await db.get<{ n: number; oldest: number | null }>(sql`
          SELECT count(*) AS n, min(created_at) AS oldest FROM verification_codes
          WHERE destination = ${destination} AND created_at > ${since}
        `),
      );
    },
    async countForIp(ip: string, since: number) {
      return counts(
        await db.get<{ n: number; oldest: number | null }>(sql`
          SELECT count(*) AS n, min(created_at) AS oldest FROM verification_codes WHERE ip = ${ip} AND created_at > ${since}
        `),
      );
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
    }): Promise<CodeCheck> {
      return db.transaction(async (tx): Promise<CodeCheck> => {
        // Parallel checks of one destination's code take turns, so a right code is used once.
        await tx.lock(`code:${input.purpose}:${input.destination}`);
        const row = await tx.get<CodeRow>(sql`
          SELECT id, request_hash, code_hash, ip, attempts, stranger_attempts, created_at, expires_at
          FROM verification_codes
          WHERE purpose = ${input.purpose} AND destination = ${input.destination} AND closed_at IS NULL
            AND expires_at > ${input.now}
          ORDER BY created_at DESC, id DESC LIMIT 1
        `);
        if (!row) return 'none';
        const stranger = row.ip !== input.source;
        if (stranger) {
          const tries =
            (
              await tx.get<{ wrong: number }>(
                sql`SELECT wrong FROM code_guesses WHERE code_id = ${row.id} AND source = ${input.source}`,
              )
            )?.wrong ?? 0;
          if (tries >= input.maxTries || row.stranger_attempts >= input.maxStrangerTries) return 'spent';
        }
        const sameRequest =
          input.requestToken === undefined || safeEqualHex(row.request_hash, hashRequestToken(input.requestToken));
        const sameCode = safeEqualHex(row.code_hash, hashCode(codeKey, input.destination, input.code));
        if (sameRequest && sameCode) {
          await tx.run(sql`UPDATE verification_codes SET closed_at = ${input.now} WHERE id = ${row.id}`);
          return 'ok';
        }
        if (stranger) {
          await tx.run(sql`
            INSERT INTO code_guesses (code_id, source, wrong) VALUES (${row.id}, ${input.source}, 1)
            ON CONFLICT (code_id, source) DO UPDATE SET wrong = code_guesses.wrong + 1
          `);
          await tx.run(
            sql`UPDATE verification_codes SET stranger_attempts = stranger_attempts + 1 WHERE id = ${row.id}`,
          );
        } else {
          await tx.run(sql`
            UPDATE verification_codes SET attempts = attempts + 1,
              closed_at = CASE WHEN attempts + 1 >= ${input.maxTries} THEN ${input.now} ELSE closed_at END
            WHERE id = ${row.id}
          `);
        }
        return 'wrong';
      });
    },
  };
}

function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export type CodesRepository = ReturnType<typeof createCodesRepository>;
