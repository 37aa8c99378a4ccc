import { API_PATHS } from '#contract/api';
import type { SavedParticipant } from '#contract/after-entry';
import { apiRequest } from '@/lib/api-client';

/** GET the account's saved participants (numbers masked) for the sign-up's "choose from my participants". */
export async function getSavedParticipants(): Promise<SavedParticipant[]> {
  const envelope = await apiRequest<SavedParticipant[]>({
    method: 'GET',
    url: API_PATHS.participantList,
    silent: true,
  });
  return envelope.data;
}
