/**
 * Builds the Fastify instance of the reference API server: plugins, then routes. Every answer is the
 * contract's envelope `{ code, msg, data }` except the static files and documents the contract names
 * (published site configs, the cloud config index, translation files, images, the SPA).
 */
import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyFormbody from '@fastify/formbody';
import proxyAddr from '@fastify/proxy-addr';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { isContention } from './db/engine.ts';
import { fail, HttpError } from './lib/envelope.ts';
import { maskPersonalData } from './lib/accounts.ts';
import { serverLoggerOptions } from './lib/log-redaction.ts';
import { DEFAULT_DATA_DIR, DEFAULT_SEED_DIR } from './lib/paths.ts';
import { HotPath, installHotPath } from './lib/hot-path.ts';
import {
  API_CSP,
  CONSOLE_DOCUMENT_CSP,
  apiSecurityHeaders,
  COMMON_SECURITY_HEADERS,
  DocumentPolicy,
  HSTS,
  isHttps,
} from './lib/security-headers.ts';
import { parseServerEnv, type Env } from './lib/env.ts';
import { readSettings } from './lib/settings.ts';
import { readSmsSettings } from './lib/sms/providers.ts';
import { pooledValidators } from './lib/validator-pool.ts';
import accountsPlugin from './plugins/accounts.ts';
import appConfigPlugin from './plugins/app-config.ts';
import captchaPlugin, { type CaptchaProvider } from './plugins/captcha.ts';
import dbPlugin from './plugins/db.ts';
import { openDatabase } from './db/database.ts';
import jobsPlugin from './plugins/jobs.ts';
import deliveryPlugin, { type EmailSender, type SmsSender } from './plugins/delivery.ts';
import rateLimitPlugin from './plugins/rate-limit.ts';
import spaPlugin, { isConsolePath, spaFallback } from './plugins/spa.ts';
import { firstScreenSource, homeFirstScreenSource, publishedSiteSource } from './lib/first-screen.ts';
import ballotRoutes from './routes/entry/ballot.ts';
import entryRoutes, { entryRunnerRoutes } from './routes/entry/index.ts';
import letterRoutes from './routes/after-entry/letter.ts';
import refundRoutes from './routes/after-entry/refund.ts';
import pickupRoutes, { pickupRunnerRoutes } from './routes/after-entry/pickup.ts';
import smsReceiptRoutes from './routes/sms/receipt.ts';
import basicCenterRoutes from './routes/basic-center/index.ts';
import configRoutes from './routes/config/index.ts';
import devRoutes from './routes/dev/index.ts';
import filesRoutes from './routes/files/index.ts';
import raceCenterRoutes from './routes/race-center/index.ts';
import paymentRoutes, { orderPayRoutes } from './routes/entry/payment.ts';
import type { PaymentProviderFactory } from './lib/payment/provider.ts';
import registrationRoutes, { registrationRunnerRoutes } from './routes/registration/index.ts';
import healthRoutes from './routes/health/index.ts';
import uploadRoutes from './routes/uploads/index.ts';
import userCenterRoutes, { userCenterRunnerRoutes } from './routes/user-center/index.ts';
import { runnerRoutes } from './plugins/sessions.ts';
import adminRoutes from './routes/admin/index.ts';
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
  /** Where the logs go (default stdout); tests read them. */
  logStream?: NodeJS.WritableStream;
  /** Injectable clock (epoch ms). */
  now?: () => number;
  /**
   * Environment of the account features (default process.env), parsed with the server's schema (lib/env.ts):
   * PASSWORD_KEY, RATE_LIMITS, DEV_OUTBOX, NODE_ENV, CAPTCHA_PROVIDER, SMTP_URL, SMTP_FROM, TRUST_PROXY
   * (lib/settings.ts); CERT_SECRET (lib/secrets.ts); SMS_PROVIDER and its keys (lib/sms/providers.ts). A bad value rejects with the variable's name.
   */
  env?: Env;
  /** Replaces the slider provider chosen by CAPTCHA_PROVIDER (an external human check). */
  captchaProvider?: CaptchaProvider;
  /** Carry codes beyond the outbox (a real SMS gateway, a mail transport). */
  smsSender?: SmsSender;
  /**
   * More payment providers by name (an organiser's own, or a test's fake), named in PAYMENT_PROVIDER like the
   * built-in ones (lib/payment/providers.ts); a name here replaces the built-in one of that name.
   */
  paymentProviders?: Record<string, PaymentProviderFactory>;
  emailSender?: EmailSender;
  /**
   * The console line of each delivered code (destination masked; the code only in development, see
   * plugins/delivery.ts); default console.log, silent in tests.
   */
  printOutbox?: (line: string) => void;
  /** Create the demo account on start when the seed asks for it (race.json "demoAccount"; default true). */
  seedDemoAccount?: boolean;
  /**
   * How often the cached public lookups are checked against the races' data versions, for writes made by
   * another instance or the CLI (default 5000 ms; a write through this instance drops them at once).
   */
  dataVersionPollMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Routes answered on the race-day hot path (lib/hot-path.ts). */
    hotPath: HotPath;
  }
}

