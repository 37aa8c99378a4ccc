import { API_PATHS } from '#contract/api';
import type { ParticipantSaveRequest, SavedParticipant } from '#contract/after-entry';
import { apiRequest } from '@/lib/api-client';

/** GET the account's saved participants (numbers masked). */
export async function listParticipants(): Promise<SavedParticipant[]> {
  const envelope = await apiRequest<SavedParticipant[]>({
    method: 'GET',
    url: API_PATHS.participantList,
    silent: 'answers',
  });
  return envelope.data;
}

/** POST a new participant (no id) or the edited one; field refusals come back as an ApiError with `data.fields`. */
export async function saveParticipant(request: ParticipantSaveRequest): Promise<SavedParticipant> {
  const envelope = await apiRequest<SavedParticipant>({
    method: 'POST',
    url: API_PATHS.participantSave,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}

/** POST delete of one participant. */
export async function deleteParticipant(id: number): Promise<void> {
  await apiRequest<null>({ method: 'POST', url: API_PATHS.participantDelete, data: { id }, silent: 'answers' });
}
