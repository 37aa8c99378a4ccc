/**
 * Load bench of the race-centre lookups. Budgets: score by bib ≥ 10,000 req/s with p99 ≤ 20 ms on SQLite, and
 * ≥ 0.95 of the floor on SQLite and on PostgreSQL (issue #29 §5); score by name + certificate number ≥ 5,000
 * req/s.
 *
 * The floor is a bare Node http server (scripts/bench-floor-server.mjs, no framework) holding the same answers
 * as the server: before each scenario the bench asks the server once for every body of the scenario's pool
 * and hands the answers (bodies and header lines) to a floor started for that scenario, in the same shape as
 * the server under test (as many processes, each with as many node:cluster workers), so both hold the same
 * working set on the same worker model and the ratio measures our code, not the memory of 27,000 answers
 * against one hot buffer (issue #12's note). Every scenario is measured against it in turns: slices of
 * BENCH_SLICE_SECONDS (default 5) go to the floor and to the server alternately (floor–server, then
 * server–floor), each driven the same way (the same requests, connections and load-generator instances),
 * so that both get the same share of whatever else this machine is doing meanwhile. Measured one after the
 * other, the floor alone swung between 31,000 and 45,000 req/s from run to run on a quiet 2-core machine
 * while the server's figure stayed put; a ratio taken across minutes measured that swing, not the server.
 * Every run is printed as req/s, p99, the floor's req/s in the same minute and the ratio of the two, in one
 * table.
 *
 * The real server (API only, RATE_LIMITS=off) runs on a fresh data folder seeded with the ~30,000 demo
 * runners; autocannon runs BENCH_LOAD_SECONDS (default 60) per scenario after a BENCH_WARMUP_SECONDS warm-up
 * (default 10, not counted), rotating through the seeded runners. The server runs as it would on race day:
 * one worker process per core (WORKERS=auto; BENCH_WORKERS overrides), sharing the cores with the load
 * generator. A setup of several server processes (startServers(n, env), e.g. two on one PostgreSQL with
 * DATABASE_URL) is one more entry of `setups()`: the load generator spreads the connections over their ports.
 * Run alone: node --import tsx scripts/bench-load.ts (exits 1 when a budget is missed), or call
 * runLoadBench() from scripts/bench.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { API_PATHS } from '#contract/api';
import { generateRunners } from '../server/src/db/seed-runners';
import { createDatabase, startThrowawayCluster } from './pg-cluster';
import { freePort, repoRoot } from '../tests/e2e/server-process';
import { prepareSignup, runSignup, signupBenchOptions, signupDataDir } from './bench-signup';

const PAST_RACE = 'qc-marathon-2026';
const POOL = 30_000;
/** PostgreSQL takes the ID-number secret from the environment only (server/src/lib/secrets.ts). */
const BENCH_ID_NUMBER_SECRET = 'bench-id-number-secret-0123456789';

export interface LoadBudget {
  minRps?: number;
  maxP99Ms?: number;
  /** Least ratio of this run's req/s to the floor's. */
  minFloorRatio?: number;
}

export interface LoadResult {
  scenario: string;
  requestsPerSecond: number;
  p99Ms: number;
  /** The floor's req/s, measured in turns with this run (undefined when not measured so). */
  floorRequestsPerSecond: number | undefined;
  /**
   * req/s over the floor's req/s (undefined without a floor): the median of the ratios of each pair of turns
   * (a floor turn and the server turn beside it), so that a burst of other work on the machine during one
   * pair does not decide it.
   */
  floorRatio: number | undefined;
  /** Each pair of turns' req/s, floor then server (the raw figures behind floorRatio). */
  turns: { floor: number; server: number }[];
  /** Average bytes per answer on the wire, headers included. */
  bytesPerAnswer: number;
  /** The floor's average bytes per answer on the wire (undefined without a floor): the same as the server's. */
  floorBytesPerAnswer: number | undefined;
  errors: number;
  non2xx: number;
  budget: LoadBudget;
  /** Measured seconds (after the warm-up). */
  seconds: number;
  /** The budgets missed (and errors or non-2xx answers), in words; empty when ok. */
  misses: string[];
  ok: boolean;
}

