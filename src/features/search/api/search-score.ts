import { apiRequest } from '@/lib/api-client';
import { API_PATHS } from '#contract/api';
import type { ScoreResult } from '../types/search-types';

export type ScoreQuery = { raceId: string; bib: string } | { raceId: string; name: string; certificateNumber: string };

/** POST searchScore: one result or a list (a runner in several items); always a list here. */
export async function searchScore(query: ScoreQuery): Promise<ScoreResult[]> {
  const { data } = await apiRequest<ScoreResult | ScoreResult[] | null>({
    method: 'POST',
    url: API_PATHS.searchScore,
    data: query,
  });
  if (!data) return [];
  return Array.isArray(data) ? data : [data];
}
