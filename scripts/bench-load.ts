/**
 * Load bench of the race-centre lookups (issue budget): score by bib ≥ 10,000 req/s with p99 ≤ 20 ms, score
 * by name + certificate number ≥ 5,000 req/s. Starts the real server (API only, RATE_LIMITS=off) on a fresh
 * data folder seeded with the ~30,000 demo runners, then runs autocannon for BENCH_LOAD_SECONDS (default 60)
 * per scenario after a BENCH_WARMUP_SECONDS warm-up (default 10, not counted), rotating through the seeded runners. The server runs as it would on race day: one worker
 * process per core (WORKERS=auto; BENCH_WORKERS overrides), sharing the cores with the load generator. Run alone: node --import tsx scripts/bench-load.ts
 * (exits 1 when a budget is missed), or call runLoadBench() from scripts/bench.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { API_PATHS } from '#contract/api';
import { generateRunners } from '../server/src/db/seed-runners';
import { freePort, repoRoot } from '../tests/e2e/server-process';

const PAST_RACE = 'qc-marathon-2026';
const POOL = 30_000;

export interface LoadResult {
  scenario: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  budget: { minRps: number; maxP99Ms?: number };
  ok: boolean;
}

/** Worker processes of the server under load: BENCH_WORKERS, default one per core (WORKERS=auto). */
export const benchWorkers = () => process.env.BENCH_WORKERS || 'auto';

async function startApiServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'race-site-load-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server/src/server.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: '',
      RATE_LIMITS: 'off',
      WORKERS: benchWorkers(),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early with code ${child.exitCode}`);
    if (Date.now() > until) throw new Error(`the server did not answer at ${url}`);
    try {
      const res = await fetch(`${url}${API_PATHS.searchPhotos}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ raceId: PAST_RACE, bib: 'A00001' }),
      });
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function bodies(kind: 'bib' | 'cert'): string[] {
  const out: string[] = [];
  const counters = new Map<string, number>();
  const prefix: Record<string, string> = { M: 'A', H: 'B', '10K': 'C' };
  for (const runner of generateRunners(POOL)) {
    if (kind === 'cert') {
      out.push(JSON.stringify({ raceId: PAST_RACE, name: runner.name, certificateNumber: runner.certNo }));
    } else {
      // Bibs are numbered per item in seed order; a few runners did not start, so some bibs near the top miss.
      const n = (counters.get(runner.pastItem) ?? 0) + 1;
      counters.set(runner.pastItem, n);
      if (n % 10 === 0) continue;
      out.push(JSON.stringify({ raceId: PAST_RACE, bib: `${prefix[runner.pastItem]}${String(n).padStart(5, '0')}` }));
    }
  }
  return out;
}

/**
 * The pool is dealt round-robin to the connections, each of which cycles through its own share. autocannon
 * builds a static request once (per connection), while a per-request `setupRequest` rebuilds it every time:
 * that rebuild cost the generator, which shares the cores with the server, 40% of its CPU per request.
 */
async function scenario(url: string, name: string, pool: string[], budget: LoadResult['budget'], seconds: number) {
  const connections = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 50);
  const request = (body: string) => ({
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
    body,
  });
  const run = (duration: number) => {
    let dealt = 0;
    return autocannon({
      url: `${url}${API_PATHS.searchScore}`,
      connections,
      pipelining: 1,
      duration,
      requests: [request(pool[0]!)],
      setupClient: (client) => {
        const share = dealt++ % connections;
        client.setRequests(pool.filter((_, i) => i % connections === share).map(request));
      },
    });
  };
  // Steady state, as on race day after the first minutes: a warm-up run (not counted) lets the JIT compile
  // the hot path and every worker see the runners once; then the measured run goes on through the pool.
  const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
  if (warmup > 0) await run(warmup);
  const result = await run(seconds);
  const requestsPerSecond = Math.round(result.requests.average);
  const p99Ms = result.latency.p99;
  const ok =
    requestsPerSecond >= budget.minRps &&
    (budget.maxP99Ms === undefined || p99Ms <= budget.maxP99Ms) &&
    result.errors === 0 &&
    result.non2xx === 0;
  return { scenario: name, requestsPerSecond, p99Ms, errors: result.errors, non2xx: result.non2xx, budget, ok };
}

export async function runLoadBench(seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60)): Promise<LoadResult[]> {
  const server = await startApiServer();
  try {
    const results: LoadResult[] = [];
    results.push(await scenario(server.url, 'score by bib', bodies('bib'), { minRps: 10_000, maxP99Ms: 20 }, seconds));
    results.push(await scenario(server.url, 'score by name + certificate', bodies('cert'), { minRps: 5_000 }, seconds));
    return results;
  } finally {
    await server.stop();
  }
}

export function printLoadResults(results: LoadResult[]): void {
  console.log(
    `load: server with WORKERS=${benchWorkers()}, autocannon on the same machine, rate limits off, ${process.env.BENCH_WARMUP_SECONDS ?? 10} s warm-up`,
  );
  for (const r of results) {
    const p99 = r.budget.maxP99Ms === undefined ? '' : ` (budget ≤ ${r.budget.maxP99Ms} ms)`;
    console.log(
      `${r.ok ? 'PASS' : 'FAIL'} ${r.scenario}: ${r.requestsPerSecond} req/s (budget ≥ ${r.budget.minRps}), p99 ${r.p99Ms} ms${p99}, errors ${r.errors}, non-2xx ${r.non2xx}`,
    );
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (invokedDirectly) {
  const results = await runLoadBench();
  printLoadResults(results);
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}
