/**
 * How long a component test waits for what is really asynchronous (antd imported on first use, a mocked call's
 * answer, a React update): testing-library's findBy and waitFor (configured in setup-tests.ts) and vi.waitFor.
 * Only a failing wait takes this long, so it is generous: 30 s was not enough, as the first wait of a file
 * includes transforming the lazily imported drawer or page with antd, and with the machine loaded 15-20 deep
 * (two test runs and more) the login drawer's first open took over 30 s. Under the test's own limit
 * (vitest.config.ts), so that a wait that fails says what it waited for.
 */
export const WAIT_LIMIT_MS = 100_000;