/** Worker processes of the server under load: BENCH_WORKERS, default one per core (WORKERS=auto). */
export const benchWorkers = () => process.env.BENCH_WORKERS || 'auto';

/** Processes answering on their ports (one URL each), stopped together. */
export interface Processes {
  ports: number[];
  urls: string[];
  /** WORKERS of each process (node:cluster workers sharing its port). */
  workers: string;
  stop: () => Promise<void>;
}

/**
 * Starts `n` copies of a Node script, one after the other (each answers `ready` before the next starts, so
 * they never race to migrate or seed), each on its own free port, with `env` on top of this process's.
 */
async function startProcesses(
  n: number,
  script: string,
  env: NodeJS.ProcessEnv,
  ready: (url: string) => Promise<boolean>,
  onStop: () => void = () => undefined,
): Promise<Processes> {
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }),
    );
    onStop();
  };
  try {
    for (let i = 0; i < n; i++) {
      const port = await freePort();
      // BENCH_CPU_PROF=<folder>: each process writes a V8 CPU profile there when it stops.
      const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
      const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
        cwd: repoRoot,
        env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      children.push(child);
      ports.push(port);
      const url = `http://127.0.0.1:${port}`;
      const until = Date.now() + 120_000;
      for (;;) {
        if (child.exitCode !== null)
          throw new Error(`${path.basename(script)} exited early with code ${child.exitCode}`);
        if (Date.now() > until) throw new Error(`${path.basename(script)} did not answer at ${url}`);
        if (await ready(url).catch(() => false)) break;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const workers = env.WORKERS ?? '1';
  return { ports, urls: ports.map((port) => `http://127.0.0.1:${port}`), workers, stop };
}

/**
 * `n` race-site server processes (server/src/server.ts, API only, rate limits off, WORKERS=benchWorkers())
 * with `env` on top, e.g. `{ DATABASE_URL }` for a scale-out on one PostgreSQL. They share one fresh data
 * folder (removed on stop) unless `env` names a DATA_DIR. Resolves once each answers a lookup.
 */
export async function startServers(n: number, env: NodeJS.ProcessEnv = {}): Promise<Processes> {
  const ownDataDir = env.DATA_DIR === undefined ? mkdtempSync(path.join(tmpdir(), 'race-site-load-')) : undefined;
  const ready = async (url: string) =>
    (
      await fetch(`${url}${API_PATHS.searchPhotos}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ raceId: PAST_RACE, bib: 'A00001' }),
      })
    ).ok;
  return startProcesses(
    n,
    path.join(repoRoot, 'server/src/server.ts'),
    { DATA_DIR: ownDataDir, STATIC_DIR: '', RATE_LIMITS: 'off', WORKERS: benchWorkers(), ...env },
    ready,
    () => {
      if (ownDataDir !== undefined) rmSync(ownDataDir, { recursive: true, force: true });
    },
  );
}

/**
 * The scale-out (issue #12 §4): a throwaway PostgreSQL (scripts/pg-cluster.ts) and two separate server
 * processes on its one database (DATABASE_URL), each WORKERS=1 (two processes, not a node:cluster), started
 * one after the other since the first seeds the demo runners. Stopping ends the servers, then PostgreSQL;
 * nothing is left running when a start fails either.
 */
async function startPostgresScaleOut(): Promise<Processes> {
  const cluster = await startThrowawayCluster();
  try {
    const databaseUrl = await createDatabase(cluster.adminUrl, 'bench_load');
    const env = { DATABASE_URL: databaseUrl, ID_NUMBER_SECRET: BENCH_ID_NUMBER_SECRET, WORKERS: '1' };
    // The database is prepared (migrated, the demo runners seeded) by a process of its own first, as an
    // organiser's deploy step would, so the instances measured start on a ready database like any other.
    await (await startServers(1, env)).stop();
    const servers = await startServers(2, env);
    return {
      ...servers,
      stop: async () => {
        try {
          await servers.stop();
        } finally {
          await cluster.stop();
        }
      },
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/**
 * The floor (scripts/bench-floor-server.mjs) in the shape of `servers` (as many processes, each with as many
 * workers), holding the answers of `answersFile` (collectAnswers).
 */
export function startFloor(servers: Processes, answersFile: string): Promise<Processes> {
  return startProcesses(
    servers.urls.length,
    path.join(repoRoot, 'scripts/bench-floor-server.mjs'),
    { WORKERS: servers.workers, FLOOR_ANSWERS: answersFile },
    async (url) => (await fetch(url)).ok,
  );
}

/** Headers that belong to one answer's connection and moment, not to the answer (node:http adds its own). */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * The server's answer to every body of `pool` (asked once each, a few at a time, spread over its URLs as the
 * load is), written for the floor as JSON lines `[request body, headers, answer body]` into a file of a fresh
 * folder; `remove` deletes it. Also warms the server's answer caches with every answer of the pool.
 */
export async function collectAnswers(
  urls: string[],
  apiPath: string,
  pool: string[],
): Promise<{ file: string; remove: () => void }> {
  const lines: string[] = new Array<string>(pool.length);
  let next = 0;
  const worker = async (url: string) => {
    while (next < pool.length) {
      const i = next++;
      const response = await fetch(`${url}${apiPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
        body: pool[i],
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`collecting the floor's answers: ${apiPath} answered ${response.status}`);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (!CONNECTION_HEADERS.has(name)) headers[name] = value;
      });
      lines[i] = JSON.stringify([pool[i], headers, text]);
    }
  };
  await Promise.all(Array.from({ length: 16 }, (_, i) => worker(urls[i % urls.length]!)));
  const dir = mkdtempSync(path.join(tmpdir(), 'race-site-floor-'));
  const file = path.join(dir, 'answers.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
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

interface Measured {
  requestsPerSecond: number;
  p99Ms: number;
  bytesPerAnswer: number;
  errors: number;
  non2xx: number;
}

/**
 * Load on one or more ports: BENCH_LOAD_CONNECTIONS (default 50) connections in all, spread evenly over the
 * URLs (one autocannon instance per URL, run together), for `seconds`. req/s, errors and bytes add up; the
 * p99 is the highest of the instances' (autocannon reports percentiles, not histograms to merge).
 *
 * The pool is dealt round-robin to each instance's connections, each of which cycles through its own share
 * (`deal` turns which connection gets which share; `onePass`: each connection asks for its share once, then
 * the run ends, `seconds` at the latest).
 * autocannon builds a static request once (per connection), while a per-request `setupRequest` rebuilds it
 * every time: that rebuild cost the generator, which shares the cores with the server, 40% of its CPU per
 * request.
 */
async function load(
  urls: string[],
  apiPath: string,
  pool: string[],
  seconds: number,
  { deal = 0, onePass = false }: { deal?: number; onePass?: boolean } = {},
): Promise<Measured> {
  const total = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 50);
  const request = (body: string) => ({
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
    body,
  });
  const runOne = (url: string, connections: number) => {
    let dealt = 0;
    return autocannon({
      url: `${url}${apiPath}`,
      connections,
      pipelining: 1,
      duration: seconds,
      ...(onePass ? { maxConnectionRequests: Math.ceil(pool.length / connections) } : {}),
      requests: [request(pool[0]!)],
      setupClient: (client) => {
        const share = (dealt++ + deal) % connections;
        client.setRequests(pool.filter((_, i) => i % connections === share).map(request));
      },
    });
  };
  const results = await Promise.all(
    urls.map((url, i) => runOne(url, Math.floor(total / urls.length) + (i < total % urls.length ? 1 : 0))),
  );
  const sum = (pick: (r: autocannon.Result) => number) => results.reduce((acc, r) => acc + pick(r), 0);
  const answers = sum((r) => r.requests.total);
  return {
    requestsPerSecond: answers / Math.max(...results.map((r) => r.duration)),
    p99Ms: Math.max(...results.map((r) => r.latency.p99)),
    bytesPerAnswer: answers === 0 ? 0 : sum((r) => r.throughput.total) / answers,
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
  };
}

const warmupSeconds = () => Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
/** The least number of whole passes over the pool the warm-up makes (measureInTurns). */
const WARMUP_PASSES = 6;

/** Runs measured in slices, added up: answers over seconds, the highest p99. */
function addSlices(slices: { m: Measured; seconds: number }[]): Measured {
  const seconds = slices.reduce((acc, s) => acc + s.seconds, 0);
  const answers = slices.reduce((acc, s) => acc + s.m.requestsPerSecond * s.seconds, 0);
  return {
    requestsPerSecond: Math.round(answers / seconds),
    p99Ms: Math.max(...slices.map((s) => s.m.p99Ms)),
    bytesPerAnswer: Math.round(
      slices.reduce((acc, s) => acc + s.m.bytesPerAnswer * s.m.requestsPerSecond * s.seconds, 0) / answers,
    ),
    errors: slices.reduce((acc, s) => acc + s.m.errors, 0),
    non2xx: slices.reduce((acc, s) => acc + s.m.non2xx, 0),
  };
}

/**
 * The server and the floor measured in turns (see the header): after a warm-up of each, `seconds` each, in
 * slices of BENCH_SLICE_SECONDS, floor first in odd pairs and server first in even ones. The floor has as
 * many URLs (processes) as the server, so the load-generator instances and the connections per process are
 * the same on both sides.
 */
async function measureInTurns(
  urls: string[],
  floorUrls: string[],
  apiPath: string,
  pool: string[],
  seconds: number,
): Promise<{ server: Measured; floor: Measured; turns: { floor: number; server: number }[] }> {
  // Steady state, as on race day after the first minutes: a warm-up (not counted) lets the JIT compile the
  // hot path and every worker see every runner; then the measured runs go on through the pool. The warm-up
  // is whole passes over the pool, each on fresh connections dealt other shares of it, at least
  // WARMUP_PASSES and at least BENCH_WARMUP_SECONDS: node:cluster gives each connection to one worker (much
  // the same ones each run) and a connection asks for its own share only, so a warm-up of one run leaves
  // each worker with the shares of its own connections, and the measured runs find the rest missing from its
  // answer cache (a third of one worker's time went to those misses, profiled with BENCH_CPU_PROF).
  const started = Date.now();
  for (let pass = 0; pass < WARMUP_PASSES || Date.now() - started < warmupSeconds() * 1000; pass++) {
    const deal = { deal: pass * 17, onePass: true };
    await load(floorUrls, apiPath, pool, 120, deal);
    await load(urls, apiPath, pool, 120, deal);
  }
  const slice = Math.max(1, Number(process.env.BENCH_SLICE_SECONDS ?? 5));
  const pairs = Math.max(1, Math.round(seconds / slice));
  const server: { m: Measured; seconds: number }[] = [];
  const floor: { m: Measured; seconds: number }[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    const length = pair < pairs - 1 ? slice : seconds - slice * (pairs - 1);
    const turns = pair % 2 === 0 ? ([floor, server] as const) : ([server, floor] as const);
    for (const side of turns) {
      side.push({ m: await load(side === floor ? floorUrls : urls, apiPath, pool, length), seconds: length });
    }
  }
  const turns = server.map((s, i) => ({
    floor: Math.round(floor[i]!.m.requestsPerSecond),
    server: Math.round(s.m.requestsPerSecond),
  }));
  return { server: addSlices(server), floor: addSlices(floor), turns };
}

/** One kind of request and its budget. */
export interface LoadScenario {
  name: string;
  apiPath: string;
  pool: string[];
  budget: LoadBudget;
}

/** Processes to start, and the scenarios measured against them while they run. */
export interface LoadSetup {
  name: string;
  start: () => Promise<Processes>;
  scenarios: LoadScenario[];
}

/** The server runs of the bench, in order, each measured in turns with the floor. */
export function setups(): LoadSetup[] {
  const bib = bodies('bib');
  const cert = bodies('cert');
  return [
    {
      name: 'SQLite, 1 process',
      start: () => startServers(1),
      scenarios: [
        {
          name: 'score by bib',
          apiPath: API_PATHS.searchScore,
          pool: bib,
          budget: { minRps: 10_000, maxP99Ms: 20, minFloorRatio: 0.95 },
        },
        { name: 'score by name + certificate', apiPath: API_PATHS.searchScore, pool: cert, budget: { minRps: 5_000 } },
      ],
    },
    {
      name: 'PostgreSQL, 2 processes × WORKERS=1',
      start: startPostgresScaleOut,
      scenarios: [
        { name: 'score by bib', apiPath: API_PATHS.searchScore, pool: bib, budget: { minFloorRatio: 0.95 } },
        { name: 'score by name + certificate', apiPath: API_PATHS.searchScore, pool: cert, budget: {} },
      ],
    },
  ];
}

function judge(
  scenario: string,
  m: Measured,
  seconds: number,
  floor: Measured | undefined,
  budget: LoadBudget,
  turns: { floor: number; server: number }[] = [],
): LoadResult {
  const ratios = turns.map((t) => t.server / t.floor).sort((a, b) => a - b);
  const median =
    ratios.length % 2 === 1
      ? ratios[(ratios.length - 1) / 2]!
      : (ratios[ratios.length / 2 - 1]! + ratios[ratios.length / 2]!) / 2;
  const floorRatio =
    floor === undefined ? undefined : ratios.length > 0 ? median : m.requestsPerSecond / floor.requestsPerSecond;
  const misses: string[] = [];
  if (budget.minRps !== undefined && m.requestsPerSecond < budget.minRps) misses.push(`req/s < ${budget.minRps}`);
  if (budget.maxP99Ms !== undefined && m.p99Ms > budget.maxP99Ms) misses.push(`p99 > ${budget.maxP99Ms} ms`);
  if (budget.minFloorRatio !== undefined && (floorRatio ?? 0) < budget.minFloorRatio) {
    misses.push(`< ${budget.minFloorRatio} × floor`);
  }
  if (m.errors > 0) misses.push(`${m.errors} errors`);
  if (m.non2xx > 0) misses.push(`${m.non2xx} non-2xx`);
  if (floor !== undefined && floor.errors + floor.non2xx > 0) misses.push('the floor failed requests');
  return {
    scenario,
    ...m,
    floorBytesPerAnswer: floor?.bytesPerAnswer,
    floorRequestsPerSecond: floor?.requestsPerSecond,
    floorRatio,
    turns,
    budget,
    seconds,
    misses,
    ok: misses.length === 0,
  };
}

/**
 * A scenario measured in turns (measureInTurns) with a floor of its own: holding the server's answers to the
 * scenario's pool, in the shape of `servers`; judged.
 */
async function judgedInTurns(
  name: string,
  servers: Processes,
  scenario: Omit<LoadScenario, 'name'>,
  seconds: number,
): Promise<LoadResult> {
  const answers = await collectAnswers(servers.urls, scenario.apiPath, scenario.pool);
  try {
    const floor = await startFloor(servers, answers.file);
    try {
      const measured = await measureInTurns(servers.urls, floor.urls, scenario.apiPath, scenario.pool, seconds);
      return judge(name, measured.server, seconds, measured.floor, scenario.budget, measured.turns);
    } finally {
      await floor.stop();
    }
  } finally {
    answers.remove();
  }
}

export async function runLoadBench(
  seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60),
  runs: LoadSetup[] = setups(),
): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  for (const setup of runs) {
    const processes = await setup.start();
    try {
      for (const scenario of setup.scenarios) {
        results.push(await judgedInTurns(`${setup.name}: ${scenario.name}`, processes, scenario, seconds));
      }
    } finally {
      await processes.stop();
    }
  }
  if (process.env.BENCH_SIGNUP !== 'off') results.push(...(await runSignupBench(seconds)));
  return results;
}

