/**
 * The ID-number secret (lib/secrets.ts) on PostgreSQL comes from ID_NUMBER_SECRET only (issue #14 §5): a start
 * without it is refused, none is ever written to server_secrets, and a row an earlier version stored there is
 * checked (a different value refused, the same one warned about) and never deleted. On SQLite it is still the
 * data folder's file. The server process's refusal: server-process.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { sql } from '../src/db/engine.ts';
import { runSiteCli } from '../src/cli/site.ts';
import { FIXTURE_SEED, FIXTURES, ON_POSTGRES, removeTempDirs, tempDir, TEST_ID_NUMBER_SECRET } from './helpers.ts';
import { testDatabaseUrl } from './pg-test-database.ts';

afterAll(removeTempDirs);

const NOW = Date.UTC(2025, 5, 16, 2, 0, 0);
const OLD_SECRET = 'the-secret-an-earlier-version-stored';

function open(env: Record<string, string | undefined>, warn?: (line: string) => void) {
  return openDatabase({ dataDir: tempDir(), seedDir: FIXTURE_SEED, now: NOW, env, seed: false, warn });
}

async function storedNames(url: string): Promise<string[]> {
  const opened = await open({ DATABASE_URL: url, ID_NUMBER_SECRET: TEST_ID_NUMBER_SECRET });
  try {
    const rows = await opened.db.all<{ name: string }>(sql`SELECT name FROM server_secrets ORDER BY name`);
    return rows.map((row) => row.name);
  } finally {
    await opened.db.close();
  }
}

describe('the ID-number secret on PostgreSQL', () => {
  it.runIf(ON_POSTGRES)('is refused when ID_NUMBER_SECRET is unset, by the server and the CLI', async () => {
    const url = (await testDatabaseUrl())!;
    await expect(open({ DATABASE_URL: url })).rejects.toThrow(
      /^On PostgreSQL set ID_NUMBER_SECRET \(at least 16 characters, the same on every instance\): it keys the certificate-number hashes and encrypts the personal numbers, so it is kept outside the database\.$/,
    );
    const err: string[] = [];
    const code = await runSiteCli(['list'], {
      stdout: () => undefined,
      stderr: (line) => err.push(line),
      env: { DATA_DIR: tempDir(), SEED_DIR: FIXTURE_SEED, DATABASE_URL: url },
      cwd: FIXTURES,
      now: () => NOW,
    });
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(
      /^Cannot open the database in the PostgreSQL database: On PostgreSQL set ID_NUMBER_SECRET/,
    );
    expect(err.join('\n')).not.toMatch(/\n\s+at /);
    // Nothing of the secret was made in the database by the refused starts.
    expect(await storedNames(url)).not.toContain('id-number-secret');
  });

  it.runIf(ON_POSTGRES)('is taken from ID_NUMBER_SECRET and never written to the database', async () => {
    const url = (await testDatabaseUrl())!;
    const opened = await open({ DATABASE_URL: url, ID_NUMBER_SECRET: TEST_ID_NUMBER_SECRET });
    await opened.db.close();
    expect(opened.secrets.idNumber).toBe(TEST_ID_NUMBER_SECRET);
    expect(await storedNames(url)).toEqual(['cert-secret', 'code-secret', 'payment-secret']);
  });

  it.runIf(ON_POSTGRES)(
    'checks a row an earlier version stored: refuses a different value, warns on the same',
    async () => {
      const url = (await testDatabaseUrl())!;
      const first = await open({ DATABASE_URL: url, ID_NUMBER_SECRET: TEST_ID_NUMBER_SECRET });
      await first.db.run(
        sql`INSERT INTO server_secrets (name, value, created_at) VALUES ('id-number-secret', ${OLD_SECRET}, ${NOW})`,
      );
      await first.db.close();

      // A different value: refused, with the way to read the stored one (never the value itself).
      const differs = open({ DATABASE_URL: url, ID_NUMBER_SECRET: TEST_ID_NUMBER_SECRET });
      await expect(differs).rejects.toThrow(
        /^ID_NUMBER_SECRET differs from the ID-number secret an earlier version stored/,
      );
      await expect(differs).rejects.toThrow(
        `psql "$DATABASE_URL" -Atc "SELECT value FROM server_secrets WHERE name = 'id-number-secret'"`,
      );
      await expect(differs).rejects.not.toThrow(OLD_SECRET);
      // Unset: refused, with the same way back.
      await expect(open({ DATABASE_URL: url })).rejects.toThrow(
        /set it once to the value an earlier version stored there, which psql/,
      );

      // The same value: runs, with one warning, and the row stays.
      const warnings: string[] = [];
      const same = await open({ DATABASE_URL: url, ID_NUMBER_SECRET: OLD_SECRET }, (line) => warnings.push(line));
      try {
        expect(same.secrets.idNumber).toBe(OLD_SECRET);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/no longer used: delete it with psql/);
        const row = await same.db.get<{ value: string }>(
          sql`SELECT value FROM server_secrets WHERE name = 'id-number-secret'`,
        );
        expect(row?.value).toBe(OLD_SECRET);
      } finally {
        await same.db.close();
      }
    },
  );
});

describe('the ID-number secret on SQLite', () => {
  it('is still the data folder file when ID_NUMBER_SECRET is unset', async () => {
    const dataDir = tempDir();
    const opened = await openDatabase({ dataDir, seedDir: FIXTURE_SEED, now: NOW, env: {}, seed: false });
    await opened.db.close();
    const file = path.join(dataDir, 'id-number-secret');
    expect(existsSync(file)).toBe(true);
    expect(opened.secrets.idNumber).toBe(readFileSync(file, 'utf8').trim());
  });
});
