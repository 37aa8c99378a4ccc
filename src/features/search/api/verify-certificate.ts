import { apiRequest } from '@/lib/api-client';
import { API_PATHS } from '#contract/api';
import type { VerifyAnswer } from '../types/search-types';

/** GET certificateVerify: the facts when the signature matches; answers silent, the page shows the outcome. */
export async function verifyCertificate(id: string, sig: string): Promise<VerifyAnswer> {
  const { data } = await apiRequest<VerifyAnswer>({
    method: 'GET',
    url: API_PATHS.certificateVerify,
    params: { id, sig },
    silent: 'answers',
  });
  return data && data.valid ? data : { valid: false };
}
