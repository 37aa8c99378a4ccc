import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

/** POST logout with the token header (added by the api client); failures are silent, login is cleared anyway. */
export async function logout(): Promise<void> {
  await apiRequest<unknown>({ method: 'POST', url: API_PATHS.logout, silent: true });
}