const clip = (s: string, max = 200) => (s.length > max ? `${s.slice(0, max)}…` : s);

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const seedDir = path.resolve(options.seedDir ?? DEFAULT_SEED_DIR);
  const staticDir = options.staticDir === undefined ? undefined : path.resolve(options.staticDir);
  const now = options.now ?? Date.now;
  const settings = readSettings(options.env ?? process.env);
  // SMS_PROVIDER, its keys and SMS_TEMPLATES: a missing one stops the start, naming it (lib/sms/providers.ts).
  const smsSettings = readSmsSettings(options.env ?? process.env);

  // JSON lines without a whole phone, ID number, e-mail, password, code or token (lib/log-redaction.ts).
  const logger = serverLoggerOptions(options.logger, options.logStream);

  // Behind reverse proxies (TRUST_PROXY, checked by the env schema) the visitor is the address they forward:
  // for the rate limits, the logs and the hot path alike (the trust function Fastify's request.ip uses too).
  const trustProxy = settings.trustProxy === undefined ? undefined : proxyAddr.compile(settings.trustProxy);
  // Race-day lookups answered before Fastify's lifecycle (lib/hot-path.ts); off while requests are logged.
  const hotPath = new HotPath(
    trustProxy &&
      ((req) => {
        const chain = proxyAddr.all(req, trustProxy);
        return chain[chain.length - 1] ?? '';
      }),
    (req) => isHttps(req, trustProxy),
  );
  hotPath.enabled = !(logger && ['info', 'debug', 'trace'].includes(logger.level));
  const app = Fastify({
    logger,
    // Route validators compiled once per process, not once per app (lib/validator-pool.ts).
    schemaController: { compilersFactory: { buildValidator: pooledValidators } },
    ...(trustProxy ? { trustProxy } : {}),
    // Malformed URLs and over-long path parameters are answered in the envelope too.
    // (They skip the onSend hooks: the security headers are set here.)
    frameworkErrors(error, request, reply) {
      void (reply as FastifyReply)
        .code(400)
        .headers(apiSecurityHeaders(request.protocol === 'https'))
        .header('cache-control', 'no-store')
        .send(fail(400, 'invalidRequest', { detail: error.message }));
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
    void jsonParser(request, body as string, done);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    void reply.header('cache-control', 'no-store');
    if (status >= 500 && isContention(error)) {
      // Contention (a deadlock, a lock held too long) is no defect: the client is told to try again.
      request.log.warn({ code: error.code, method: request.method, url: maskPersonalData(request.url) }, 'busy');
      return reply.code(503).header('retry-after', '1').send(fail(503, 'databaseUnavailable'));
    }
    if (status >= 500) {
      request.log.error({ err: error, method: request.method, url: maskPersonalData(request.url) }, 'request failed');
      return reply.code(500).send(fail(500, 'internal'));
    }
    // No stack, and the message of schema errors only: a JSON syntax error quotes the body, which may hold
    // personal data or an encrypted password.
    const reason = error.validation ? maskPersonalData(error.message) : undefined;
    request.log.info({ code: error.code, status, reason }, 'request rejected');
    if (error instanceof HttpError) return reply.code(status).send(fail(status, error.msgCode, error.msgParams));
    return reply
      .code(status)
      .send(error.message ? fail(status, 'invalidRequest', { detail: error.message }) : fail(status, 'badRequest'));
  });

  const site = publishedSiteSource(app);
  const firstScreens = {
    mobile: firstScreenSource(app, site),
    home: staticDir === undefined ? undefined : homeFirstScreenSource(app, staticDir, site),
  };
  app.setNotFoundHandler(async (request, reply) => {
    if (staticDir !== undefined && (await spaFallback(staticDir, request, reply, firstScreens))) return reply;
    const pathname = request.url.split('?')[0] ?? '';
    return reply
      .code(404)
      .header('cache-control', 'no-store')
      .send(fail(404, 'routeNotFound', { method: request.method, path: clip(pathname) }));
  });

  app.decorate('hotPath', hotPath);
  installHotPath(app, hotPath);

  // Security headers of every answer (lib/security-headers.ts; the hot path sends the same): the page
  // policy for the SPA document, the API policy for everything else, unless a route set its own.
  const documentPolicy = new DocumentPolicy(staticDir);
  app.addHook('onSend', (request, reply, payload, done) => {
    for (const [name, value] of Object.entries(COMMON_SECURITY_HEADERS)) {
      if (!reply.hasHeader(name)) void reply.header(name, value);
    }
    // A 304 has no content type, and its headers replace the cached answer's: it keeps the cached policy.
    if (!reply.hasHeader('content-security-policy') && reply.statusCode !== 304) {
      const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
      const policy = !html ? API_CSP : isConsolePath(request.url) ? CONSOLE_DOCUMENT_CSP : documentPolicy.current();
      void reply.header('content-security-policy', policy);
    }
    if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });

  // Plugins
  await app.register(appConfigPlugin, {
    dataDir,
    seedDir,
    staticDir,
    now,
    dataVersionPollMs: options.dataVersionPollMs ?? 5000,
  });
  // The database is opened (migrated, and seeded on the first start) here, not inside a plugin: Fastify gives
  // each plugin 10 s, and seeding the demo into an empty PostgreSQL database may take longer (plugins/db.ts).
  const opened = await openDatabase({
    dataDir,
    seedDir,
    now: now(),
    env: options.env ?? process.env,
    warn: (line) => app.log.warn(line),
  });
  try {
    await app.register(dbPlugin, { opened, seedDir });
  } catch (error) {
    await opened.db.close();
    throw error;
  }
  await app.register(jobsPlugin, { env: options.env ?? process.env });
  await app.register(fastifyFormbody);
  await app.register(rateLimitPlugin, { enabled: settings.rateLimits, now });
  await app.register(accountsPlugin, { settings, seedDemo: options.seedDemoAccount ?? true });
  await app.register(captchaPlugin, { provider: options.captchaProvider, name: settings.captchaProvider });
  await app.register(deliveryPlugin, {
    smtpUrl: settings.smtpUrl,
    smtpFrom: settings.smtpFrom,
    sms: options.smsSender,
    email: options.emailSender,
    smsSettings,
    print: options.printOutbox,
    development: settings.devOutbox,
    messagesPerMinute: parseServerEnv(options.env ?? process.env, ['MESSAGES_PER_MINUTE']).MESSAGES_PER_MINUTE,
  });
  // Race-day traffic: compress JSON, documents and the SPA's assets (brotli at a fast quality, or gzip).
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });

  // Routes, one plugin per service prefix of the contract
  await app.register(healthRoutes);
  await app.register(websiteCentreRoutes);
  await app.register(basicCenterRoutes);
  await app.register(configRoutes);
  await app.register(userCenterRoutes);
  await app.register(uploadRoutes);
  await app.register(filesRoutes);
  await app.register(raceCenterRoutes);
  await app.register(registrationRoutes);
  await app.register(paymentRoutes, { env: options.env ?? process.env, providers: options.paymentProviders });
  await app.register(ballotRoutes);
  await app.register(entryRoutes);
  await app.register(pickupRoutes);
  await app.register(smsReceiptRoutes, { smsSettings });
  // A logged-in runner's calls, one scope per prefix, each behind the one session hook (plugins/sessions.ts):
  // `request.runner` is the caller, and without a valid token the answer is 401 loginExpired. (Uploads have
  // theirs in routes/uploads, answering with its `success` field.)
  await app.register(runnerRoutes(userCenterRunnerRoutes));
  await app.register(runnerRoutes(registrationRunnerRoutes));
  await app.register(runnerRoutes(entryRunnerRoutes, orderPayRoutes));
  await app.register(runnerRoutes(letterRoutes, refundRoutes, pickupRunnerRoutes));
  // The organiser console's calls: staff sessions of their own (routes/admin).
  await app.register(adminRoutes);
  if (settings.devOutbox) await app.register(devRoutes);
  if (staticDir !== undefined) await app.register(spaPlugin, { staticDir });

  return app;
}
