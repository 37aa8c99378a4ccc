import { apiRequest } from '@/lib/api-client';
import { API_PATHS } from '#contract/api';
import type { PbItem } from '../types/search-types';

export async function searchPb(query: { name: string; certificateNumber: string }): Promise<PbItem[]> {
  const { data } = await apiRequest<PbItem[] | null>({ method: 'POST', url: API_PATHS.searchPb, data: query });
  return data ?? [];
}
