import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { FIXTURE_SEED, ON_POSTGRES, removeTempDirs, tempDir } from './helpers.ts';
import { testDatabaseUrl } from './pg-test-database.ts';

const SERVER = path.join(import.meta.dirname, '../src/server.ts');

afterAll(removeTempDirs);

/** Starts server.ts as a process; resolves with its output once `until` matches or it exits. */
function start(env: Record<string, string>, until: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', STATIC_DIR: '', SEED_DIR: FIXTURE_SEED, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<string>((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (until.test(output)) resolve(output);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => resolve(output));
  });
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  return { child, ready, exited };
}

describe('server process', () => {
  it('runs several workers on one port and database, and stops them all on SIGTERM', async () => {
    const server = start({ WORKERS: '2', DATA_DIR: tempDir() }, /running at (\S+) \(2 workers\)/);
    const output = await server.ready;
    const url = /running at (\S+) \(2 workers\)/.exec(output)?.[1];
    expect(url, output).toBeDefined();
    // Separate connections, spread over the workers: every one answers from the one prepared database.
    for (let i = 0; i < 6; i += 1) {
      const res = await fetch(`${url}${API_PATHS.raceByDomain}?domainName=localhost`, {
        headers: { connection: 'close' },
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
    }
    // Writes from both workers at once (each login is counted by the shared rate limit in a write transaction):
    // the workers take turns at the one SQLite write lock (lib/write-gate.ts), and every request is answered.
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        fetch(`${url}${API_PATHS.login}`, {
          method: 'POST',
          headers: { connection: 'close', 'content-type': 'application/x-www-form-urlencoded', osId: '1002' },
          body: new URLSearchParams({ loginType: '0', phone: `1380000${String(i).padStart(4, '0')}`, password: 'x' }),
        }).then(async (res) => ((await res.json()) as { code: number }).code),
      ),
    );
    expect(answers).toHaveLength(16);
    expect(answers.every((code) => code !== 0 && code !== 500)).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('refuses a WORKERS value that is not a count', async () => {
    const server = start({ WORKERS: 'many', DATA_DIR: tempDir() }, /WORKERS/);
    expect(await server.ready).toContain(`WORKERS must be a number from 1 to 64 or 'auto', got "many"`);
    expect(await server.exited).toBe(1);
  });

  it('refuses to start in production without PAYMENT_PROVIDER, naming the variable (issue 27)', async () => {
    const server = start({ NODE_ENV: 'production', PAYMENT_PROVIDER: '', DATA_DIR: tempDir() }, /for free\)/);
    expect(await server.exited).toBe(1);
    expect(await server.ready).toContain(
      'race-site could not start:\nPAYMENT_PROVIDER must be set when NODE_ENV=production',
    );
  });

  it.runIf(ON_POSTGRES)('refuses to start on PostgreSQL without ID_NUMBER_SECRET, in one sentence', async () => {
    const databaseUrl = (await testDatabaseUrl())!;
    const server = start(
      { DATABASE_URL: databaseUrl, ID_NUMBER_SECRET: '', DATA_DIR: tempDir() },
      /outside the database\./,
    );
    expect(await server.exited).toBe(1);
    const output = await server.ready;
    expect(output).toContain(
      'race-site could not start: On PostgreSQL set ID_NUMBER_SECRET (at least 16 characters, the same on every instance)',
    );
    expect(output).not.toMatch(/\n\s+at /);
  });
});
