/**
 * The server's check of an upload field's value when a form is submitted (issue #13 §3 "The server applies
 * the same limits"): the rules the SPA's upload field applies before uploading (components/form/upload-field.tsx),
 * in the same order and with the same messages, now on what was stored.
 *
 * The value is the comma-separated list of the URLs the upload calls answered (spec §3): 'uploads/<name>',
 * or the same file as '/files/uploads/<name>'. Each must be a file this user uploaded (the uploads table;
 * anyone else's file, a file from elsewhere or a made-up name is badUpload); then the count is at most
 * maxCount, each file's extension is on the kind's list, its stored size at most maxSize and, for an image
 * with imageSize, the stored image exactly that wide and high (read from its header, as the SPA reads it).
 * The upload calls themselves keep their own contract (any allowed type up to 10 MB): a form's limits are
 * checked here.
 */
import { API_PATHS } from '#contract/api';
import { imageDimensions } from '#contract/image-dimensions';
import type { MessageCode, Refusal } from '#contract/messages';
import {
  checkImageSize,
  checkUploadCount,
  checkUploadExtension,
  checkUploadSize,
  FILE_EXTENSIONS,
  IMAGE_EXTENSIONS,
  type ImageSize,
  type SizeLimit,
} from '#contract/rules';
import { splitUploadValue } from '#contract/upload-value';
import type { UploadsRepository } from '../db/uploads-repository.ts';
import { UPLOAD_SUBDIR } from './upload-files.ts';
import { uploadKey, type FileStore } from './file-store.ts';

export interface UploadLimits {
  kind: 'image' | 'file';
  /** Largest file; a size of 0 is no limit. */
  maxSize: SizeLimit;
  /** Most files; 0 is no limit. */
  maxCount: number;
  /** For images: the exact width and height in px. */
  imageSize?: ImageSize;
}

export interface UploadValueContext {
  /** The submitting user. */
  userId: number;
  uploads: Pick<UploadsRepository, 'findForUser'>;
  /** Where the uploads are kept: needed only to measure images (imageSize). */
  files?: Pick<FileStore, 'get'>;
}

const refuse = (code: MessageCode): Refusal => ({ code });

/** The stored name an upload URL of this server names ('uploads/<name>' or '/files/uploads/<name>'), or null. */
export function storedNameOf(url: string): string | null {
  const relative = url.startsWith(API_PATHS.filesPrefix) ? url.slice(API_PATHS.filesPrefix.length) : url;
  const match = new RegExp(`^${UPLOAD_SUBDIR}/([\\w.-]+)$`).exec(relative);
  return match && !match[1]!.startsWith('.') ? match[1]! : null;
}

/** The first refusal of an upload value against a field's limits, or null when it passes (an empty value too). */
export async function checkUploadValue(
  value: unknown,
  limits: UploadLimits,
  ctx: UploadValueContext,
): Promise<Refusal | null> {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return refuse('badUpload');
  const urls = splitUploadValue(value);
  const tooMany = checkUploadCount(urls.length, limits.maxCount);
  if (tooMany) return tooMany;
  const allowed: readonly string[] = limits.kind === 'image' ? IMAGE_EXTENSIONS : FILE_EXTENSIONS;
  for (const url of urls) {
    const name = storedNameOf(url);
    const upload = name === null ? undefined : await ctx.uploads.findForUser(ctx.userId, name);
    if (!upload) return refuse('badUpload');
    const wrongType = checkUploadExtension(upload.storedName, allowed);
    if (wrongType) return wrongType;
    const tooBig = checkUploadSize(upload.bytes, limits.maxSize);
    if (tooBig) return tooBig;
    if (limits.kind === 'image' && limits.imageSize) {
      if (!ctx.files) throw new Error('checkUploadValue: an image size needs the file store (ctx.files)');
      const bytes = await ctx.files.get(uploadKey(`${UPLOAD_SUBDIR}/${upload.storedName}`));
      if (!bytes) return refuse('badUpload');
      const actual = imageDimensions(bytes);
      if (!actual) return refuse('badFileType');
      const mismatch = checkImageSize(actual, limits.imageSize);
      if (mismatch) return mismatch;
    }
  }
  return null;
}
