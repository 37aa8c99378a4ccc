import { defineConfig } from 'vitest/config';
import { laneCount } from './tests/e2e/lanes.ts';

/**
 * Browser tests: real Chromium (playwright-core), the built SPA and the real server. Files run in lanes, one
 * worker and one server of its own per lane (tests/e2e/lanes.ts); the files of a lane run one after another.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    globals: true,
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    // A time limit is for a test that hangs, not one that waits for the CPU: the lanes share the cores, and
    // a long flow (sign-up, pay, refund) took over a minute with a second test run beside this one.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    // expect.poll gives up after 1 s unless told otherwise: a page that answers in 2 s with the machine busy
    // is no failure. A poll that is met returns at once; one that never is still fails.
    expect: { poll: { timeout: 30_000 } },
    maxWorkers: laneCount(),
    // A lane's files run one after another in one worker that keeps the modules it loaded (the organiser CLI
    // and the server's data layer, which the set-ups use in process: over a second of loading per file). No
    // browser test mocks a module; the lane's files share its Chromium (tests/e2e/browser.ts useBrowser), and each
    // leaves the browser and the server as it found them.
    isolate: false,
  },
});
