import { sql, type Db } from './engine.ts';

export type UploadKind = 'image' | 'file';

export interface UploadRecord {
  userId: number;
  storedName: string;
  originalName: string;
  kind: UploadKind;
  bytes: number;
  sha256: string;
  ip: string;
  createdAt: number;
}

export interface UploadQuota {
  files: number;
  bytes: number;
  windowMs: number;
}

const recordOf = (row: Record<string, unknown>): UploadRecord => ({
  userId: Number(row.user_id),
  storedName: row.stored_name as string,
  originalName: row.original_name as string,
  kind: row.kind as UploadKind,
  bytes: Number(row.bytes),
  sha256: row.sha256 as string,
  ip: row.ip as string,
  createdAt: Number(row.created_at),
});

/**
 * Who uploaded what (uploads table): one row per stored file. `reserve` checks the user's quota and records
 * the upload in one transaction holding the user's lock, so parallel uploads of one user (on any process or
 * instance) cannot together go past it.
 */
export function createUploadsRepository(db: Db) {
  return {
    /** Records the upload when it fits the user's quota; otherwise how long until the oldest counted one leaves. */
    reserve(record: UploadRecord, quota: UploadQuota): Promise<{ retryAfterMs: number } | null> {
      return db.transaction(async (tx) => {
        await tx.lock(`uploads:${record.userId}`);
        const used = (await tx.get<{ n: number; bytes: number; oldest: number | null }>(sql`
          SELECT count(*) AS n, coalesce(sum(bytes), 0) AS bytes, min(created_at) AS oldest
          FROM uploads WHERE user_id = ${record.userId} AND created_at > ${record.createdAt - quota.windowMs}
        `)) ?? { n: 0, bytes: 0, oldest: null };
        if (used.n + 1 > quota.files || used.bytes + record.bytes > quota.bytes) {
          return { retryAfterMs: (used.oldest ?? record.createdAt) + quota.windowMs - record.createdAt };
        }
        await tx.run(sql`
          INSERT INTO uploads (user_id, stored_name, original_name, kind, bytes, sha256, ip, created_at)
          VALUES (${record.userId}, ${record.storedName}, ${record.originalName}, ${record.kind}, ${record.bytes},
            ${record.sha256}, ${record.ip}, ${record.createdAt})
        `);
        return null;
      });
    },
    /** Forgets an upload whose file could not be written. */
    async release(storedName: string): Promise<void> {
      await db.run(sql`DELETE FROM uploads WHERE stored_name = ${storedName}`);
    },
    /** The upload stored under `storedName`, if this user made it (another user's file is not theirs to use). */
    async findForUser(userId: number, storedName: string): Promise<UploadRecord | undefined> {
      const row = await db.get<Record<string, unknown>>(sql`
        SELECT user_id, stored_name, original_name, kind, bytes, sha256, ip, created_at
        FROM uploads WHERE user_id = ${userId} AND stored_name = ${storedName}
      `);
      return row ? recordOf(row) : undefined;
    },
    /** A user's uploads, oldest first. */
    async listForUser(userId: number): Promise<UploadRecord[]> {
      const rows = await db.all<Record<string, unknown>>(sql`
        SELECT user_id, stored_name, original_name, kind, bytes, sha256, ip, created_at
        FROM uploads WHERE user_id = ${userId} ORDER BY created_at, id
      `);
      return rows.map(recordOf);
    },
  };
}

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
