/**
 * Uploads (spec §5, §7): the user-centre image upload (token required) and the two base uploads. One file
 * per request (multipart field of any name), at most 10 MB; the extension must be on the list
 * (case-insensitive) and the first bytes must match it. Files are stored under <dataDir>/uploads/uploads/
 * with a random name and served at /files/uploads/<name>. The answer's data.url is relative to the file
 * host (VITE_FILE_HOST, '/files/' for the bundled server): 'uploads/<name>'; data.path is the absolute
 * path on this server.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PATHS } from '../../../../src/config/api-paths.ts';
import { dataPaths } from '../../lib/paths.ts';
import { fail as envelopeFail, MESSAGES, SUCCESS_MSG } from '../../lib/envelope.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const UPLOAD_SUBDIR = 'uploads';

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp'] as const;
export const FILE_EXTENSIONS = [...IMAGE_EXTENSIONS, 'xls', 'xlsx', 'doc', 'docx', 'zip', 'pdf'] as const;

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
const fail = (code: number, msg: string) => ({ ...envelopeFail(code, msg), success: false });

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
}

export default async function uploadRoutes(app: FastifyInstance) {
  const dir = path.join(dataPaths(app.config.dataDir).uploads, UPLOAD_SUBDIR);
  mkdirSync(dir, { recursive: true });

  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
  });

  async function receive(request: FastifyRequest, reply: FastifyReply, allowed: readonly string[]) {
    reply.header('cache-control', 'no-store');
    if (!request.isMultipart()) return fail(400, 'Upload a file as multipart/form-data');
    let file;
    try {
      file = await request.file();
    } catch (error) {
      request.log.info({ err: error }, 'upload rejected');
      return fail(400, 'Upload a file as multipart/form-data');
    }
    if (!file) return fail(400, 'No file in the upload');
    const ext = extensionOf(file.filename);
    if (!allowed.includes(ext)) {
      file.file.resume();
      return fail(400, MESSAGES.badFileType);
    }
    let content: Buffer;
    try {
      content = await file.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return fail(413, MESSAGES.fileTooBig);
      throw error;
    }
    if (file.file.truncated) return fail(413, MESSAGES.fileTooBig);
    if (!magicMatches(ext, content.subarray(0, 16))) return fail(400, MESSAGES.badFileType);
    const name = `${randomUUID()}.${ext}`;
    await writeFile(path.join(dir, name), content, { flag: 'wx' });
    return {
      code: 0,
      msg: SUCCESS_MSG,
      success: true,
      data: { url: `${UPLOAD_SUBDIR}/${name}`, path: `${API_PATHS.filesPrefix}${UPLOAD_SUBDIR}/${name}` },
    };
  }

  const limited = { onRequest: app.rateLimit(LIMITS.upload) };

  app.post(API_PATHS.uploadImageUserCentre, limited, async (request, reply) => {
    if (!app.userFromToken(request)) return fail(401, MESSAGES.loginExpired);
    return receive(request, reply, IMAGE_EXTENSIONS);
  });
  app.post(API_PATHS.uploadImage, limited, async (request, reply) => receive(request, reply, IMAGE_EXTENSIONS));
  app.post(API_PATHS.uploadFile, limited, async (request, reply) => receive(request, reply, FILE_EXTENSIONS));
}
