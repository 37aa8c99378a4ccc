/**
 * /files: the demo event's images (from the seed) and uploaded files (from the file store, lib/file-store.ts:
 * /files/<rest> is the key uploads/<rest>, in a folder store the file <dataDir>/uploads/<rest>). One route
 * for both kinds of store, so any instance on a shared database serves any upload.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_PATHS } from '#contract/api';
import { extensionOf } from '#contract/rules';
import { isFileKey, uploadKey } from '../../lib/file-store.ts';

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
    const bytes = servable(rest) ? await app.files.get(uploadKey(rest)) : undefined;
    if (bytes === undefined) return reply.callNotFound();
    safeFileHeaders(reply, 'public, max-age=86400');
    const etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
    void reply.header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(contentTypeOf(rest)).send(bytes);
  });
}
