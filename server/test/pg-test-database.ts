import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase } from '../../scripts/pg-cluster.ts';
import type {} from './pg-global-setup.ts'; // its ProvidedContext keys

/**
 * A fresh PostgreSQL database for one test app (its URL), or undefined unless TEST_DB=postgres. One per call, so
 * test apps never share data; pg-global-setup.ts drops them all at teardown. It is a copy of the run's migrated
 * template (every migration applied, no data, no stored secret), as a server's first start leaves it before
 * seeding: applying the migrations to each new database was most of a test app's start on PostgreSQL. `empty`:
 * a database without even the migrations (for a test that migrates from an older state).
 */
export async function testDatabaseUrl({ empty = false }: { empty?: boolean } = {}): Promise<string | undefined> {
  if (process.env.TEST_DB !== 'postgres') return undefined;
  const adminUrl = inject('pgAdminUrl');
  const prefix = inject('pgDatabasePrefix');
  if (!adminUrl || !prefix) {
    throw new Error('TEST_DB=postgres needs server/test/pg-global-setup.ts as the vitest globalSetup');
  }
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  return createDatabase(adminUrl, name, empty ? undefined : inject('pgTemplateDatabase'));
}
