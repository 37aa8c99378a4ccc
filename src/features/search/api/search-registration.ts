import { apiRequest } from '@/lib/api-client';
import { API_PATHS } from '#contract/api';
import type {
  RegistrationInfoType,
  RegistrationQueryType,
  RegistrationResult,
  RegistrationStatusResult,
} from '../types/search-types';

export interface RegistrationQuery {
  raceId: string;
  name: string;
  certificateType: number;
  certificateNumber: string;
  /** 1 registration status (default), 2 third-party, 3 web, 5 app registration info. */
  queryType: RegistrationQueryType;
}

export type RegistrationAnswer =
  { queryType: 1; status: RegistrationStatusResult } | { queryType: RegistrationInfoType; info: RegistrationResult };

/**
 * POST searchRegistration. Its answers are silent (transport failures still toast): the page shows the failure itself (not found: the dictionary's
 * 'Registration information does not exist', in the visitor's language).
 */
export async function searchRegistration(query: RegistrationQuery): Promise<RegistrationAnswer> {
  if (query.queryType === 1) {
    const { data } = await apiRequest<RegistrationStatusResult>({
      method: 'POST',
      url: API_PATHS.searchRegistration,
      data: query,
      silent: 'answers',
    });
    return { queryType: 1, status: data };
  }
  const { data } = await apiRequest<RegistrationResult>({
    method: 'POST',
    url: API_PATHS.searchRegistration,
    data: query,
    silent: 'answers',
  });
  return { queryType: query.queryType, info: data };
}
