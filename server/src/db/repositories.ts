import type { Database } from 'better-sqlite3';
import { createBindingsRepository } from './bindings-repository.ts';
import { createRacesRepository } from './races-repository.ts';
import { createSiteConfigsRepository } from './site-configs-repository.ts';
import { createTokensRepository } from './tokens-repository.ts';
import { createUsersRepository } from './users-repository.ts';

export function createRepositories(db: Database) {
  return {
    races: createRacesRepository(db),
    bindings: createBindingsRepository(db),
    siteConfigs: createSiteConfigsRepository(db),
    users: createUsersRepository(db),
    tokens: createTokensRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
