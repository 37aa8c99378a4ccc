/**
 * /files: the demo event's images (from the seed) and uploaded files (from the file store, lib/file-store.ts:
 * /files/<rest> is the key uploads/<rest>, in a folder store the file <dataDir>/uploads/<rest>). One route
 * for both kinds of store, so any instance on a shared database serves any upload. The site's own images are
 * public and cached; runners' uploads (/files/uploads/, ID photos and certificates) are private: served to
 * their readers (UPLOAD_READERS) with `Cache-Control: private, no-store`, and 404 to anyone else.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PATHS } from '#contract/api';
import { extensionOf } from '#contract/rules';
import { isFileKey, uploadKey } from '../../lib/file-store.ts';
import { storedNameOf } from '../../lib/upload-value.ts';
import { UPLOAD_SUBDIR } from '../../lib/upload-files.ts';
import { isOwnUpload } from '../../services/uploads/runner-uploads.ts';

/** The demo images live in <seedDir>/files/demo and are served at /files/demo/. */
export const DEMO_FILES_DIR = path.join('files', 'demo');
export const DEMO_FILES_PREFIX = `${API_PATHS.filesPrefix}demo/`;

/** The content types of stored files by extension; anything else is a download. */
const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/vnd.microsoft.icon',
  avif: 'image/avif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
};

export const contentTypeOf = (name: string) => CONTENT_TYPES[extensionOf(name)] ?? 'application/octet-stream';

/**
 * Files are shown as images or downloaded, never run: no MIME sniffing, and a sandboxing CSP in case an
 * uploaded SVG or HTML file is opened directly.
 */
function safeFileHeaders(reply: FastifyReply, cacheControl: string) {
  void reply.headers({
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
    'cache-control': cacheControl,
  });
}

/** The stored name after /files/: a file key's segments, none of them hidden (dot files are never served). */
const servable = (rest: string) => isFileKey(rest) && !rest.split('/').some((segment) => segment.startsWith('.'));

/** A runner's upload, when it may be read: by nobody but its readers, and kept by no cache. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';
/** An event's asset (/files/assets/<raceId>/<name>): public, revalidated on every load by its ETag. */
export const ASSET_CACHE_CONTROL = 'public, no-cache';

/**
 * Who may read a runner's upload (issue 27): its owner, by the `token` header of the account that uploaded it.
 * The organiser reads uploads with the CLI, straight from the file store, or in the console's direct-pass review,
 * through the console's own staff-only route (routes/admin/review.ts), never this public one. A reader is a check
 * of the request and the stored name, true when that reader may see it.
 */
export type UploadReader = (app: FastifyInstance, request: FastifyRequest, storedName: string) => Promise<boolean>;

const ownerReads: UploadReader = async (app, request, storedName) => {
  const user = await app.userFromToken(request);
  return user !== undefined && (await isOwnUpload(app.repos, user.id, storedName));
};

export const UPLOAD_READERS: readonly UploadReader[] = [ownerReads];

async function mayRead(app: FastifyInstance, request: FastifyRequest, storedName: string): Promise<boolean> {
  for (const reader of UPLOAD_READERS) if (await reader(app, request, storedName)) return true;
  return false;
}

export default async function filesRoutes(app: FastifyInstance) {
  await app.register(fastifyStatic, {
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'ignore',
    cacheControl: false,
    root: path.join(app.config.seedDir, DEMO_FILES_DIR),
    prefix: DEMO_FILES_PREFIX,
    setHeaders: (reply) => safeFileHeaders(reply, 'public, max-age=2592000'),
  });

  app.get<{ Params: { '*': string } }>(`${API_PATHS.filesPrefix}*`, async (request, reply) => {
    const rest = request.params['*'];
    if (!servable(rest)) return reply.callNotFound();
    // A runner's upload: to its readers only, never kept by any cache; to anyone else the 404 of a missing file.
    const storedName = storedNameOf(rest);
    if (storedName !== null || rest.startsWith(`${UPLOAD_SUBDIR}/`)) {
      void reply.header('vary', 'token');
      if (storedName === null || !(await mayRead(app, request, storedName))) return reply.callNotFound();
      const bytes = await app.files.get(uploadKey(rest));
      if (bytes === undefined) return reply.callNotFound();
      safeFileHeaders(reply, PRIVATE_CACHE_CONTROL);
      return reply.type(contentTypeOf(rest)).send(bytes);
    }
    const bytes = await app.files.get(uploadKey(rest));
    if (bytes === undefined) return reply.callNotFound();
    // An event's asset can be replaced under its name (services/organiser/event-assets.ts): every load asks
    // again (a 304 by its ETag while unchanged), so the new bytes show at once.
    safeFileHeaders(reply, rest.startsWith('assets/') ? ASSET_CACHE_CONTROL : 'public, max-age=86400');
    const etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
    void reply.header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(contentTypeOf(rest)).send(bytes);
  });
}
