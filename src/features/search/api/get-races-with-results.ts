import { apiRequest } from '@/lib/api-client';
import { API_PATHS } from '#contract/api';
import type { RaceWithResults } from '../types/search-types';

/**
 * GET racesWithResults: the races of the bound race's organiser that have results, latest first. Silent:
 * without the list the score page searches the bound race, as before.
 */
export async function getRacesWithResults(raceId: string): Promise<RaceWithResults[]> {
  const { data } = await apiRequest<RaceWithResults[] | null>({
    method: 'GET',
    url: API_PATHS.racesWithResults,
    params: { raceId },
    silent: true,
  });
  return Array.isArray(data) ? data : [];
}
