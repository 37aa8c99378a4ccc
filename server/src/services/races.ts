/**
 * The races a request names: the one lookup most routes start with (a race that does not exist is their
 * 404 raceNotFound).
 */
import type { RaceInfo } from '#contract/site-config/race-types';
import type { Repositories } from '../db/repositories.ts';

/** The race `raceId`, or undefined when there is none. */
export const raceById = (repos: Repositories, raceId: string): Promise<RaceInfo | undefined> =>
  repos.races.findById(raceId);

/** A race refused by saveRace: why (a capacity below the places or slot bookings already taken). */
class RaceRefused extends Error {}

/**
 * Adds or updates a race (`site add-race`) with the places of its sign-up items and its pick-up slots, in one
 * transaction: a capacity below what is already taken refuses all of it, and nothing is saved.
 */
export async function saveRace(
  repos: Repositories,
  race: RaceInfo,
  now: number,
): Promise<{ ok: true; saved: 'inserted' | 'updated' } | { ok: false; problem: string }> {
  try {
    const saved = await repos.transaction(async (tx) => {
      const outcome = await tx.races.save(race, now);
      const places = await tx.entries.syncPlaces(race.raceId, race.entry);
      if (!places.ok) throw new RaceRefused(places.problem);
      const slots = await tx.pickup.syncSlots(race.raceId, race.packPickup);
      if (!slots.ok) throw new RaceRefused(slots.problem);
      return outcome;
    });
    return { ok: true, saved };
  } catch (error) {
    if (error instanceof RaceRefused) return { ok: false, problem: error.message };
    throw error;
  }
}
