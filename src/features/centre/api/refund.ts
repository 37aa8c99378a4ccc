import type { RefundAnswer, RefundRequestBody, RefundRequestView } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

/** GET the race's refund terms and the account's entries with their requests (the page shows refusals itself). */
export async function getRefunds(raceId: string): Promise<RefundAnswer> {
  const envelope = await apiRequest<RefundAnswer>({
    method: 'GET',
    url: API_PATHS.refundGet,
    params: { raceId },
    silent: 'answers',
  });
  return envelope.data;
}

/** POST a refund or deferral request; a refusal is shown as a toast. */
export async function requestRefund(body: RefundRequestBody): Promise<RefundRequestView> {
  const envelope = await apiRequest<RefundRequestView>({ method: 'POST', url: API_PATHS.refundRequest, data: body });
  return envelope.data;
}
