/**
 * A race as the organiser's tools see it (the CLI's entry commands and, later, the console): its clock and its
 * item codes, and how an item typed by a person is matched to one of them.
 */
import type { EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { Repositories } from '../../db/repositories.ts';

export const entrySettings = (race: RaceInfo): EntrySettings | undefined => (race as { entry?: EntrySettings }).entry;

export interface RaceContext {
  race: RaceInfo;
  zone: string;
  /** The race's item codes: race.json `entry.items`, and any item that has places. */
  items: string[];
}

export async function raceContext(repos: Repositories, raceId: string): Promise<RaceContext | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  const items = [
    ...new Set([
      ...(entrySettings(race)?.items.map((i) => i.code) ?? []),
      ...(await repos.entryAdmin.placeItems(raceId)),
    ]),
  ];
  return { race, zone: raceTimeZone(race), items };
}

/** The race's item code for `text` (item codes compare without case), or undefined. */
export const findItem = (context: RaceContext, text: string) =>
  context.items.find((code) => code === text) ??
  context.items.find((code) => code.toUpperCase() === text.toUpperCase());

/** Why `text` is no item of the race, with the race's items. */
export const unknownItemText = (context: RaceContext, text: string) =>
  context.items.length === 0
    ? `Race ${context.race.raceId} has no sign-up items (race.json "entry.items").`
    : `No item "${text}" in race ${context.race.raceId} (items: ${context.items.join(', ')}).`;
