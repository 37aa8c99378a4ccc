import { apiRequest } from '@/lib/api-client';
import { API_PATHS } from '#contract/api';
import type { Photo } from '../types/search-types';

export async function searchPhotos(query: { raceId: string; bib: string }): Promise<Photo[]> {
  const { data } = await apiRequest<Photo[] | null>({ method: 'POST', url: API_PATHS.searchPhotos, data: query });
  return data ?? [];
}
