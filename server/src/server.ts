/**
 * Starts the reference API server. Environment:
 *   PORT (default 3000), HOST (default localhost: both 127.0.0.1 and ::1),
 *   DATA_DIR (default <repo>/data), SEED_DIR (default server/seed),
 *   STATIC_DIR (default <repo>/dist when it has been built; empty: API only),
 *   LOG_LEVEL (default warn).
 * Account features (lib/settings.ts): PASSWORD_KEY, RATE_LIMITS=off, DEV_OUTBOX=1|0, CAPTCHA_PROVIDER,
 *   SMTP_URL, SMTP_FROM. Race centre: CERT_SECRET (certificate signatures; default a random secret kept in
 *   DATA_DIR/cert-secret).
 */
import path from 'node:path';
import { buildApp, type BuildAppOptions } from './app.ts';
import { defaultStaticDir } from './lib/paths.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a port number, got "${process.env.PORT}"`);
const host = process.env.HOST || 'localhost';
const logLevel = (process.env.LOG_LEVEL || 'warn') as BuildAppOptions['logger'];
if (!LOG_LEVELS.includes(logLevel as (typeof LOG_LEVELS)[number])) {
  fail(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${process.env.LOG_LEVEL}"`);
}

const app = await buildApp({
  dataDir: process.env.DATA_DIR ? path.resolve(process.env.DATA_DIR) : undefined,
  seedDir: process.env.SEED_DIR ? path.resolve(process.env.SEED_DIR) : undefined,
  // STATIC_DIR unset: dist/ when built; set but empty: API only (the dev server serves the SPA).
  staticDir:
    process.env.STATIC_DIR === undefined
      ? defaultStaticDir()
      : process.env.STATIC_DIR === ''
        ? undefined
        : path.resolve(process.env.STATIC_DIR),
  logger: logLevel,
}).catch((error: unknown) =>
  fail(`race-site could not start: ${error instanceof Error ? error.message : String(error)}`),
);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}

try {
  await app.listen({ port, host });
} catch (error) {
  await app.close().catch(() => undefined);
  fail(`race-site could not start: ${error instanceof Error ? error.message : String(error)}`);
}

const address = app.server.address();
const actualPort = typeof address === 'object' && address !== null ? address.port : port;
const shownHost = ['localhost', '0.0.0.0', '::'].includes(host) ? 'localhost' : host;
console.log(`race-site is running at http://${shownHost}:${actualPort}`);
