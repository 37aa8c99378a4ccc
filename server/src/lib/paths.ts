import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository root (server/src/lib → ../../..). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
export const DEFAULT_DATA_DIR = path.join(REPO_ROOT, 'data');
export const DEFAULT_SEED_DIR = path.join(REPO_ROOT, 'server', 'seed');

/** The built SPA, when it has been built. */
export function defaultStaticDir(): string | undefined {
  const dist = path.join(REPO_ROOT, 'dist');
  return existsSync(path.join(dist, 'index.html')) ? dist : undefined;
}

export const DB_FILE_NAME = 'race-site.db';

export const dataPaths = (dataDir: string) => ({
  dbFile: path.join(dataDir, DB_FILE_NAME),
  siteConfigs: path.join(dataDir, 'site-configs'),
  uploads: path.join(dataDir, 'uploads'),
});
