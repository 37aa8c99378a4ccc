/**
 * This process's copies of races (by races.version) and of published forms (by version: a published version
 * never changes), read only: frozen, so no caller can change what the next submission reads. A submission reads
 * the versions in its first query (submissionStart) and parses a race or reads a form only when it changed.
 */
import type { PublishedForm } from '#contract/registration-form';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { Repositories } from '../../../db/repositories.ts';

/** How many races, and published forms, a process keeps copies of (far more than an organiser has). */
const SEEN_LIMIT = 1000;

/** The value, and every object in it, made read-only. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function createRaceCopies(repos: Repositories) {
  const seenRaces = new Map<string, { version: number; race: RaceInfo }>();
  const seenForms = new Map<string, PublishedForm>();
  const formKey = (raceId: string, channel: string, version: number) => `${raceId}\n${channel}\n${version}`;

  return {
    /** The copy of the race this process has, with its version, if any. */
    seen: (raceId: string) => seenRaces.get(raceId),

    /** The race of this version from its stored text, kept as this process's copy. */
    keep(raceId: string, version: number, json: string): RaceInfo {
      const race = deepFreeze(JSON.parse(json) as RaceInfo);
      if (seenRaces.size >= SEEN_LIMIT) seenRaces.clear();
      seenRaces.set(raceId, { version, race });
      return race;
    },

    /** The race's published form of `channel`: this process's copy when `version` (read with the race) is known. */
    async publishedForm(
      raceId: string,
      channel: string,
      channelRead: string | null,
      version: number | null,
    ): Promise<PublishedForm | undefined> {
      if (channel === channelRead && version !== null) {
        const kept = seenForms.get(formKey(raceId, channel, version));
        if (kept) return kept;
      }
      const published = await repos.registrationForms.latest(raceId, channel);
      if (published) {
        if (seenForms.size >= SEEN_LIMIT) seenForms.clear();
        seenForms.set(formKey(raceId, channel, published.version), deepFreeze(published));
      }
      return published;
    },
  };
}
