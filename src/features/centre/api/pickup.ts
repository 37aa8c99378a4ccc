import {
  STAFF_KEY_HEADER,
  type PickupAnswer,
  type PickupBookingView,
  type PickupCheckInAnswer,
  type PickupStaffKeyAnswer,
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

/**
 * POST check a pass in with the staff key (the staff screen shows the answer or the refusal itself);
 * `outsideSlotConfirmed`: staff hand the pack over outside the pass's booked slot.
 */
export async function checkInPass(
  raceId: string,
  passCode: string,
  staffKey: string,
  outsideSlotConfirmed = false,
): Promise<PickupCheckInAnswer> {
  const envelope = await apiRequest<PickupCheckInAnswer>({
    method: 'POST',
    url: API_PATHS.pickupCheckIn,
    data: { raceId, passCode, ...(outsideSlotConfirmed ? { outsideSlotConfirmed } : {}) },
    headers: { [STAFF_KEY_HEADER]: staffKey },
    silent: 'answers',
  });
  return envelope.data;
}

/** POST check the staff key before the first scan (refused with staffKeyInvalid; the screen shows it itself). */
export async function checkStaffKey(raceId: string, staffKey: string): Promise<PickupStaffKeyAnswer> {
  const envelope = await apiRequest<PickupStaffKeyAnswer>({
    method: 'POST',
    url: API_PATHS.pickupStaffKey,
    data: { raceId },
    headers: { [STAFF_KEY_HEADER]: staffKey },
    silent: 'answers',
  });
  return envelope.data;
}
