/**
 * /confirm (issue 13 §4): a runner finds their registration by name + certificate after a passed slider
 * check, then confirms its details within CONFIRM_AFTER_SEARCH_MS of that account's search. The registration
 * is answered as the registration lookup answers it (numbers masked; imported or made on the site), with
 * `confirmedAt` once confirmed. The routes (routes/registration/confirm.ts) check the login, the slider and
 * the key's fields first.
 */
import type { ConfirmRequest } from '#contract/registration-screens';
import type { Repositories } from '../../db/repositories.ts';
import { raceCenterServiceOn } from '../race-center/race-center-service.ts';

/** How long after a search its runner may confirm without sliding again. */
export const CONFIRM_AFTER_SEARCH_MS = 30 * 60_000;

export function createRegistrationConfirmation(deps: {
  repos: Repositories;
  certificateSecret: string;
  now: () => number;
}) {
  const { repos, now } = deps;
  const raceCenter = raceCenterServiceOn(repos, { certificateSecret: deps.certificateSecret, now });

  /** The registration of a runner key and its answer (with confirmedAt, read when answered), or undefined. */
  async function findRegistration(key: ConfirmRequest) {
    const found = await raceCenter.registrationInfo(key.raceId, key);
    if (!found) return undefined;
    const { certHash, info } = found;
    const answer = async () => {
      const confirmedAt = await repos.runnerChoices.confirmedAt(info.raceId, certHash);
      return { ...info, ...(confirmedAt ? { confirmedAt } : {}) };
    };
    return { certHash, answer };
  }

  return {
    /** The registration of `key`, its search recorded for `userId`; undefined when there is none. */
    async search(key: ConfirmRequest, userId: number) {
      const found = await findRegistration(key);
      if (!found) return undefined;
      await repos.runnerChoices.recordSearch(key.raceId, found.certHash, userId, now());
      return found.answer();
    },

    /**
     * Confirms the registration of `key` for `userId`: 'slideFirst' without a recent search of this account
     * (nothing is told, not even whether it exists), 'registrationMissing' when there is none.
     */
    async confirm(key: ConfirmRequest, userId: number) {
      const at = now();
      const certHash = repos.raceCenter.certHash(key.certificateNumber);
      const searched = await repos.runnerChoices.searchedAt(key.raceId, certHash, userId);
      if (searched === undefined || at - searched > CONFIRM_AFTER_SEARCH_MS) return 'slideFirst' as const;
      const found = await findRegistration(key);
      if (!found) return 'registrationMissing' as const;
      await repos.runnerChoices.confirm(key.raceId, found.certHash, userId, at);
      return { registration: await found.answer() };
    },
  };
}
