/**
 * Server secrets kept in the data directory: random, created on first use (mode 0600), shared by every worker
 * process and kept across restarts. `cert-secret` signs e-certificates (CERT_SECRET overrides it);
 * `code-secret` and `id-number-secret` key the stored hashes of verification codes and of certificate (ID)
 * numbers, so that a copy of the database alone gives neither away (both are quickly found from a plain hash).
 * The database and these files belong together: move or back up the whole data folder.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseServerEnv, type Env } from './env.ts';

export function dataSecret(dataDir: string, name: 'cert-secret' | 'code-secret' | 'id-number-secret'): string {
  const file = path.join(dataDir, name);
  if (!existsSync(file)) {
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another worker wrote it first.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

export function certificateSecret(dataDir: string, env: Env): string {
  return parseServerEnv(env, ['CERT_SECRET']).CERT_SECRET ?? dataSecret(dataDir, 'cert-secret');
}
