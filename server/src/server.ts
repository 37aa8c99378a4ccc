/**
 * Starts the reference API server. Environment:
 *   PORT (default 3000), HOST (default localhost: both 127.0.0.1 and ::1),
 *   DATA_DIR (default <repo>/data), SEED_DIR (default server/seed),
 *   STATIC_DIR (default <repo>/dist when it has been built; empty: API only),
 *   LOG_LEVEL (default warn),
 *   WORKERS (default 1; a number, or 'auto' for one per CPU core): worker processes sharing the port and
 *   the database, for race-day load. The first process prepares the data folder (migrations, seed, secrets)
 *   once, then starts the workers and restarts any that dies.
 * Account features (lib/settings.ts): PASSWORD_KEY, RATE_LIMITS=off, DEV_OUTBOX=1|0, CAPTCHA_PROVIDER,
 *   SMTP_URL, SMTP_FROM, TRUST_PROXY (reverse proxies whose X-Forwarded-For names the visitor).
 * Race centre: CERT_SECRET (certificate signatures; default a random secret kept in DATA_DIR/cert-secret).
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
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

const workersSetting = (process.env.WORKERS || '1').trim().toLowerCase();
const workers = workersSetting === 'auto' ? availableParallelism() : Number(workersSetting);
if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
  fail(`WORKERS must be a number from 1 to 64 or 'auto', got "${process.env.WORKERS}"`);
}

const options: BuildAppOptions = {
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
};
const startFailed = (error: unknown) =>
  fail(`race-site could not start: ${error instanceof Error ? error.message : String(error)}`);

const shownUrl = (address: string | { port: number } | null) => {
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const shownHost = ['localhost', '0.0.0.0', '::'].includes(host) ? 'localhost' : host;
  return `http://${shownHost}:${actualPort}`;
};

if (workers > 1 && cluster.isPrimary) await runPrimary();
else await runServer(cluster.isWorker);

/** One server process: the whole app on the port (a worker shares the port through the primary). */
async function runServer(isWorker: boolean) {
  const app = await buildApp(options).catch(startFailed);

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
    startFailed(error);
  }
  if (isWorker) process.send?.({ listening: shownUrl(app.server.address()) });
  else console.log(`race-site is running at ${shownUrl(app.server.address())}`);
}

/**
 * The primary of a multi-worker server: prepares the data folder once (so workers never race to migrate or
 * seed), then keeps `workers` processes running until told to stop.
 */
async function runPrimary() {
  const setup = await buildApp({ ...options, staticDir: undefined }).catch(startFailed);
  await setup.close();

  let stopping = false;
  let announced = false;
  let restarts = 0;
  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (message: { listening?: string }) => {
      if (message.listening && !announced) {
        announced = true;
        console.log(`race-site is running at ${message.listening} (${workers} workers)`);
      }
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // A worker that dies before any worker listened is a start-up failure: stop rather than loop.
    if (!announced) fail(`race-site could not start: a worker exited with ${signal ?? `code ${code}`}`);
    if (++restarts > 100) fail('race-site stopped: workers keep dying');
    console.error(`race-site: worker ${worker.process.pid} exited with ${signal ?? `code ${code}`}; restarting it`);
    fork();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      const alive = Object.values(cluster.workers ?? {});
      if (alive.length === 0) process.exit(0);
      for (const worker of alive) worker?.process.kill('SIGTERM');
    });
  }
  for (let i = 0; i < workers; i++) fork();
}
