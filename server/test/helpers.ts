import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type BuildAppOptions } from '../src/app.ts';

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
