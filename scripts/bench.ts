/**
 * npm run bench: speed and size budgets of the demo event's home route, measured against the built SPA
 * and the real server on this machine.
 * - JS loaded before first paint (issue #29 §5, ≤ 120 KB gzip -9): every script the home route fetched until
 *   it rendered, plus every script index.html names (its module script and modulepreloads, which a browser
 *   fetches whatever it renders), listed file by file. Nothing another page's entry (the organiser console,
 *   issue #30, or any other HTML page of dist/) names as its own may be among them: the console must add
 *   nothing to the home page.
 * - The entry chunk (the script index.html loads), gzip -9: the shell's code and texts only; feature texts
 *   load with their pages (src/lib/locale-bundles.ts). 89.5 KB after the locale split, 95.1 KB before.
 * - Lighthouse 12 (Debian's Chromium), median of 3 runs: performance score, LCP, TBT, CLS, on the desktop
 *   preset for the desktop home and on the mobile preset (a throttled phone) for the mobile site's home
 *   (/m/, #16).
 * - Race-day load (scripts/bench-load.ts): lookups by bib and by name + certificate number against the
 *   seeded 30,000 runners, autocannon on this machine, BENCH_LOAD_SECONDS each (default 60);
 *   BENCH_LOAD=0 skips it.
 * - The organiser console at 100,000 entries (scripts/bench-console.ts), SQLite and PostgreSQL: a race's live
 *   figures ≤ 300 ms and a page of the entry list (searched, filtered, deep) ≤ 200 ms, p95 of repeated calls;
 *   BENCH_CONSOLE=0 skips it.
 * Exits 1 when a budget is missed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { buildIsStale, buildSpa } from './lib.mjs';
import { printLoadResults, runLoadBench } from './bench-load';
import { printConsoleResults, runConsoleBench } from './bench-console';
import { CHROMIUM_PATH, launchBrowser } from '../tests/e2e/browser-launch';
import { repoRoot, startServer } from '../tests/e2e/server-process';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BUDGET = { homeJsGzipKb: 120, entryJsGzipKb: 93 };

/** The Lighthouse runs and their budgets: score at least, LCP (ms) and CLS at most. */
const LIGHTHOUSE_RUNS = [
  { name: 'desktop home', path: '/#/home', preset: 'desktop', score: 95, lcpMs: Infinity, cls: 0.05 },
  { name: 'mobile site home', path: '/m/#/home', preset: 'mobile', score: 98, lcpMs: 1800, cls: 0.02 },
] as const;

function entryJs() {
  const html = readFileSync(path.join(repoRoot, 'dist', 'index.html'), 'utf8');
  const file = /<script[^>]*type="module"[^>]*src="([^"]+\.js)"/.exec(html)?.[1];
  if (!file) throw new Error('dist/index.html names no entry script');
  const bytes = readFileSync(path.join(repoRoot, 'dist', file));
  return { file, rawKb: bytes.length / 1024, gzipKb: gzipSync(bytes, { level: 9 }).length / 1024 };
}

/** The scripts an HTML page of dist/ names itself: its module scripts and modulepreloads (paths from /). */
function scriptsNamedBy(htmlFile: string): string[] {
  const html = readFileSync(htmlFile, 'utf8');
  const named = [
    ...html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
  ];
  return named.map((m) => new URL(m[1]!, 'http://x/').pathname);
}

/** The HTML pages of dist/ other than index.html (the organiser console's, issue #30, and any other). */
function otherPages(dir = path.join(repoRoot, 'dist')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return otherPages(file);
    return entry.name.endsWith('.html') && file !== path.join(repoRoot, 'dist', 'index.html') ? [file] : [];
  });
}

/**
 * The JS of the home route before first paint: what the browser fetched until the home page rendered, plus
 * what index.html names (fetched anyway), each file's size gzip -9 and as the server sends it with brotli.
 * `foreign`: those among them that another page (the console) names as its own entry.
 */
async function homeJs(url: string) {
  const browser = await launchBrowser();
  const scripts = new Set<string>(scriptsNamedBy(path.join(repoRoot, 'dist', 'index.html')));
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
    });
    await page.goto(url);
    await page.getByTestId('home-page').waitFor();
    await page.waitForLoadState('networkidle');
  } finally {
    await browser.close();
  }
  const files = [...scripts].map((file) => {
    const bytes = readFileSync(path.join(repoRoot, 'dist', file));
    const brotli = path.join(repoRoot, 'dist', `${file}.br`);
    return {
      file,
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      // What the server sends a browser that takes brotli: the build's .br copy (small files go as they are).
      br: existsSync(brotli) ? statSync(brotli).size : bytes.length,
    };
  });
  files.sort((a, b) => b.gzip - a.gzip);
  const sum = (pick: (f: (typeof files)[number]) => number) => files.reduce((acc, f) => acc + pick(f), 0) / 1024;
  // A console page's own entry (its module script) must never be what the home page loads; shared chunks
  // (React, say) may be, as long as the home page needed them anyway.
  const consoleEntries = new Set(
    otherPages().flatMap((html) =>
      [...readFileSync(html, 'utf8').matchAll(/<script[^>]*type="module"[^>]*\ssrc="([^"]+\.js)"/g)].map(
        (m) => new URL(m[1]!, 'http://x/').pathname,
      ),
    ),
  );
  return {
    files,
    rawKb: sum((f) => f.raw),
    gzipKb: sum((f) => f.gzip),
    brKb: sum((f) => f.br),
    foreign: files.filter((f) => consoleEntries.has(f.file)).map((f) => f.file),
    otherPages: otherPages().map((html) => path.relative(path.join(repoRoot, 'dist'), html)),
  };
}

