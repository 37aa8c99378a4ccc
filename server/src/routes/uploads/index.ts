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
import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { MessageCode, MessageParams } from '#contract/messages';
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
import { fail as envelopeFail, SUCCESS_MSG } from '../../lib/envelope.ts';
import { magicMatches, UPLOAD_SUBDIR } from '../../lib/upload-files.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { requireRunner } from '../../plugins/sessions.ts';
import { storeRunnerUpload } from '../../services/uploads/runner-uploads.ts';

export const UPLOAD_SIZE_LIMIT: SizeLimit = { size: 10, unit: 'MB' };
export const MAX_UPLOAD_BYTES = UPLOAD_SIZE_LIMIT.size * SIZE_UNITS[UPLOAD_SIZE_LIMIT.unit];
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

  // The runner's session (plugins/sessions.ts), its refusal carrying `success` like every upload answer.
  requireRunner(app, () => fail(401, 'loginExpired'));

  async function receive(request: FastifyRequest, reply: FastifyReply, kind: UploadKind) {
    const user = request.runner;
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
    const refused = await storeRunnerUpload(
      { repos: app.repos, files: app.files },
      {
        userId: user.id,
        storedName: name,
        originalName: maskPersonalData(file.filename).slice(0, 255),
        kind,
        ip: request.ip,
        now: app.config.now(),
      },
      content,
    );
    if (refused) {
      void reply.code(429).header('retry-after', String(Math.max(1, Math.ceil(refused.retryAfterMs / 1000))));
      return fail(429, 'uploadQuota');
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
