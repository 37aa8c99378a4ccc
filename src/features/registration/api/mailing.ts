import { API_PATHS } from '#contract/api';
import type { MailingAnswer, MailingSaveAnswer, MailingSaveRequest } from '#contract/registration-screens';
import { apiRequest } from '@/lib/api-client';

/** GET the race-pack mailing settings and the runner's choice. */
export async function getMailing(raceId: string): Promise<MailingAnswer> {
  const envelope = await apiRequest<MailingAnswer>({
    method: 'GET',
    url: API_PATHS.mailingGet,
    params: { raceId },
    silent: 'answers',
  });
  return envelope.data;
}

/** POST the runner's choice (mail with an address, or pick-up). */
export async function saveMailing(request: MailingSaveRequest): Promise<MailingSaveAnswer> {
  const envelope = await apiRequest<MailingSaveAnswer>({
    method: 'POST',
    url: API_PATHS.mailingSave,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}
