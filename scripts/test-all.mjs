// npm test: every test. Unit + component + server tests (vitest), then the browser tests against the
// freshly built SPA and the real server (vitest.e2e.config.ts). Ends with one line of totals. The SPA is
// built beside the first suite (a few seconds of CPU while that suite's workers wait on I/O at times).
// Set-up first (scripts/ensure-system.mjs): Chromium, CJK fonts and node_modules are installed when they
// can be; otherwise it stops here with one line saying what to install, before any test runs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureNodeModules, ensureSystem } from './ensure-system.mjs';
import { bin, buildApps, root, run } from './lib.mjs';

if (!ensureSystem() || !ensureNodeModules({ root })) process.exit(1);

const reports = mkdtempSync(path.join(tmpdir(), 'race-site-tests-'));
// The site and the console, built beside the unit tests. Their output is warnings only; the exit code decides
// whether the browser tests can run.
const spaBuild = buildApps();
const suites = [
  { name: 'unit, component and server', args: ['run'] },
  { name: 'browser', args: ['run', '--config', 'vitest.e2e.config.ts'], needs: spaBuild },
];

let passed = 0;
let failed = 0;
let exitCode = 0;
for (const [i, suite] of suites.entries()) {
  console.log(`\n▶ ${suite.name} tests`);
  const built = suite.needs ? await suite.needs : 0;
  if (built !== 0) {
    console.log(`the SPA build failed (exit code ${built}): no ${suite.name} tests`);
    failed += 1;
    exitCode ||= built;
    continue;
  }
  const out = path.join(reports, `report-${i}.json`);
  const code = await run(bin('vitest'), [
    ...suite.args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0);
  } catch {
    failed += 1; // no report: the run itself broke
  }
  if (code !== 0) exitCode = code;
}
rmSync(reports, { recursive: true, force: true });
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(exitCode || (failed ? 1 : 0));
