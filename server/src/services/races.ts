/**
 * The races a request names: the one lookup most routes start with (a race that does not exist is their
 * 404 raceNotFound).
 */
import type { RaceInfo } from '#contract/site-config/race-types';
import type { Repositories } from '../db/repositories.ts';

/** The race `raceId`, or undefined when there is none. */
export const raceById = (repos: Repositories, raceId: string): Promise<RaceInfo | undefined> =>
  repos.races.findById(raceId);
