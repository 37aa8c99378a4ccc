import { apiRequest } from '@/lib/api-client';
import { API_PATHS } from '@/config/api-paths';
import type { RegistrationResult } from '../types/search-types';

export interface RegistrationQuery {
  raceId: string;
  name: string;
  certificateType: number;
  certificateNumber: string;
}

/** POST searchRegistration; not found rejects with the server's message ('Registration information does not exist'). */
export async function searchRegistration(query: RegistrationQuery): Promise<RegistrationResult> {
  const { data } = await apiRequest<RegistrationResult>({ method: 'POST', url: API_PATHS.searchRegistration, data: query });
  return data;
}
