/**
 * npm run bench: speed and size budgets of the demo event's home route, measured against the built SPA
 * and the real server on this machine.
 * - JS loaded before first paint (issue #29 §5, ≤ 120 KB gzip -9): the desktop home page as a visitor gets it
 *   (the server draws its first screen, server/src/lib/first-screen.ts, and the app's module starts after
 *   the first paint): every script the browser started fetching before the first contentful paint, every
 *   script the document as served names (module script, modulepreloads: fetched whatever it renders) and the
 *   document's inline scripts, listed file by file. Nothing another page's entry (the organiser console,
 *   issue #30, or any other HTML page of dist/) names as its own may be among them, nor among the scripts
 *   of the home page once the app has drawn it (printed too, with its size): the console must add nothing
 *   to the home page.
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
import { brotliCompressSync, gzipSync } from 'node:zlib';
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

/** The scripts an HTML page names itself: its module scripts and modulepreloads (paths from /). */
function scriptsNamedBy(html: string): string[] {
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

/** The inline scripts of an HTML document (a script with a src is not inline). */
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)]
    .filter((m) => !/\bsrc\s*=/i.test(m[1] ?? '') && m[2])
    .map((m) => Buffer.from(m[2]!));

/**
 * The JS of the home route before first paint, each file's size gzip -9 and as the server sends it with
 * brotli: the scripts the browser started fetching before the first contentful paint, those the document
 * as served names (fetched anyway) and its inline scripts. Also every script the home page loaded until the
 * app had drawn it (`all`). `foreign`: those among either that another page (the console) names as its own
 * entry.
 */
async function homeJs(url: string) {
  const browser = await launchBrowser();
  const served = await (await fetch(url)).text();
  const beforePaint = new Set<string>(scriptsNamedBy(served));
  const loaded = new Set<string>(beforePaint);
  let firstPaintMs = NaN;
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url);
    await page.getByTestId('home-page').waitFor();
    await page.waitForFunction(() => !document.getElementById('root')?.hasAttribute('data-first-screen'));
    await page.waitForLoadState('networkidle');
    const timing = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      scripts: performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.endsWith('.js'))
        .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime })),
    }));
    firstPaintMs = timing.fcp;
    if (Number.isNaN(firstPaintMs)) throw new Error('the home page reported no first contentful paint');
    for (const script of timing.scripts) {
      loaded.add(script.path);
      if (script.start < firstPaintMs) beforePaint.add(script.path);
    }
  } finally {
    await browser.close();
  }
  const sizes = (file: string, bytes: Buffer) => {
    const brotli = path.join(repoRoot, 'dist', `${file}.br`);
    return {
      file,
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      // What the server sends a browser that takes brotli: the build's .br copy (small files go as they are).
      br: existsSync(brotli) ? statSync(brotli).size : bytes.length,
    };
  };
  const fileSizes = (scripts: Iterable<string>) =>
    [...scripts].map((file) => sizes(file, readFileSync(path.join(repoRoot, 'dist', file))));
  const files = [
    ...fileSizes(beforePaint),
    // The document travels compressed as a whole: its inline scripts count at their own gzip -9 size.
    ...inlineScripts(served).map((bytes, i) => ({
      ...sizes(`(inline script ${i + 1} of the document)`, bytes),
      br: brotliCompressSync(bytes).length,
    })),
  ];
  const all = fileSizes(loaded);
  files.sort((a, b) => b.gzip - a.gzip);
  const sum = (pick: (f: (typeof files)[number]) => number, list = files) =>
    list.reduce((acc, f) => acc + pick(f), 0) / 1024;
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
    firstPaintMs,
    rawKb: sum((f) => f.raw),
    gzipKb: sum((f) => f.gzip),
    brKb: sum((f) => f.br),
    all: { files: all.length, gzipKb: sum((f) => f.gzip, all) },
    foreign: [...files, ...all].filter((f) => consoleEntries.has(f.file)).map((f) => f.file),
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
// The server answers / (the hash is the browser's): the document whose first screen it draws.
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
      `(budget ≤ ${BUDGET.homeJsGzipKb} KB; ${js.rawKb.toFixed(1)} KB raw, ${js.brKb.toFixed(1)} KB as sent with brotli; ` +
      `first contentful paint at ${Math.round(js.firstPaintMs)} ms)`,
  );
  for (const f of js.files) {
    console.log(
      `  ${(f.gzip / 1024).toFixed(1).padStart(6)} KB gzip ${(f.raw / 1024).toFixed(1).padStart(7)} KB raw  ${f.file}`,
    );
  }
  console.log(
    `  then, after the first paint, the app's module: ${js.all.files} files, ${js.all.gzipKb.toFixed(1)} KB gzip ` +
      `until the app has drawn the home page`,
  );
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
