import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openDatabase } from '../db/database.ts';
import type { Db } from '../db/engine.ts';
import type { Repositories } from '../db/repositories.ts';
import type { FileStore } from '../lib/file-store.ts';
import type { ServerSecrets } from '../lib/secrets.ts';
import type { Env } from '../lib/env.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    repos: Repositories;
    /** Uploads and published site configs (lib/file-store.ts). */
    files: FileStore;
    secrets: ServerSecrets;
  }
}

export interface DbPluginOptions {
  dataDir: string;
  seedDir: string;
  now: () => number;
  env: Env;
}

/**
 * Opens (creating, migrating and seeding on first start) the database: SQLite in the data folder, or the
 * PostgreSQL database of DATABASE_URL. Closes it with the app.
 */
async function dbPlugin(app: FastifyInstance, options: DbPluginOptions) {
  const { db, repos, files, secrets, seed } = await openDatabase({
    dataDir: options.dataDir,
    seedDir: options.seedDir,
    now: options.now(),
    env: options.env,
    warn: (line) => app.log.warn(line),
  });
  if (seed.seeded) app.log.info({ raceId: seed.raceId, domains: seed.domains }, 'seeded the demo event');
  else if (seed.reason === 'no-seed')
    app.log.warn(`no seed found in ${options.seedDir} (race.json); the database is empty`);

  app.decorate('db', db);
  app.decorate('repos', repos);
  app.decorate('files', files);
  app.decorate('secrets', secrets);
  app.addHook('onClose', async () => {
    await db.close();
  });
}

export default fp(dbPlugin, { name: 'db' });
