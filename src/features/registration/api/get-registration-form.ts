import { API_PATHS } from '#contract/api';
import type { PublishedForm } from '#contract/registration-form';
import { apiRequest } from '@/lib/api-client';

export type { PublishedForm };

/** GET the published registration form of a race and channel; the page shows a failure itself. */
export async function getRegistrationForm(raceId: string, channel: string): Promise<PublishedForm> {
  const envelope = await apiRequest<PublishedForm>({
    method: 'GET',
    url: API_PATHS.registrationForm,
    params: { raceId, channel },
    silent: 'answers',
  });
  return envelope.data;
}
