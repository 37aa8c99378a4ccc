import { API_PATHS } from '#contract/api';
import type { DirectMineAnswer, DirectSaveAnswer, DirectSaveRequest } from '#contract/registration-screens';
import { apiRequest } from '@/lib/api-client';

/** GET the direct-pass window and the runner's application for a race. */
export async function getDirectMine(raceId: string): Promise<DirectMineAnswer> {
  const envelope = await apiRequest<DirectMineAnswer>({
    method: 'GET',
    url: API_PATHS.directMine,
    params: { raceId },
    silent: 'answers',
  });
  return envelope.data;
}

/**
 * POST the application: a draft (submit false) or the submission. A refusal rejects with an ApiError whose
 * `data.fields` holds the refusal of each field (shown on the fields; not toasted).
 */
export async function saveDirect(request: DirectSaveRequest): Promise<DirectSaveAnswer> {
  const envelope = await apiRequest<DirectSaveAnswer>({
    method: 'POST',
    url: API_PATHS.directSave,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}
