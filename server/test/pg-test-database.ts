import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase } from '../../scripts/pg-cluster.ts';
import type {} from './pg-global-setup.ts'; // its ProvidedContext keys

/**
 * A fresh, empty PostgreSQL database for one test app (its URL), or undefined unless TEST_DB=postgres.
 * One per call, so test apps never share data; pg-global-setup.ts drops them all at teardown.
 */
export async function testDatabaseUrl(): Promise<string | undefined> {
  if (process.env.TEST_DB !== 'postgres') return undefined;
  const adminUrl = inject('pgAdminUrl');
  const prefix = inject('pgDatabasePrefix');
  if (!adminUrl || !prefix) {
    throw new Error('TEST_DB=postgres needs server/test/pg-global-setup.ts as the vitest globalSetup');
  }
  return createDatabase(adminUrl, `${prefix}${randomBytes(6).toString('hex')}`);
}
