import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OpenedDatabase } from '../db/database.ts';
import type { Db } from '../db/engine.ts';
import type { Repositories } from '../db/repositories.ts';
import type { FileStore } from '../lib/file-store.ts';
import type { ServerSecrets } from '../lib/secrets.ts';

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
  /** The database buildApp opened (openDatabase: created, migrated and seeded) before any plugin started. */
  opened: OpenedDatabase;
  seedDir: string;
}

/**
 * Decorates the app with the database buildApp opened, and closes it with the app. The opening (migrations
 * and, on the first start, the demo seed: 30,000 runners) happens before the plugins, outside Fastify's
 * plugin timeout (10 s per plugin): on an empty PostgreSQL database far from the server the seed may take
 * longer, and a start must not fail for it ("Plugin did not start in time: 'db'").
 */
async function dbPlugin(app: FastifyInstance, options: DbPluginOptions) {
  const { db, repos, files, secrets, seed } = options.opened;
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
