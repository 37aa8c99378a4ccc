import { API_PATHS } from '#contract/api';
import type { ConfirmRegistration, ConfirmRequest, ConfirmSearchRequest } from '#contract/registration-screens';
import { apiRequest } from '@/lib/api-client';

/** POST the confirmation search (after a passed slider check): the runner's registration, numbers masked. */
export async function searchConfirm(request: ConfirmSearchRequest): Promise<ConfirmRegistration> {
  const envelope = await apiRequest<ConfirmRegistration>({
    method: 'POST',
    url: API_PATHS.confirmSearch,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}

/** POST the runner's confirmation of the details; answers the registration with `confirmedAt`. */
export async function confirmRegistration(request: ConfirmRequest): Promise<ConfirmRegistration> {
  const envelope = await apiRequest<ConfirmRegistration>({
    method: 'POST',
    url: API_PATHS.confirm,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}
