/**
 * Starts the reference API server. Its environment variables (PORT, HOST, LOG_LEVEL, WORKERS, DATA_DIR,
 * SEED_DIR, STATIC_DIR, the account features' and the certificates') are all parsed here first, with the
 * server's one schema (lib/env.ts, defaults there and in docs/configuration.md): a bad value stops the start
 * with the variable's name and what it expected.
 * WORKERS > 1 runs worker processes sharing the port and the database, for race-day load: the first process
 * prepares the data folder (migrations, seed, secrets) once, then starts the workers and restarts any that
 * dies.
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { buildApp, type BuildAppOptions } from './app.ts';
import { isPostgresUrl, useWriteGate } from './db/engine.ts';
import { parseServerEnv, ServerEnvError, type ServerEnv } from './lib/env.ts';
import { defaultStaticDir } from './lib/paths.ts';
import { primaryWriteGate, workerWriteGate } from './lib/write-gate.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function readEnv(): ServerEnv {
  try {
    return parseServerEnv(process.env);
  } catch (error) {
    if (error instanceof ServerEnvError) fail(`race-site could not start:\n${error.message}`);
    throw error;
  }
}

const env = readEnv();
const { PORT: port, HOST: host, WORKERS: workers } = env;

const options: BuildAppOptions = {
  dataDir: env.DATA_DIR === undefined ? undefined : path.resolve(env.DATA_DIR),
  seedDir: env.SEED_DIR === undefined ? undefined : path.resolve(env.SEED_DIR),
  // STATIC_DIR unset: dist/ when built; set but empty: API only (the dev server serves the SPA).
  staticDir:
    env.STATIC_DIR === undefined
      ? defaultStaticDir()
      : env.STATIC_DIR === ''
        ? undefined
        : path.resolve(env.STATIC_DIR),
  logger: env.LOG_LEVEL,
};
const startFailed = (error: unknown) =>
  fail(`race-site could not start: ${error instanceof Error ? error.message : String(error)}`);

const shownUrl = (address: string | { port: number } | null) => {
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const shownHost = ['localhost', '0.0.0.0', '::'].includes(host) ? 'localhost' : host;
  return `http://${shownHost}:${actualPort}`;
};

/** The workers of one SQLite database take turns at writing (lib/write-gate.ts); PostgreSQL locks rows itself. */
const gated = workers > 1 && !isPostgresUrl(env.DATABASE_URL);

if (workers > 1 && cluster.isPrimary) await runPrimary();
else await runServer(cluster.isWorker);

/** One server process: the whole app on the port (a worker shares the port through the primary). */
async function runServer(isWorker: boolean) {
  if (isWorker && gated) useWriteGate(workerWriteGate(process as Parameters<typeof workerWriteGate>[0]));
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
  const gate = gated ? primaryWriteGate() : undefined;
  if (gate) cluster.on('message', (worker, message) => gate.message(worker, message));
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
    gate?.exit(worker);
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
