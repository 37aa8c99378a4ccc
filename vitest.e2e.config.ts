import { defineConfig } from 'vitest/config';

/** Browser tests: real Chromium (playwright-core), the built SPA and the real server. */
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    globals: true,
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
