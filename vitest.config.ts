import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * Unit, component and server tests. Browser tests (real Chromium, real server, built SPA) have their own
 * config: vitest.e2e.config.ts. `npm test` runs both.
 */
export default defineConfig((env) =>
  mergeConfig(viteConfig(env), {
    test: {
      projects: [
        {
          extends: true,
          test: {
            name: 'web',
            environment: 'jsdom',
            globals: true,
            include: ['src/**/*.test.{ts,tsx}'],
            setupFiles: ['src/testing/setup-tests.ts'],
            css: false,
          },
        },
        {
          extends: true,
          test: {
            name: 'server',
            environment: 'node',
            // scripts/: the set-up npm test does on a fresh machine (ensure-system).
            include: ['server/test/**/*.test.ts', 'scripts/**/*.test.ts'],
            pool: 'forks',
          },
        },
      ],
    },
  }),
);
