/**
 * Builds the Fastify instance of the reference API server: plugins, then routes. Every answer is the
 * contract's envelope `{ code, msg, data }` except the static files and documents the contract names
 * (published site configs, the cloud config index, translation files, images, the SPA).
 */
import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { fail, MESSAGES } from './lib/envelope.ts';
import { DEFAULT_DATA_DIR, DEFAULT_SEED_DIR } from './lib/paths.ts';
import appConfigPlugin from './plugins/app-config.ts';
import dbPlugin from './plugins/db.ts';
import spaPlugin, { spaFallback } from './plugins/spa.ts';
import basicCenterRoutes from './routes/basic-center/index.ts';
import configRoutes from './routes/config/index.ts';
import filesRoutes from './routes/files/index.ts';
import websiteCentreRoutes from './routes/website-centre/index.ts';

export interface BuildAppOptions {
  /** SQLite file `race-site.db`, published site configs and uploads. Default `<repo>/data`. */
  dataDir?: string;
  /** The demo event. Default `server/seed`. */
  seedDir?: string;
  /** The built SPA (`dist/`); when given it is served at `/` with an index.html fallback. */
  staticDir?: string;
  /** true for info logs, a level name for that level, false (default) for none. */
  logger?: boolean | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** Injectable clock (epoch ms). */
  now?: () => number;
}

const clip = (s: string, max = 200) => (s.length > max ? `${s.slice(0, max)}…` : s);

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const seedDir = path.resolve(options.seedDir ?? DEFAULT_SEED_DIR);
  const staticDir = options.staticDir === undefined ? undefined : path.resolve(options.staticDir);
  const now = options.now ?? Date.now;

  const logger =
    options.logger === undefined || options.logger === false
      ? false
      : options.logger === true
        ? true
        : { level: options.logger };

  const app = Fastify({
    logger,
    // Malformed URLs and over-long path parameters are answered in the envelope too.
    frameworkErrors(error, _request, reply) {
      void (reply as FastifyReply).code(400).header('cache-control', 'no-store').send(fail(400, error.message));
    },
  });

  // An empty JSON body is "no body" (the SPA may post without data); anything else must be valid JSON.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') {
      done(null, undefined);
      return;
    }
    jsonParser(request, body as string, done);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    void reply.header('cache-control', 'no-store');
    if (status >= 500) {
      request.log.error({ err: error, method: request.method, url: request.url }, 'request failed');
      return reply.code(500).send(fail(500, MESSAGES.internal));
    }
    request.log.info({ err: error, method: request.method, url: request.url }, 'request rejected');
    return reply.code(status).send(fail(status, error.message || 'Bad Request'));
  });

  app.setNotFoundHandler(async (request, reply) => {
    if (staticDir !== undefined && (await spaFallback(staticDir, request, reply))) return reply;
    const pathname = request.url.split('?')[0] ?? '';
    return reply
      .code(404)
      .header('cache-control', 'no-store')
      .send(fail(404, `${MESSAGES.notFound}: ${request.method} ${clip(pathname)}`));
  });

  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('x-content-type-options')) void reply.header('x-content-type-options', 'nosniff');
  });

  // Plugins
  await app.register(appConfigPlugin, { dataDir, seedDir, staticDir, now });
  await app.register(dbPlugin, { dataDir, seedDir, now });
  await app.register(fastifyFormbody);
  // Race-day traffic: compress JSON, documents and the SPA's assets (brotli at a fast quality, or gzip).
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });

  // Routes, one plugin per service prefix of the contract
  await app.register(websiteCentreRoutes);
  await app.register(basicCenterRoutes);
  await app.register(configRoutes);
  await app.register(filesRoutes);
  if (staticDir !== undefined) await app.register(spaPlugin, { staticDir });

  return app;
}
