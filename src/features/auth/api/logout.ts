import { API_PATHS } from '@/config/api-paths';
import { apiRequest } from '@/lib/api-client';

/** POST logout with the token header (added by the api client); failures are silent, login is cleared anyway. */
export async function logout(): Promise<void> {
  await apiRequest<unknown>({ method: 'POST', url: API_PATHS.logout, silent: true });
}
