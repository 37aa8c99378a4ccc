import {
  STAFF_KEY_HEADER,
  type PickupAnswer,
  type PickupBookingView,
  type PickupCheckInAnswer,
} from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

/** GET the race's pick-up slots and the account's entries with their bookings (the page shows refusals itself). */
export async function getPickup(raceId: string): Promise<PickupAnswer> {
  const envelope = await apiRequest<PickupAnswer>({
    method: 'GET',
    url: API_PATHS.pickupGet,
    params: { raceId },
    silent: 'answers',
  });
  return envelope.data;
}

/** POST book (or change to) a slot; a refusal is shown as a toast. */
export async function bookPickup(raceId: string, entryNo: string, slotId: string): Promise<PickupBookingView> {
  const envelope = await apiRequest<PickupBookingView>({
    method: 'POST',
    url: API_PATHS.pickupBook,
    data: { raceId, entryNo, slotId },
  });
  return envelope.data;
}

/** POST cancel the entry's booking; a refusal is shown as a toast. */
export async function cancelPickup(raceId: string, entryNo: string): Promise<void> {
  await apiRequest<null>({ method: 'POST', url: API_PATHS.pickupCancel, data: { raceId, entryNo } });
}

/** POST check a pass in with the staff key (the staff screen shows the answer or the refusal itself). */
export async function checkInPass(raceId: string, passCode: string, staffKey: string): Promise<PickupCheckInAnswer> {
  const envelope = await apiRequest<PickupCheckInAnswer>({
    method: 'POST',
    url: API_PATHS.pickupCheckIn,
    data: { raceId, passCode },
    headers: { [STAFF_KEY_HEADER]: staffKey },
    silent: 'answers',
  });
  return envelope.data;
}
