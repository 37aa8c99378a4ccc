import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openDatabase } from '../db/database.ts';
import type { Repositories } from '../db/repositories.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    repos: Repositories;
  }
}

export interface DbPluginOptions {
  dataDir: string;
  seedDir: string;
  now: () => number;
}

/** Opens (creating, migrating and seeding on first start) the SQLite database; closes it with the app. */
async function dbPlugin(app: FastifyInstance, options: DbPluginOptions) {
  const { db, repos, seed } = openDatabase({ dataDir: options.dataDir, seedDir: options.seedDir, now: options.now() });
  if (seed.seeded) app.log.info({ raceId: seed.raceId, domains: seed.domains }, 'seeded the demo event');
  else if (seed.reason === 'no-seed')
    app.log.warn(`no seed found in ${options.seedDir} (race.json); the database is empty`);

  app.decorate('db', db);
  app.decorate('repos', repos);
  app.addHook('onClose', async () => {
    db.close();
  });
}

export default fp(dbPlugin, { name: 'db' });
