/**
 * Uploads (spec §5, §7): the user-centre image upload and the two base uploads, all for a logged-in user
 * (a valid `token` header; otherwise 401 'Your login has expired, please log in again'). One file per
 * request (multipart field of any name), at most 10 MB; the extension must be on the list
 * (case-insensitive) and the first bytes must match it. Each user may upload at most UPLOAD_QUOTA (files
 * and bytes in any 24 hours; over it HTTP 429 with Retry-After), and every stored file is recorded with its
 * uploader (uploads table: user, stored and original name, size, SHA-256, IP, time). Files are stored in the
 * file store (lib/file-store.ts) under uploads/uploads/<random name> (in a folder store that is
 * <dataDir>/uploads/uploads/) and served at /files/uploads/<name> to their uploader only (routes/files). The answer's data.url
 * is relative to the file host (VITE_FILE_HOST, '/files/' for the bundled server): 'uploads/<name>';
 * data.path is the absolute path on this server.
 */
import { createHash, randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { MessageCode, MessageParams } from '#contract/messages';
import { PRIVATE_UPLOAD_DIR } from '#contract/upload-value';
import {
  checkUploadExtension,
  checkUploadSize,
  extensionOf,
  FILE_EXTENSIONS,
  IMAGE_EXTENSIONS,
  SIZE_UNITS,
  type SizeLimit,
} from '#contract/rules';
import type { UploadKind } from '../../db/uploads-repository.ts';
import { maskPersonalData } from '../../lib/accounts.ts';
import { uploadKey } from '../../lib/file-store.ts';
import { fail as envelopeFail, SUCCESS_MSG } from '../../lib/envelope.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';

export const UPLOAD_SIZE_LIMIT: SizeLimit = { size: 10, unit: 'MB' };
export const MAX_UPLOAD_BYTES = UPLOAD_SIZE_LIMIT.size * SIZE_UNITS[UPLOAD_SIZE_LIMIT.unit];
/** What one user may upload in any 24 hours. */
export const UPLOAD_QUOTA = { files: 50, bytes: 200 * 1024 * 1024, windowMs: 24 * 3_600_000 } as const;
/** The folder of runners' uploads, private (routes/files: served to their owner only). */
export const UPLOAD_SUBDIR = PRIVATE_UPLOAD_DIR;

const bytes = (...values: number[]) => Buffer.from(values);
const ascii = (text: string) => Buffer.from(text, 'latin1');
const ZIP = [bytes(0x50, 0x4b, 0x03, 0x04), bytes(0x50, 0x4b, 0x05, 0x06)];
const OLE = [bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)];

/** Signatures at offset 0 per extension (webp is checked separately: RIFF....WEBP). */
const MAGIC: Record<string, Buffer[]> = {
  jpg: [bytes(0xff, 0xd8, 0xff)],
  jpeg: [bytes(0xff, 0xd8, 0xff)],
  png: [bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)],
  gif: [ascii('GIF87a'), ascii('GIF89a')],
  bmp: [ascii('BM')],
  pdf: [ascii('%PDF-')],
  zip: ZIP,
  xlsx: ZIP,
  docx: ZIP,
  xls: OLE,
  doc: OLE,
};

export function magicMatches(ext: string, head: Buffer): boolean {
  if (ext === 'webp') {
    return head.subarray(0, 4).equals(ascii('RIFF')) && head.subarray(8, 12).equals(ascii('WEBP'));
  }
  return (MAGIC[ext] ?? []).some((sig) => head.length >= sig.length && head.subarray(0, sig.length).equals(sig));
}

/** Upload answers carry `success` (spec §3 "Uploaded file response"), failures included. */
const fail = (status: number, code: MessageCode, params?: MessageParams) => ({
  ...envelopeFail(status, code, params),
  success: false,
});

/** A refusal of a contract rule as the upload's answer. */
const refuse = (status: number, refusal: { code: MessageCode; params?: MessageParams }) =>
  fail(status, refusal.code, refusal.params);
/** The multipart limit cut the file: over the size limit. */
const tooBig = () => refuse(413, checkUploadSize(MAX_UPLOAD_BYTES + 1, UPLOAD_SIZE_LIMIT)!);

export default async function uploadRoutes(app: FastifyInstance) {
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
  });

  async function receive(request: FastifyRequest, reply: FastifyReply, kind: UploadKind) {
    reply.header('cache-control', 'no-store');
    const user = await app.userFromToken(request);
    if (!user) return fail(401, 'loginExpired');
    const allowed: readonly string[] = kind === 'image' ? IMAGE_EXTENSIONS : FILE_EXTENSIONS;
    if (!request.isMultipart()) return fail(400, 'uploadNotMultipart');
    let file;
    try {
      file = await request.file();
    } catch (error) {
      request.log.info({ err: error }, 'upload rejected');
      return fail(400, 'uploadNotMultipart');
    }
    if (!file) return fail(400, 'uploadNoFile');
    const ext = extensionOf(file.filename);
    const badType = checkUploadExtension(file.filename, allowed);
    if (badType) {
      file.file.resume();
      return refuse(400, badType);
    }
    let content: Buffer;
    try {
      content = await file.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return tooBig();
      throw error;
    }
    if (file.file.truncated) return tooBig();
    if (!magicMatches(ext, content.subarray(0, 16))) return fail(400, 'badFileType');
    const name = `${randomUUID()}.${ext}`;
    const refused = await app.repos.uploads.reserve(
      {
        userId: user.id,
        storedName: name,
        originalName: maskPersonalData(file.filename).slice(0, 255),
        kind,
        bytes: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        ip: request.ip,
        createdAt: app.config.now(),
      },
      UPLOAD_QUOTA,
    );
    if (refused) {
      void reply.code(429).header('retry-after', String(Math.max(1, Math.ceil(refused.retryAfterMs / 1000))));
      return fail(429, 'uploadQuota');
    }
    const key = uploadKey(`${UPLOAD_SUBDIR}/${name}`);
    try {
      await app.files.put(key, content);
    } catch (error) {
      await app.repos.uploads.release(name);
      await app.files.remove(key).catch(() => undefined);
      throw error;
    }
    request.log.info({ user: user.id, file: name, bytes: content.length }, 'file uploaded');
    return {
      code: 0,
      msg: SUCCESS_MSG,
      success: true,
      data: { url: `${UPLOAD_SUBDIR}/${name}`, path: `${API_PATHS.filesPrefix}${UPLOAD_SUBDIR}/${name}` },
    };
  }

  const limited = { onRequest: app.rateLimit(LIMITS.upload) };

  app.post(API_PATHS.uploadImageUserCentre, limited, async (request, reply) => receive(request, reply, 'image'));
  app.post(API_PATHS.uploadImage, limited, async (request, reply) => receive(request, reply, 'image'));
  app.post(API_PATHS.uploadFile, limited, async (request, reply) => receive(request, reply, 'file'));
}
