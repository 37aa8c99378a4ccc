import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresBinDir } from './ensure-system.mjs';
import { createDatabase, databaseOf, dropDatabase, startThrowawayCluster } from './pg-cluster.ts';

const root = path.resolve(import.meta.dirname, '..');

async function query(url: string, sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgresBinDir())('a throwaway PostgreSQL server', () => {
  it('starts on a unix socket, gives each caller its own database, and leaves nothing behind', async () => {
    const started = Date.now();
    const cluster = await startThrowawayCluster();
    const startMs = Date.now() - started;
    try {
      expect(cluster.adminUrl).toContain(encodeURIComponent(cluster.socketDir));
      expect(existsSync(path.join(cluster.dataDir, 'PG_VERSION'))).toBe(true);
      expect(await query(cluster.adminUrl, 'SHOW listen_addresses')).toEqual([{ listen_addresses: '' }]);
      expect(await query(cluster.adminUrl, 'SHOW max_connections')).toEqual([{ max_connections: '200' }]);

      const one = await createDatabase(cluster.adminUrl);
      const two = await createDatabase(cluster.adminUrl, 'pg_cluster_named');
      expect(databaseOf(one)).toMatch(/^test_[0-9a-f]{12}$/);
      expect(databaseOf(two)).toBe('pg_cluster_named');
      for (const url of [one, two]) {
        await query(url, 'CREATE TABLE t (name text)');
        await query(url, 'INSERT INTO t VALUES ($1)', [databaseOf(url)]);
      }
      // Each database holds only its own row: the two are separate.
      expect(await query(one, 'SELECT current_database() AS db, name FROM t')).toEqual([
        { db: databaseOf(one), name: databaseOf(one) },
      ]);
      expect(await query(two, 'SELECT name FROM t')).toEqual([{ name: 'pg_cluster_named' }]);

      const held = new pg.Client({ connectionString: one });
      await held.connect();
      held.on('error', () => {}); // the forced drop ends this session
      await dropDatabase(cluster.adminUrl, one); // even with a session still open
      await dropDatabase(cluster.adminUrl, one); // already gone: no error
      await held.end().catch(() => {});
      const names = await query(cluster.adminUrl, 'SELECT datname FROM pg_database WHERE datname LIKE $1', ['%_%']);
      expect(names.map((row) => row.datname)).not.toContain(databaseOf(one));
      await expect(createDatabase(cluster.adminUrl, 'bad"name')).rejects.toThrow(/unsafe database name/);
    } finally {
      const stopping = Date.now();
      await cluster.stop();
      console.log(`pg-cluster: start ${startMs} ms, stop ${Date.now() - stopping} ms`);
    }
    expect(existsSync(cluster.dataDir)).toBe(false);
    expect(existsSync(cluster.socketDir)).toBe(false);
    expect(existsSync(path.dirname(cluster.dataDir))).toBe(false);
    await cluster.stop(); // twice is fine
  }, 60_000);

  it('is stopped and removed when the Node process that started it exits without stop()', async () => {
    const script = [
      "const { startThrowawayCluster } = await import('./scripts/pg-cluster.ts');",
      'const cluster = await startThrowawayCluster();',
      'console.log(cluster.dataDir);',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    const dataDir = out.trim();
    expect(dataDir).toMatch(/pg-cluster-.+\/data$/);
    expect(existsSync(path.dirname(dataDir))).toBe(false);
  }, 60_000);

  it('runs from the command line until it is told to stop', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/pg-cluster.ts', 'start'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.trim());
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    expect(await query(url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    const socketDir = new URL(url.replace('@/', '@x/')).searchParams.get('host') ?? '';
    child.kill('SIGINT');
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    expect(existsSync(path.dirname(socketDir))).toBe(false);
  }, 60_000);
});
