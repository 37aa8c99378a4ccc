import { useEffect, useState } from 'react';
import { getRacesWithResults } from '../api/get-races-with-results';
import type { RaceWithResults } from '../types/search-types';

/**
 * The races a visitor of this site can look up results in (the organiser's races with results, latest
 * first), loaded once for the bound race; an empty list while loading or when the call fails.
 */
export function useRacesWithResults(boundRaceId: string): RaceWithResults[] {
  const [races, setRaces] = useState<RaceWithResults[]>([]);
  useEffect(() => {
    if (!boundRaceId) return;
    let live = true;
    getRacesWithResults(boundRaceId).then(
      (list) => live && setRaces(list),
      () => live && setRaces([]),
    );
    return () => {
      live = false;
    };
  }, [boundRaceId]);
  return races;
}

/**
 * The race a lookup asks about: the one picked among the races with results, else the latest of them, else
 * the bound race (no list: the call failed, or no race has results yet).
 */
export function usePickedResultRace(boundRaceId: string): {
  races: RaceWithResults[];
  raceId: string;
  pick: (raceId: string) => void;
} {
  const races = useRacesWithResults(boundRaceId);
  const [picked, setPicked] = useState<string | null>(null);
  const raceId = (picked !== null && races.some((r) => r.raceId === picked) ? picked : races[0]?.raceId) ?? boundRaceId;
  return { races, raceId, pick: setPicked };
}