interface LhRun {
  score: number;
  lcp: number;
  tbt: number;
  cls: number;
}

async function lighthouseRun(url: string, preset: 'desktop' | 'mobile'): Promise<LhRun> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  try {
    const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
    const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      lcp: lhr.audits['largest-contentful-paint'].numericValue ?? NaN,
      tbt: lhr.audits['total-blocking-time'].numericValue ?? NaN,
      cls: lhr.audits['cumulative-layout-shift'].numericValue ?? NaN,
    };
  } finally {
    chrome.kill();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function lighthouseMedian(url: string, preset: 'desktop' | 'mobile') {
  const runs: LhRun[] = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await lighthouseRun(url, preset));
  return {
    score: median(runs.map((r) => r.score)),
    lcp: median(runs.map((r) => r.lcp)),
    tbt: median(runs.map((r) => r.tbt)),
    cls: median(runs.map((r) => r.cls)),
    scores: runs.map((r) => r.score),
  };
}

if (buildIsStale()) await buildSpa();
const server = await startServer();
const url = `http://localhost:${server.port}/#/home`;
const failures: string[] = [];
try {
  const entry = entryJs();
  console.log(
    `${entry.gzipKb <= BUDGET.entryJsGzipKb ? 'PASS' : 'FAIL'} entry chunk ${entry.file}: ${entry.gzipKb.toFixed(1)} KB gzip ` +
      `(budget ≤ ${BUDGET.entryJsGzipKb} KB; ${entry.rawKb.toFixed(1)} KB raw)`,
  );
  if (entry.gzipKb > BUDGET.entryJsGzipKb)
    failures.push(`entry JS ${entry.gzipKb.toFixed(1)} KB > ${BUDGET.entryJsGzipKb} KB`);
  const js = await homeJs(url);
  const homeOk = js.gzipKb <= BUDGET.homeJsGzipKb && js.foreign.length === 0;
  console.log(
    `${homeOk ? 'PASS' : 'FAIL'} home route JS before first paint: ${js.files.length} files, ${js.gzipKb.toFixed(1)} KB gzip ` +
      `(budget ≤ ${BUDGET.homeJsGzipKb} KB; ${js.rawKb.toFixed(1)} KB raw, ${js.brKb.toFixed(1)} KB as sent with brotli)`,
  );
  for (const f of js.files) {
    console.log(
      `  ${(f.gzip / 1024).toFixed(1).padStart(6)} KB gzip ${(f.raw / 1024).toFixed(1).padStart(7)} KB raw  ${f.file}`,
    );
  }
  console.log(
    `  other pages in dist/ (the console's, issue #30): ${js.otherPages.join(', ') || 'none'}; ` +
      `their entries among the home page's scripts: ${js.foreign.join(', ') || 'none'}`,
  );
  if (js.gzipKb > BUDGET.homeJsGzipKb) failures.push(`home JS ${js.gzipKb.toFixed(1)} KB > ${BUDGET.homeJsGzipKb} KB`);
  if (js.foreign.length > 0) failures.push(`home JS loads another page's entry: ${js.foreign.join(', ')}`);

  for (const run of LIGHTHOUSE_RUNS) {
    const lh = await lighthouseMedian(`http://localhost:${server.port}${run.path}`, run.preset);
    console.log(
      `lighthouse ${run.name} (${run.preset} preset): performance ${lh.score} (runs ${lh.scores.join(', ')}), ` +
        `LCP ${(lh.lcp / 1000).toFixed(2)} s, TBT ${Math.round(lh.tbt)} ms, CLS ${lh.cls.toFixed(3)}`,
    );
    if (lh.score < run.score) failures.push(`lighthouse ${run.name} ${lh.score} < ${run.score}`);
    if (lh.lcp > run.lcpMs) failures.push(`${run.name} LCP ${(lh.lcp / 1000).toFixed(2)} s > ${run.lcpMs / 1000} s`);
    if (lh.cls > run.cls) failures.push(`${run.name} CLS ${lh.cls.toFixed(3)} > ${run.cls}`);
  }
} finally {
  await server.stop();
}
if (process.env.BENCH_LOAD !== '0') {
  const load = await runLoadBench();
  printLoadResults(load);
  for (const r of load) if (!r.ok) failures.push(`load: ${r.scenario}`);
}
if (process.env.BENCH_CONSOLE !== '0') {
  const consoleResults = await runConsoleBench();
  printConsoleResults(consoleResults);
  for (const r of consoleResults) if (!r.ok) failures.push(`console: ${r.name}`);
}
if (failures.length) {
  console.log(`bench: over budget: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('bench: every budget met');
