/**
 * /files: the demo event's images (from the seed) and uploaded files (from the data directory).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_PATHS } from '#contract/api';
import { dataPaths } from '../../lib/paths.ts';

/** The demo images live in <seedDir>/files/demo and are served at /files/demo/. */
export const DEMO_FILES_DIR = path.join('files', 'demo');
export const DEMO_FILES_PREFIX = `${API_PATHS.filesPrefix}demo/`;

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

export default async function filesRoutes(app: FastifyInstance) {
  const uploads = dataPaths(app.config.dataDir).uploads;
  mkdirSync(uploads, { recursive: true });

  const common = { decorateReply: false, index: false, list: false, dotfiles: 'ignore', cacheControl: false } as const;

  await app.register(fastifyStatic, {
    ...common,
    root: path.join(app.config.seedDir, DEMO_FILES_DIR),
    prefix: DEMO_FILES_PREFIX,
    suppressWarning: true,
    setHeaders: (reply) => safeFileHeaders(reply, 'public, max-age=2592000'),
  });

  await app.register(fastifyStatic, {
    ...common,
    root: uploads,
    prefix: API_PATHS.filesPrefix,
    setHeaders: (reply) => safeFileHeaders(reply, 'public, max-age=86400'),
  });
}
