import { API_PATHS } from '#contract/api';
import { apiRequest, OS_ID } from '@/lib/api-client';

/** GET whether an email already has an account (truthy data = registered). */
export async function checkEmailRegistered(email: string): Promise<boolean> {
  const envelope = await apiRequest<unknown>({
    method: 'GET',
    url: API_PATHS.emailRegistered,
    params: { email: email.trim(), osId: OS_ID },
    silent: true,
  });
  return !!envelope.data;
}
