import type { Database } from 'better-sqlite3';

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

/**
 * Who uploaded what (uploads table): one row per stored file. `reserve` checks the user's quota and records
 * the upload in one transaction, so parallel uploads of one user (or of several worker processes) cannot
 * together go past it.
 */
export function createUploadsRepository(db: Database) {
  const usage = db.prepare<[number, number], { n: number; bytes: number; oldest: number | null }>(`
    SELECT count(*) AS n, coalesce(sum(bytes), 0) AS bytes, min(created_at) AS oldest
    FROM uploads WHERE user_id = ? AND created_at > ?
  `);
  const insert = db.prepare<[number, string, string, UploadKind, number, string, string, number]>(`
    INSERT INTO uploads (user_id, stored_name, original_name, kind, bytes, sha256, ip, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
  `);
  const remove = db.prepare<[string]>('DELETE FROM uploads WHERE stored_name = ?');
  const byUser = db.prepare<[number], Record<string, unknown>>(`
    SELECT user_id, stored_name, original_name, kind, bytes, sha256, ip, created_at
    FROM uploads WHERE user_id = ? ORDER BY created_at, id
  `);

  const reserveTx = db.transaction((record: UploadRecord, quota: UploadQuota): { retryAfterMs: number } | null => {
    const used = usage.get(record.userId, record.createdAt - quota.windowMs) ?? { n: 0, bytes: 0, oldest: null };
    if (used.n + 1 > quota.files || used.bytes + record.bytes > quota.bytes) {
      return { retryAfterMs: (used.oldest ?? record.createdAt) + quota.windowMs - record.createdAt };
    }
    insert.run(
      record.userId,
      record.storedName,
      record.originalName,
      record.kind,
      record.bytes,
      record.sha256,
      record.ip,
      record.createdAt,
    );
    return null;
  });

  return {
    /** Records the upload when it fits the user's quota; otherwise how long until the oldest counted one leaves. */
    reserve(record: UploadRecord, quota: UploadQuota): { retryAfterMs: number } | null {
      return reserveTx.immediate(record, quota);
    },
    /** Forgets an upload whose file could not be written. */
    release(storedName: string): void {
      remove.run(storedName);
    },
    /** A user's uploads, oldest first. */
    listForUser(userId: number): UploadRecord[] {
      return byUser.all(userId).map((row) => ({
        userId: row.user_id as number,
        storedName: row.stored_name as string,
        originalName: row.original_name as string,
        kind: row.kind as UploadKind,
        bytes: row.bytes as number,
        sha256: row.sha256 as string,
        ip: row.ip as string,
        createdAt: row.created_at as number,
      }));
    },
  };
}

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
