import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';
import { ENGINE_FREE_SERVER_TESTS } from './server/test/engine-free.ts';

/** The race clock's tests run once per zone: a visitor's clock must never move the race's. */
const RACE_CLOCK_TEST = 'contract/race-clock.test.ts';
const VISITOR_TIME_ZONES = ['Europe/London', 'America/New_York'];
/**
 * A server test file runs in a worker that ran other server files before it, with the modules they loaded
 * (isolate: false): loading the server's modules afresh for each file was about half of a server file's CPU
 * time (14 files: 27.8 s -> 13.0 s CPU). Each test builds its own app and database, no server test mocks a
 * module or changes process.env, and the app keeps its state on the instance, so nothing of one file reaches
 * the next.
 */
const ISOLATE_SERVER_FILES = false;
/**
 * How long a component or server test or hook may take before it counts as hung. 120 s ran out under a load of
 * 15-20 (two test runs and more): a test that starts the server as processes (server-process.test.ts, each
 * compiling the server with tsx) took 120.3 s. Above the component tests' waits (src/testing/wait-limit.ts), so
 * that a failed wait reports itself.
 */
const TIME_LIMIT_MS = 300_000;

/**
 * Unit, component and server tests. Browser tests (real Chromium, real server, built SPA) have their own
 * config: vitest.e2e.config.ts. `npm test` runs both.
 */
export default defineConfig((env) =>
  mergeConfig(viteConfig(env), {
    test: {
      // A test file on every core. Vitest's default leaves one core to itself: on the 2-core CI machine one
      // file at a time, while its own process is mostly idle (16 web files on a 2-core machine: 220 s -> 164 s).
      maxWorkers: availableParallelism(),
      projects: [
        {
          extends: true,
          test: {
            name: 'web',
            environment: 'jsdom',
            globals: true,
            include: ['src/**/*.test.{ts,tsx}', 'admin/**/*.test.{ts,tsx}', 'contract/**/*.test.ts'],
            // The race clock runs in the two projects below, each in a visitor's time zone of its own.
            exclude: [...configDefaults.exclude, RACE_CLOCK_TEST],
            setupFiles: ['src/testing/setup-tests.ts'],
            css: false,
            // A whole form in jsdom takes seconds a test; with the machine busy (a second test run beside this
            // one), several times that. A time limit is for a test that hangs, not one that is slow: hooks too
            // (the setup's afterAll outlived the default 10 s beside a second test run).
            testTimeout: TIME_LIMIT_MS,
            hookTimeout: TIME_LIMIT_MS,
          },
        },
        ...VISITOR_TIME_ZONES.map((TZ) => ({
          extends: true,
          test: {
            name: `clock ${TZ}`,
            environment: 'node',
            include: [RACE_CLOCK_TEST],
            // Assigned to process.env before the tests run; forks, so that Node applies it to the process.
            env: { TZ },
            pool: 'forks',
          },
        })),
        {
          extends: true,
          test: {
            name: 'server',
            environment: 'node',
            // scripts/: the set-up npm test does on a fresh machine (ensure-system).
            include: ['server/test/**/*.test.ts', 'scripts/**/*.test.ts'],
            pool: 'forks',
            isolate: ISOLATE_SERVER_FILES,
            // A server test builds an app and a database: a second; on a busy machine many times that. A time
            // limit is for a test that hangs, not one that waits for the CPU.
            testTimeout: TIME_LIMIT_MS,
            hookTimeout: TIME_LIMIT_MS,
          },
        },
        {
          extends: true,
          test: {
            // The server suite again on PostgreSQL: a throwaway server (scripts/pg-cluster.ts) unless
            // DATABASE_URL names one; every test app gets a database of its own (server/test/pg-test-database.ts).
            name: 'server-pg',
            environment: 'node',
            include: ['server/test/**/*.test.ts'],
            exclude: [...configDefaults.exclude, ...ENGINE_FREE_SERVER_TESTS],
            env: { TEST_DB: 'postgres' },
            globalSetup: ['server/test/pg-global-setup.ts'],
            pool: 'forks',
            isolate: ISOLATE_SERVER_FILES,
            testTimeout: TIME_LIMIT_MS,
            hookTimeout: TIME_LIMIT_MS,
          },
        },
      ],
    },
  }),
);
