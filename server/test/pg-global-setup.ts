// vitest globalSetup for the server tests on PostgreSQL (TEST_DB=postgres): provides the admin URL of a
// server that pg-test-database.ts creates one fresh database on per test app.
// - DATABASE_URL set: that server (CI's or a developer's) is used, as a user allowed to CREATE DATABASE.
// - otherwise: a throwaway server from scripts/pg-cluster.ts, stopped and removed at teardown.
// Every database of this run is named <pgDatabasePrefix>…, and teardown drops them all.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase, startThrowawayCluster } from '../../scripts/pg-cluster.ts';
import { migrate } from '../src/db/database.ts';
import { openEngine } from '../src/db/engine.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the PostgreSQL server the tests create their databases on (TEST_DB=postgres only). */
    pgAdminUrl: string;
    /** The name prefix of this run's databases, e.g. test_1a2b3c_. */
    pgDatabasePrefix: string;
    /** This run's database with every migration applied and nothing else, which test databases copy. */
    pgTemplateDatabase: string;
  }
}

async function dropRunDatabases(adminUrl: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // The project's env (vitest.config.ts, server-pg) or the caller's.
  if ((project.config.env?.TEST_DB ?? process.env.TEST_DB) !== 'postgres') return undefined;
  const prefix = `test_${randomBytes(3).toString('hex')}_`;
  project.provide('pgDatabasePrefix', prefix);
  const given = process.env.DATABASE_URL;
  if (given) {
    project.provide('pgAdminUrl', given);
    project.provide('pgTemplateDatabase', await migratedTemplate(given, prefix));
    return () => dropRunDatabases(given, prefix);
  }
  const cluster = await startThrowawayCluster();
  project.provide('pgAdminUrl', cluster.adminUrl);
  project.provide('pgTemplateDatabase', await migratedTemplate(cluster.adminUrl, prefix));
  return () => cluster.stop(); // its databases go with it
}

/** A database of this run with every migration applied (the server's own migrate) and no data: its name. */
async function migratedTemplate(adminUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}template`;
  const { db } = openEngine({ engine: 'postgres', url: await createDatabase(adminUrl, name), poolSize: 1 });
  try {
    await migrate(db, Date.now());
  } finally {
    await db.close();
  }
  return name;
}
