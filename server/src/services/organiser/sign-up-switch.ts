/**
 * Opening and closing a race's sign-up by hand (the CLI's entry-open and entry-close): race info
 * signUpOpenStatus 1 or 0. The public answers cached from the race's data are dropped on every instance
 * (race-center data versions), so the site shows the change within seconds.
 */
import type { RaceInfo } from '#contract/site-config/race-types';
import type { Repositories } from '../../db/repositories.ts';

export type SignUpSwitchOutcome = { ok: true; race: RaceInfo; changed: boolean } | { ok: false; reason: 'noRace' };

/** Sets the race's sign-up open or closed: the race as it was, and whether anything changed. */
export async function setSignUpOpen(
  repos: Repositories,
  raceId: string,
  open: boolean,
  now: number,
): Promise<SignUpSwitchOutcome> {
  const race = await repos.races.findById(raceId);
  if (!race) return { ok: false, reason: 'noRace' };
  const status = open ? 1 : 0;
  if (race.signUpOpenStatus === status) return { ok: true, race, changed: false };
  await repos.transaction(async (tx) => {
    // Read again inside the transaction: an edit of the race meanwhile (add-race) is kept.
    const current = (await tx.races.findById(raceId)) ?? race;
    await tx.races.save({ ...current, signUpOpenStatus: status }, now);
    await tx.entryAdmin.bumpRaceVersion(raceId);
  });
  return { ok: true, race, changed: true };
}