/**
 * Sign-up (issue #14 §7, scripts/bench-signup.ts) on one engine: registration opening (accepted submissions/s,
 * p99, places oversold) and ballot-result day ("am I in?" by entry number). `env` names the database
 * (DATABASE_URL) or nothing for SQLite; `processes` server processes share it.
 */
async function runSignupOn(
  engine: string,
  processes: number,
  env: NodeJS.ProcessEnv,
  seconds: number,
): Promise<LoadResult[]> {
  const options = signupBenchOptions();
  const data = signupDataDir();
  const runEnv = { ...env, DATA_DIR: data.dir };
  try {
    const prepared = await prepareSignup(runEnv, options);
    const servers = await startServers(processes, processes > 1 ? { ...runEnv, WORKERS: '1' } : runEnv);
    try {
      const run = await runSignup(servers.urls, runEnv, prepared, options);
      const o = run.opening;
      const openingBudget: LoadBudget = { minRps: 500, maxP99Ms: 200 };
      const opening = judge(
        `${engine}: registration opening (${options.submissions} runners, ${options.capacity} places)`,
        { requestsPerSecond: o.acceptedPerSecond, p99Ms: o.p99Ms, bytesPerAnswer: 0, errors: o.errors, non2xx: 0 },
        Math.round(o.seconds),
        undefined,
        openingBudget,
      );
      if (o.oversold > 0) opening.misses.push(`${o.oversold} places oversold`);
      const expected = Math.min(options.submissions, o.capacity);
      if (o.accepted !== expected) opening.misses.push(`${o.accepted} accepted, ${expected} places to give`);
      opening.ok = opening.misses.length === 0;
      const check = await judgedInTurns(
        `${engine}: am I in? (ballot check)`,
        servers,
        { apiPath: API_PATHS.ballotCheck, pool: run.ballotBodies, budget: { minRps: 10_000 } },
        seconds,
      );
      return [opening, check];
    } finally {
      await servers.stop();
    }
  } finally {
    data.remove();
  }
}

