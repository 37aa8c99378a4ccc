/** Starts the real server (server/src/server.ts) as a child process; used by the browser tests and the bench. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The built SPA the server serves: dist/, or another build folder (E2E_STATIC_DIR). */
export const staticDir = process.env.E2E_STATIC_DIR ?? path.join(repoRoot, 'dist');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * How long a server may take to answer before it counts as hung. Starting one compiles the server's TypeScript
 * and seeds a data folder: a few seconds on a quiet machine, over a minute with two test runs on its two cores
 * (a 60 s limit failed a whole browser run so, and left the server running). Under the browser tests' hook
 * limit (240 s, vitest.e2e.config.ts), so that a file's beforeAll sees this error, and the server is stopped,
 * before the hook itself gives up.
 */
const START_LIMIT_MS = 200_000;

async function waitForServer(url: string, child: ChildProcess, ms = START_LIMIT_MS): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited early with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer at ${url}`);
}

export interface RunningServer {
  port: number;
  dataDir: string;
  stop: () => Promise<void>;
}

/** The built SPA (dist/) and the API on one free port, with a fresh data folder seeded on start. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(path.join(staticDir, 'index.html')) || !existsSync(path.join(staticDir, 'admin', 'index.html'))) {
    throw new Error(
      'dist/ or dist/admin/ is missing: run `npm run build` first (npm test builds both before the browser tests)',
    );
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'race-site-run-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/src/server.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: 'localhost',
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(`http://127.0.0.1:${port}/`, child);
  } catch (error) {
    // A server that never answered is not left running (it would hold the test run's output open).
    await stop();
    throw error;
  }
  return { port, dataDir, stop };
}
