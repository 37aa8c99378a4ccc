/**
 * The certificate signing secret: CERT_SECRET when set, otherwise a random secret kept in the data directory
 * (`cert-secret`, created on first start, mode 0600) so signatures survive restarts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function certificateSecret(dataDir: string, env: Record<string, string | undefined>): string {
  if (env.CERT_SECRET) return env.CERT_SECRET;
  const file = path.join(dataDir, 'cert-secret');
  if (!existsSync(file)) {
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}
