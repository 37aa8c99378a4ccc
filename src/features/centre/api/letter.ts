import type { LetterAnswer, LetterEntry, LetterSignRequest } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

/** GET the race's commitment letter and the account's entries that sign it. */
export async function getLetter(raceId: string): Promise<LetterAnswer> {
  const envelope = await apiRequest<LetterAnswer>({
    method: 'GET',
    url: API_PATHS.letterGet,
    params: { raceId },
    silent: 'answers',
  });
  return envelope.data;
}

/** POST a signature; the page shows a refusal itself (field refusals beside their fields). */
export async function signLetter(request: LetterSignRequest): Promise<LetterEntry> {
  const envelope = await apiRequest<LetterEntry>({
    method: 'POST',
    url: API_PATHS.letterSign,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}