/** The sign-up runs on SQLite (one process) and on PostgreSQL (two processes on one database). */
export async function runSignupBench(seconds: number): Promise<LoadResult[]> {
  const results = await runSignupOn('SQLite, 1 process', 1, {}, seconds);
  const cluster = await startThrowawayCluster();
  try {
    const databaseUrl = await createDatabase(cluster.adminUrl, 'bench_signup');
    results.push(
      ...(await runSignupOn(
        'PostgreSQL, 2 processes',
        2,
        { DATABASE_URL: databaseUrl, ID_NUMBER_SECRET: BENCH_ID_NUMBER_SECRET },
        seconds,
      )),
    );
  } finally {
    await cluster.stop();
  }
  return results;
}

function budgetText(budget: LoadBudget): string {
  const parts: string[] = [];
  if (budget.minRps !== undefined) parts.push(`≥ ${budget.minRps} req/s`);
  if (budget.maxP99Ms !== undefined) parts.push(`p99 ≤ ${budget.maxP99Ms} ms`);
  if (budget.minFloorRatio !== undefined) parts.push(`≥ ${budget.minFloorRatio} × floor`);
  return parts.join(', ') || '—';
}

/** One table: every run with its req/s, p99, the floor beside it and the ratio, budget and verdict. */
export function printLoadResults(results: LoadResult[]): void {
  console.log(
    `load: WORKERS=${benchWorkers()} per server process (WORKERS=1 where several processes share a database); the floor (bare node:http holding the server's answers by request, collected from it before each run) in the same shape, autocannon on the same machine with ${process.env.BENCH_LOAD_CONNECTIONS ?? 50} connections, rate limits off, ${warmupSeconds()} s warm-up, then ${results[0]?.seconds ?? 0} s measured for the server and as long for the floor, in turns of ${process.env.BENCH_SLICE_SECONDS ?? 5} s`,
  );
  const rows = [
    ['', 'run', 'req/s', 'p99 ms', 'floor req/s', '× floor', 'B/answer', 'floor B/answer', 'budget', 'missed'],
    ...results.map((r) => [
      r.ok ? 'PASS' : 'FAIL',
      r.scenario,
      String(r.requestsPerSecond),
      String(r.p99Ms),
      r.floorRequestsPerSecond === undefined ? '—' : String(r.floorRequestsPerSecond),
      r.floorRatio === undefined ? '—' : r.floorRatio.toFixed(2),
      r.bytesPerAnswer === 0 ? '—' : String(r.bytesPerAnswer),
      r.floorBytesPerAnswer === undefined ? '—' : String(r.floorBytesPerAnswer),
      budgetText(r.budget),
      r.misses.join('; '),
    ]),
  ];
  const numeric = new Set([2, 3, 4, 5, 6, 7]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  for (const row of rows) {
    console.log(
      row
        .map((cell, c) => (numeric.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd(),
    );
  }
  console.log('turns, req/s floor/server (× floor is the median of their ratios):');
  for (const r of results) {
    if (r.turns.length > 0) console.log(`  ${r.scenario}: ${r.turns.map((t) => `${t.floor}/${t.server}`).join(', ')}`);
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (invokedDirectly) {
  const results = await runLoadBench();
  printLoadResults(results);
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}
