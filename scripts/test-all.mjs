// npm test: every test. Unit + component + server tests (vitest) and, beside them, the browser tests against
// the freshly built SPA and the real server (vitest.e2e.config.ts), each suite's output in one piece. Ends
// with one line of totals. The SPA is built first thing, beside the unit tests.
// Set-up first (scripts/ensure-system.mjs): Chromium, CJK fonts and node_modules are installed when they
// can be; otherwise it stops here with one line saying what to install, before any test runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ensureNodeModules, ensureSystem } from './ensure-system.mjs';
import { bin, buildApps, root } from './lib.mjs';

if (!ensureSystem() || !ensureNodeModules({ root })) process.exit(1);

/** How long a suite's output may go on after its process exited (what it wrote is flushed in far less). */
const OUTPUT_AFTER_EXIT_MS = 10_000;

/** How many lines of a failure's message are printed with its name (its stack left out). */
const MESSAGE_LINES = 8;
/** How many lines of each further error of a failed test (a browser test's report of its page) are printed. */
const MORE_LINES = 16;

const reports = mkdtempSync(path.join(tmpdir(), 'race-site-tests-'));
// The site and the console, built beside the unit tests. Their output is warnings only; the exit code decides
// whether the browser tests can run.
const spaBuild = buildApps();
const suites = [
  { name: 'unit, component and server', args: ['run'] },
  { name: 'browser', args: ['run', '--config', 'vitest.e2e.config.ts'], needs: spaBuild },
];

/**
 * The suites run at the same time: the browser tests mostly wait (on Chromium's rendering and animations, the
 * server, the clock), about a third of their lanes' time on the CPU, and the unit suite fills the rest. The
 * first suite prints as it goes; what a later one prints is held back until the suites before it are done.
 */
const runs = [];
for (const [i, suite] of suites.entries()) {
  const out = path.join(reports, `report-${i}.json`);
  const args = [...suite.args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
  const before = runs[i - 1]?.shown ?? Promise.resolve();
  const code = (async () => {
    const built = suite.needs ? await suite.needs : 0;
    if (built !== 0) return { built };
    return { code: await runHeldBack(bin('vitest'), args, before) };
  })();
  // Shown: this suite's heading and output are out, and it has ended.
  const shown = (async () => {
    await before;
    console.log(`\n▶ ${suite.name} tests`);
    const result = await code;
    if (result.built !== undefined)
      console.log(`the SPA build failed (exit code ${result.built}): no ${suite.name} tests`);
  })();
  runs.push({ suite, out, code, shown });
}

let passed = 0;
let failed = 0;
let exitCode = 0;
/** What failed, by name, printed again last: CI keeps only an output's tail, and a suite's failures scroll past. */
const failures = [];
for (const { suite, out, code, shown } of runs) {
  await shown;
  const result = await code;
  if (result.built !== undefined) {
    failed += 1;
    exitCode ||= result.built;
    continue;
  }
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0);
    failures.push(...failedNames(report).map((f) => ({ ...f, name: `${suite.name}: ${f.name}` })));
  } catch {
    failed += 1; // no report: the run itself broke
    failures.push({ name: `${suite.name}: no report (the run itself broke)`, message: [] });
  }
  if (result.code !== 0) exitCode = result.code;
}
rmSync(reports, { recursive: true, force: true });
if (failures.length) {
  // A server test fails once per engine: one entry, with how many times (and the first one's message).
  const counts = new Map();
  for (const { name, message } of failures) {
    const seen = counts.get(name);
    counts.set(name, { n: (seen?.n ?? 0) + 1, message: seen?.message ?? message });
  }
  const lines = [...counts].map(
    ([name, { n, message }]) =>
      `  ${name}${n > 1 ? ` (${n}×)` : ''}${message.map((line) => `\n      ${line}`).join('')}`,
  );
  console.log(`\nfailed:\n${lines.join('\n')}`);
}
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(exitCode || (failed ? 1 : 0));

/**
 * The failed tests of a Vitest JSON report, as "file > describe > test" with the first lines of each of its
 * messages (without colours or stack), and a file that failed without a failed test (it did not load, or a hook failed)
 * as "file: its message's first line".
 */
function failedNames(report) {
  const names = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name);
    const tests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of tests) {
      const name = [where, ...(test.ancestorTitles ?? []), test.title].join(' > ');
      const messages = test.failureMessages ?? [];
      names.push({ name, message: messages.flatMap((m, i) => messageLines(m, i ? MORE_LINES : MESSAGE_LINES)) });
    }
    if (!tests.length && file.status === 'failed') {
      const [first = 'failed', ...rest] = messageLines(file.message);
      names.push({ name: `${where}: ${first}`, message: rest });
    }
  }
  return names;
}

/** A message's lines without colours, with its stack left out but for the first frame in this project's code. */
function messageLines(message, most = MESSAGE_LINES) {
  const lines = stripVTControlCharacters(String(message ?? ''))
    .split('\n')
    .filter((line) => line.trim() !== '');
  const text = lines.filter((line) => !/^\s+at /.test(line)).slice(0, most);
  const ours = lines.find((line) => /^\s+at /.test(line) && line.includes(root) && !line.includes('node_modules'));
  return ours ? [...text, ours.trim().replace(`${root}${path.sep}`, '')] : text;
}

/**
 * Runs a command now and resolves with its exit code; what it prints is held until `before` resolves, then
 * printed, and from then on passed through as it comes (colours kept when this terminal has them).
 */
function runHeldBack(cmd, args, before) {
  return new Promise((resolve) => {
    const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env;
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let held = [];
    const pass = (stream) => (chunk) => (held ? held.push([stream, chunk]) : stream.write(chunk));
    child.stdout.on('data', pass(process.stdout));
    child.stderr.on('data', pass(process.stderr));
    void before.then(() => {
      for (const [stream, chunk] of held) stream.write(chunk);
      held = null;
    });
    // Done when its output has ended ('close'), or a while after it exited: a process it started and left running
    // (a server whose start failed) holds the output open, and waiting for that would wait for ever.
    let done = false;
    const finish = (code, signal) => {
      if (done) return;
      done = true;
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(code ?? (signal ? 1 : 0));
    };
    child.on('close', finish);
    child.on('exit', (code, signal) => setTimeout(() => finish(code, signal), OUTPUT_AFTER_EXIT_MS).unref());
  });
}
