import { apiRequest } from '@/lib/api-client';
import { API_PATHS } from '#contract/api';
import type { ScoreResult } from '../types/search-types';

export async function searchHistory(query: {
  name: string;
  certificateNumber: string;
  raceIds?: string[];
}): Promise<ScoreResult[]> {
  const { data } = await apiRequest<ScoreResult[] | null>({
    method: 'POST',
    url: API_PATHS.searchHistory,
    data: query,
  });
  return data ?? [];
}
