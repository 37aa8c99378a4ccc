/**
 * Runners' uploads (spec §5, §7; issue 27): each stored file is recorded with its uploader (uploads table:
 * user, stored and original name, size, SHA-256, IP, time) within a quota per user, and read back by its
 * uploader only. The routes: routes/uploads (receiving), routes/files (serving).
 */
import { createHash } from 'node:crypto';
import type { Repositories } from '../../db/repositories.ts';
import type { UploadKind } from '../../db/uploads-repository.ts';
import { uploadKey, type FileStore } from '../../lib/file-store.ts';
import { UPLOAD_SUBDIR } from '../../lib/upload-files.ts';

/** What one user may upload in any 24 hours. */
export const UPLOAD_QUOTA = { files: 50, bytes: 200 * 1024 * 1024, windowMs: 24 * 3_600_000 } as const;

/**
 * Records the upload within the user's quota and stores its bytes under `storedName` in the private uploads
 * folder: the milliseconds to wait when over the quota, otherwise null. A failed store releases the record.
 */
export async function storeRunnerUpload(
  deps: { repos: Repositories; files: FileStore },
  upload: { userId: number; storedName: string; originalName: string; kind: UploadKind; ip: string; now: number },
  content: Buffer,
): Promise<{ retryAfterMs: number } | null> {
  const refused = await deps.repos.uploads.reserve(
    {
      userId: upload.userId,
      storedName: upload.storedName,
      originalName: upload.originalName,
      kind: upload.kind,
      bytes: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      ip: upload.ip,
      createdAt: upload.now,
    },
    UPLOAD_QUOTA,
  );
  if (refused) return refused;
  const key = uploadKey(`${UPLOAD_SUBDIR}/${upload.storedName}`);
  try {
    await deps.files.put(key, content);
  } catch (error) {
    await deps.repos.uploads.release(upload.storedName);
    await deps.files.remove(key).catch(() => undefined);
    throw error;
  }
  return null;
}

/** Whether `storedName` is an upload of the user `userId`. */
export const isOwnUpload = async (repos: Repositories, userId: number, storedName: string): Promise<boolean> =>
  (await repos.uploads.findForUser(userId, storedName)) !== undefined;
