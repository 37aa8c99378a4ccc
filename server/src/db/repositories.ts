import { createAuditRepository } from './audit-repository.ts';
import { createBallotsRepository } from './ballots-repository.ts';
import { createBindingsRepository } from './bindings-repository.ts';
import { createCaptchaRepository } from './captcha-repository.ts';
import { createCodesRepository } from './codes-repository.ts';
import { createDirectApplicationsRepository } from './direct-applications-repository.ts';
import type { Db, TransactionOptions } from './engine.ts';
import { createEntriesRepository } from './entries-repository.ts';
import { createEntryAdminRepository } from './entry-admin-repository.ts';
import { createEntrySearchRepository } from './entry-search-repository.ts';
import { createJobsRepository } from './jobs-repository.ts';
import { createLettersRepository } from './letters-repository.ts';
import { createMessagesRepository } from './messages-repository.ts';
import { createOrdersRepository } from './orders-repository.ts';
import { createOutboxRepository } from './outbox-repository.ts';
import { createParticipantsRepository } from './participants-repository.ts';
import { createPaymentsRepository } from './payments-repository.ts';
import { createPickupRepository } from './pickup-repository.ts';
import { createRaceCenterRepository } from './race-center-repository.ts';
import { createRaceFiguresRepository } from './race-figures-repository.ts';
import { createReconciliationRepository } from './reconciliation-repository.ts';
import { createRacesRepository } from './races-repository.ts';
import { createSeasonRepository } from './season-repository.ts';
import { createRateCountsRepository } from './rate-counts-repository.ts';
import { createRateHitsRepository } from './rate-hits-repository.ts';
import { createRefundsRepository } from './refunds-repository.ts';
import { createRegistrationFormsRepository } from './registration-forms-repository.ts';
import { createRunnerChoicesRepository } from './runner-choices-repository.ts';
import { createSiteConfigsRepository } from './site-configs-repository.ts';
import { createSiteDraftsRepository } from './site-drafts-repository.ts';
import { createStaffRepository } from './staff-repository.ts';
import { createTokensRepository } from './tokens-repository.ts';
import { createUploadsRepository } from './uploads-repository.ts';
import { createUsersRepository } from './users-repository.ts';

/** The secrets of the stored verification-code and certificate-number hashes (lib/secrets.ts). */
export interface RepositoryKeys {
  code: string;
  idNumber: string;
}

function repositoriesOn(db: Db, keys: RepositoryKeys) {
  return {
    db,
    races: createRacesRepository(db),
    bindings: createBindingsRepository(db),
    siteConfigs: createSiteConfigsRepository(db),
    siteDrafts: createSiteDraftsRepository(db),
    users: createUsersRepository(db),
    tokens: createTokensRepository(db),
    codes: createCodesRepository(db, keys.code),
    captcha: createCaptchaRepository(db),
    outbox: createOutboxRepository(db),
    raceCenter: createRaceCenterRepository(db, keys.idNumber),
    uploads: createUploadsRepository(db),
    rateHits: createRateHitsRepository(db),
    rateCounts: createRateCountsRepository(db),
    jobs: createJobsRepository(db),
    registrationForms: createRegistrationFormsRepository(db),
    directApplications: createDirectApplicationsRepository(db, keys.idNumber),
    runnerChoices: createRunnerChoicesRepository(db, keys.idNumber),
    entries: createEntriesRepository(db, keys.idNumber),
    orders: createOrdersRepository(db),
    payments: createPaymentsRepository(db),
    ballots: createBallotsRepository(db, keys.idNumber),
    entryAdmin: createEntryAdminRepository(db, keys.idNumber),
    letters: createLettersRepository(db, keys.idNumber),
    pickup: createPickupRepository(db),
    refunds: createRefundsRepository(db),
    participants: createParticipantsRepository(db, keys.idNumber),
    staff: createStaffRepository(db, keys.idNumber),
    audit: createAuditRepository(db),
    raceFigures: createRaceFiguresRepository(db),
    entrySearch: createEntrySearchRepository(db, keys.idNumber),
    reconciliation: createReconciliationRepository(db),
    season: createSeasonRepository(db),
    messages: createMessagesRepository(db),
  };
}

export type Repositories = ReturnType<typeof repositoriesOn> & {
  /**
   * Runs `work` with repositories that all use one transaction. Inside it, use only the repositories it hands
   * over: on SQLite the outer ones wait until the transaction ends. `options.locks`: as Db.transaction.
   */
  transaction<T>(work: (tx: Repositories) => Promise<T>, options?: TransactionOptions): Promise<T>;
};

/** Every repository over one database handle. */
export function createRepositories(db: Db, keys: RepositoryKeys): Repositories {
  return {
    ...repositoriesOn(db, keys),
    transaction: (work, options) => db.transaction((tx) => work(createRepositories(tx, keys)), options),
  };
}
