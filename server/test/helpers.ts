import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type BuildAppOptions } from '../src/app.ts';
import { runSiteCli } from '../src/cli/site.ts';

export const FIXTURES = path.join(import.meta.dirname, 'fixtures');
export const FIXTURE_SEED = path.join(FIXTURES, 'seed');
export const FIXTURE_RACE_ID = 'fixture-race-2025';

const made: string[] = [];

export function tempDir(prefix = 'race-site-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh app on a new temporary data directory, seeded from the test fixtures. */
export async function buildTestApp(options: BuildAppOptions = {}) {
  const app = await buildApp({ dataDir: tempDir(), seedDir: FIXTURE_SEED, ...options });
  await app.ready();
  return app;
}

/** A controllable clock. */
export function fakeClock(start = Date.UTC(2025, 5, 16, 2, 0, 0)) {
  let current = start;
  return {
    now: () => current,
    advance: (ms: number) => {
      current += ms;
    },
  };
}

/** The organiser CLI in-process on a data folder (fixture seed, fixed clock): run(...argv) → exit code and output. */
export function siteCli(dataDir: string) {
  return (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = runSiteCli(argv, {
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
      env: { DATA_DIR: dataDir, SEED_DIR: FIXTURE_SEED },
      cwd: FIXTURES,
      now: () => Date.UTC(2025, 5, 16, 2, 0, 0),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}
