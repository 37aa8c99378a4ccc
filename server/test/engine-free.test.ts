/**
 * The server test files the PostgreSQL project leaves out (engine-free.ts) must
 * never reach a database: every way a server test gets one goes through server/test/helpers.ts, which picks
 * the engine (TEST_DB), so a listed file may use none of those ways.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_FREE_SERVER_TESTS } from './engine-free.ts';

const ROOT = path.join(import.meta.dirname, '../..');

/** What a test file uses when it opens a database, directly or through a helper of server/test. */
const DATABASE_WAYS =
  /\b(buildTestApp|testEnv|postgresEnv|databaseFor|openTestDatabase|siteCli|pgTestDatabaseUrl|ON_POSTGRES|TEST_DB|DATABASE_URL|buildApp|openDatabase|createDatabase)\b|pg-test-database|after-entry-helpers|race-center-fixture|from 'pg'|better-sqlite3/;

describe('server test files run on one engine only', () => {
  it.each(ENGINE_FREE_SERVER_TESTS)('%s opens no database', (file) => {
    expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    const source = readFileSync(path.join(ROOT, file), 'utf8');
    expect(source.match(DATABASE_WAYS)?.[0] ?? null).toBeNull();
  });

  it('notices a file that does', () => {
    const source = "import { buildTestApp, FIXTURES } from './helpers.ts';";
    expect(source.match(DATABASE_WAYS)?.[0]).toBe('buildTestApp');
  });
});
