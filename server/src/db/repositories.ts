import type { Database } from 'better-sqlite3';
import { createBindingsRepository } from './bindings-repository.ts';
import { createCaptchaRepository } from './captcha-repository.ts';
import { createCodesRepository } from './codes-repository.ts';
import { createOutboxRepository } from './outbox-repository.ts';
import { createRaceCenterRepository } from './race-center-repository.ts';
import { createRacesRepository } from './races-repository.ts';
import { createRateHitsRepository } from './rate-hits-repository.ts';
import { createSiteConfigsRepository } from './site-configs-repository.ts';
import { createTokensRepository } from './tokens-repository.ts';
import { createUploadsRepository } from './uploads-repository.ts';
import { createUsersRepository } from './users-repository.ts';

/** The secrets of the stored verification-code and certificate-number hashes (lib/secrets.ts). */
export function createRepositories(db: Database, keys: { code: string; certNumber: string }) {
  return {
    races: createRacesRepository(db),
    bindings: createBindingsRepository(db),
    siteConfigs: createSiteConfigsRepository(db),
    users: createUsersRepository(db),
    tokens: createTokensRepository(db),
    codes: createCodesRepository(db, keys.code),
    captcha: createCaptchaRepository(db),
    outbox: createOutboxRepository(db),
    raceCenter: createRaceCenterRepository(db, keys.certNumber),
    uploads: createUploadsRepository(db),
    rateHits: createRateHitsRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
