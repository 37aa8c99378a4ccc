// A throwaway PostgreSQL server for tests and benches: initdb into a fresh temp folder, postgres on a unix
// socket only (no TCP port to collide on), gone again after stop() or when this process exits.
//   node --import tsx scripts/pg-cluster.ts start     prints the admin URL and runs until Ctrl-C
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { postgresBinDir } from './ensure-system.mjs';

export interface ThrowawayCluster {
  /** node-postgres URL of the `postgres` superuser's database, e.g. postgresql://postgres@/postgres?host=/tmp/… */
  adminUrl: string;
  socketDir: string;
  dataDir: string;
  /** Fast shutdown, then removes the folders. Safe to call twice. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Where the temp folder goes (default: the OS temp folder; /tmp when that path is too long for a socket). */
  parentDir?: string;
  /** How long to wait for the server to accept connections (default 30 s). */
  startTimeoutMs?: number;
  /** Extra `-c name=value` settings for postgres. */
  settings?: Record<string, string>;
}

/** The user the server runs as: PostgreSQL refuses root, so root hands it to `postgres` (Debian's) or `nobody`. */
function serverUser(): { name: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields) return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error('pg-cluster: running as root, and there is no postgres or nobody user to run PostgreSQL as');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function logTail(logFile: string): string {
  try {
    return readFileSync(logFile, 'utf8').trim().split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

/** Starts a fresh PostgreSQL server on a unix socket in a temp folder; see ThrowawayCluster. */
export async function startThrowawayCluster(options: ClusterOptions = {}): Promise<ThrowawayCluster> {
  const binDir = postgresBinDir();
  if (!binDir) {
    throw new Error(
      'pg-cluster: no PostgreSQL server programs (initdb, postgres) found; install them with: apt-get install postgresql',
    );
  }
  const user = serverUser();
  let parent = options.parentDir ?? tmpdir();
  // A unix socket path holds at most 107 bytes: <parent>/pg-cluster-XXXXXX/socket/.s.PGSQL.5432
  if (parent.length > 60) parent = '/tmp';
  const baseDir = mkdtempSync(path.join(parent, 'pg-cluster-'));
  const dataDir = path.join(baseDir, 'data');
  const socketDir = path.join(baseDir, 'socket');
  const logFile = path.join(baseDir, 'postgres.log');
  mkdirSync(socketDir, { mode: 0o700 });
  if (user) {
    chownSync(baseDir, user.uid, user.gid);
    chownSync(socketDir, user.uid, user.gid);
  }
  const remove = () => rmSync(baseDir, { recursive: true, force: true });
  // uid/gid: Node (libuv) switches user in the child and drops root's supplementary groups, so no su/runuser.
  const as = { cwd: baseDir, ...(user ? { uid: user.uid, gid: user.gid } : {}) };

  const initdb = spawnSync(
    path.join(binDir, 'initdb'),
    ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'],
    { ...as, encoding: 'utf8' },
  );
  if (initdb.error || initdb.status !== 0) {
    remove();
    const why = initdb.error?.message ?? initdb.stderr.trim().split('\n').slice(-5).join('\n');
    throw new Error(`pg-cluster: initdb failed${user ? ` (as ${user.name})` : ''}: ${why}`);
  }

  const settings: Record<string, string> = {
    listen_addresses: '',
    unix_socket_directories: socketDir,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '200',
    ...options.settings,
  };
  const logFd = openSync(logFile, 'a');
  if (user) chownSync(logFile, user.uid, user.gid);
  const server: ChildProcess = spawn(
    path.join(binDir, 'postgres'),
    ['-D', dataDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
    { ...as, stdio: ['ignore', logFd, logFd] },
  );
  closeSync(logFd);
  server.unref(); // the server alone does not keep this process alive; the exit hook below stops it
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => {
    server.once('exit', () => {
      exited = true;
      resolve();
    });
    server.once('error', () => {
      exited = true;
      resolve();
    });
  });

  const pidFile = path.join(dataDir, 'postmaster.pid');
  // Last resort when the process exits without stop(): fast shutdown, wait (synchronously) for postgres to
  // remove its pid file, then remove the folders. A SIGKILLed Node cannot do this; /tmp keeps the folder.
  const onExit = () => {
    if (!exited && server.pid) {
      try {
        process.kill(server.pid, 'SIGINT');
      } catch {
        /* already gone */
      }
      const until = Date.now() + 5_000;
      const tick = new Int32Array(new SharedArrayBuffer(4));
      while (existsSync(pidFile) && Date.now() < until) Atomics.wait(tick, 0, 0, 20);
    }
    remove();
  };
  process.once('exit', onExit);

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      process.removeListener('exit', onExit);
      if (!exited) {
        server.kill('SIGINT'); // fast shutdown: ends sessions, no waiting for clients
        const timer = setTimeout(() => server.kill('SIGQUIT'), 10_000);
        await exitedPromise;
        clearTimeout(timer);
      }
      remove();
    })());

  const adminUrl = `postgresql://postgres@/postgres?host=${encodeURIComponent(socketDir)}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (exited) {
      const tail = logTail(logFile);
      await stop();
      throw new Error(`pg-cluster: postgres exited while starting${user ? ` (as ${user.name})` : ''}:\n${tail}`);
    }
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) {
      const tail = logTail(logFile);
      await stop();
      throw new Error(`pg-cluster: postgres did not accept connections in time:\n${tail}`);
    }
    await sleep(25);
  }
  return { adminUrl, socketDir, dataDir, stop };
}

/** `url` with its database swapped; works for socket URLs with an empty host (postgresql://u@/db?host=/dir). */
function withDatabase(url: string, database: string): string {
  const DUMMY = 'pg-cluster-empty-host';
  const emptyHost = /^[a-z]+:\/\/[^/]*@\//i.test(url) || /^[a-z]+:\/\/\//i.test(url);
  const parsed = new URL(emptyHost ? url.replace(/^([a-z]+:\/\/[^/]*)\//i, `$1${DUMMY}/`) : url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return emptyHost ? parsed.toString().replace(DUMMY, '') : parsed.toString();
}

/** The database a URL names (the parser node-postgres itself uses). */
export function databaseOf(url: string): string {
  const database = new pg.Client({ connectionString: url }).database;
  if (!database) throw new Error('pg-cluster: the URL names no database');
  return database;
}

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

async function asAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * CREATE DATABASE (a random `test_…` name unless given one) on the admin URL's server; returns its URL. With
 * `template`, a copy of that database (which nobody may be connected to).
 */
export async function createDatabase(
  adminUrl: string,
  name = `test_${randomBytes(6).toString('hex')}`,
  template?: string,
) {
  for (const given of [name, template ?? name]) {
    if (!SAFE_NAME.test(given)) throw new Error(`pg-cluster: unsafe database name ${JSON.stringify(given)}`);
  }
  const copying = template === undefined ? '' : ` TEMPLATE "${template}"`;
  await asAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"${copying}`));
  return withDatabase(adminUrl, name);
}

/** DROP DATABASE … WITH (FORCE) (ends its open sessions); no error when it is already gone. */
export async function dropDatabase(adminUrl: string, url: string): Promise<void> {
  const name = databaseOf(url);
  if (!SAFE_NAME.test(name)) throw new Error(`pg-cluster: unsafe database name ${JSON.stringify(name)}`);
  await asAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== 'start') {
    console.error('usage: node --import tsx scripts/pg-cluster.ts start');
    process.exit(2);
  }
  const cluster = await startThrowawayCluster();
  console.log(cluster.adminUrl);
  console.error(`(data in ${cluster.dataDir}; Ctrl-C stops the server and removes it)`);
  const quit = () => void cluster.stop().then(() => process.exit(0));
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
  setInterval(() => {}, 1 << 30); // keep running until a signal
}
