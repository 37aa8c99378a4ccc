import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface AppConfig {
  /** SQLite file, published site configs and uploads. */
  dataDir: string;
  /** The demo event: race.json, site-configs/, i18n/, files/, the cloud config index. */
  seedDir: string;
  /** The built SPA, when it is served. */
  staticDir?: string;
  now: () => number;
  /** How often an instance compares the races' data versions to drop stale cached lookups (ms). */
  dataVersionPollMs: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
  }
}

/** Makes the resolved options available to every route as `app.config`. */
export default fp(
  async function appConfigPlugin(app: FastifyInstance, config: AppConfig) {
    app.decorate('config', {
      dataDir: config.dataDir,
      seedDir: config.seedDir,
      staticDir: config.staticDir,
      now: config.now,
      dataVersionPollMs: config.dataVersionPollMs,
    });
  },
  { name: 'app-config' },
);
