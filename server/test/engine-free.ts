/**
 * Server test files that never reach a database (rules, text shapes, docs, config checks): on PostgreSQL they
 * would run unchanged a second time, so only the `server` project runs them (vitest.config.ts leaves them out
 * of `server-pg`). Every file that opens a database (through server/test/helpers.ts) runs on both engines;
 * engine-free.test.ts checks that no file listed here does.
 */
export const ENGINE_FREE_SERVER_TESTS = [
  'csv-table',
  'hot-path-kept',
  'hot-path-text',
  'image-dimensions',
  'payment-window',
  'registration-form-docs',
  'site-config-docs',
  'site-config-fuzz',
  'site-config-json-schema',
  'smtp',
  'validator-pool',
  'write-gate',
].map((name) => `server/test/${name}.test.ts`);
