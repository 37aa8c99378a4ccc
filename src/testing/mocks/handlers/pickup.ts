/**
 * Pack pick-up calls (issue 15 §2: pickupGet, pickupBook, pickupCancel, pickupCheckIn) over a small in-memory
 * state that tests set and read (`pickupMock`, reset with `resetPickupMock`): places are taken and given back,
 * a pass is collected once, a staff key other than PICKUP_STAFF_KEY is refused. Tests add them with
 * `server.use(...pickupHandlers)` (with the centre's handlers, for the entries' orders).
 */
import { http, HttpResponse } from 'msw';
import {
  normalizePassCode,
  STAFF_KEY_HEADER,
  type PickupAnswer,
  type PickupBookingView,
  type PickupCheckInAnswer,
} from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { messageText, type MessageCode, type MessageParams } from '#contract/messages';
import { api } from '../base-url';
import { LOGIN_TOKEN } from './auth';
import { CENTRE_NOW } from './centre';
import { VALID_TOKEN } from './common';

const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'success', data });
const refuse = (code: number, msgCode: MessageCode, msgParams?: MessageParams) =>
  HttpResponse.json({
    code,
    msg: messageText(msgCode, msgParams),
    data: null,
    msgCode,
    ...(msgParams ? { msgParams } : {}),
  });
const loggedIn = (request: Request) => [VALID_TOKEN, LOGIN_TOKEN].includes(request.headers.get('token') ?? '');

export const PICKUP_STAFF_KEY = 'staff-key-of-desk-1';
export const PICKUP_PASS = 'ABCDE23456';

const TEN_K = { zh: '10公里', en: '10 km' };

/** The demo answer: two days, the first slot full; the paid entry E1002 may book, E1001 is unpaid. */
export function pickupAnswer(): PickupAnswer {
  return {
    raceId: 'test-race-2027',
    state: 'open',
    location: { zh: '青川国际会展中心 2 号馆', en: 'Hall 2, Qingchuan International Expo Centre' },
    notice: { zh: '请携带本人身份证件原件。', en: 'Bring your original ID document.' },
    deadline: '2027-04-14 18:00:00',
    slots: [
      { slotId: '2027-04-15 09:00', date: '2027-04-15', start: '09:00', end: '11:00', capacity: 2, left: 0 },
      { slotId: '2027-04-15 11:00', date: '2027-04-15', start: '11:00', end: '13:00', capacity: 2, left: 2 },
      { slotId: '2027-04-16 09:00', date: '2027-04-16', start: '09:00', end: '11:00', capacity: 5, left: 5 },
    ],
    entries: [
      { entryNo: 'E1002', name: '张三', itemName: TEN_K, blockedBy: null, booking: null },
      {
        entryNo: 'E1001',
        name: '张三',
        itemName: { zh: '全程马拉松', en: 'Marathon' },
        blockedBy: 'pickupNeedsPayment',
        booking: null,
      },
    ],
  };
}

export interface PickupMock {
  answer: PickupAnswer;
  bookCalls: { entryNo: string; slotId: string }[];
  cancelCalls: string[];
  checkIns: { passCode: string; staffKey: string | null }[];
}

export const pickupMock: PickupMock = {} as PickupMock;

export function resetPickupMock(): void {
  Object.assign(pickupMock, {
    answer: pickupAnswer(),
    bookCalls: [],
    cancelCalls: [],
    checkIns: [],
  } satisfies PickupMock);
}
resetPickupMock();

const entryOf = (entryNo: string) => pickupMock.answer.entries.find((e) => e.entryNo === entryNo);
const slotOf = (slotId: string) => pickupMock.answer.slots.find((s) => s.slotId === slotId);

export const pickupHandlers = [
  http.get(api(API_PATHS.pickupGet), ({ request }) => {
    if (!loggedIn(request)) return refuse(401, 'loginExpired');
    return ok(pickupMock.answer);
  }),
  http.post(api(API_PATHS.pickupBook), async ({ request }) => {
    if (!loggedIn(request)) return refuse(401, 'loginExpired');
    const { entryNo, slotId } = (await request.json()) as { entryNo: string; slotId: string };
    pickupMock.bookCalls.push({ entryNo, slotId });
    const entry = entryOf(entryNo);
    const slot = slotOf(slotId);
    if (!entry) return refuse(404, 'registrationMissing');
    if (entry.blockedBy) return refuse(400, entry.blockedBy);
    if (!slot) return refuse(404, 'pickupSlotMissing');
    if (slot.left <= 0) return refuse(409, 'pickupSlotFull');
    slot.left -= 1;
    const old = entry.booking ? slotOf(entry.booking.slotId) : undefined;
    if (old) old.left += 1;
    const booking: PickupBookingView = {
      slotId,
      status: 'booked',
      passCode: entry.booking?.passCode ?? PICKUP_PASS,
      bookedAt: CENTRE_NOW,
      collectedAt: null,
    };
    entry.booking = booking;
    return ok(booking);
  }),
  http.post(api(API_PATHS.pickupCancel), async ({ request }) => {
    if (!loggedIn(request)) return refuse(401, 'loginExpired');
    const { entryNo } = (await request.json()) as { entryNo: string };
    pickupMock.cancelCalls.push(entryNo);
    const entry = entryOf(entryNo);
    if (!entry?.booking) return refuse(404, 'pickupNotBooked');
    const slot = slotOf(entry.booking.slotId);
    if (slot) slot.left += 1;
    entry.booking = null;
    return ok(null);
  }),
  http.post(api(API_PATHS.pickupStaffKey), ({ request }) =>
    request.headers.get(STAFF_KEY_HEADER) === PICKUP_STAFF_KEY
      ? ok({ label: 'desk-1' })
      : refuse(403, 'staffKeyInvalid'),
  ),
  http.post(api(API_PATHS.pickupCheckIn), async ({ request }) => {
    const staffKey = request.headers.get(STAFF_KEY_HEADER);
    const { passCode } = (await request.json()) as { passCode: string };
    pickupMock.checkIns.push({ passCode, staffKey });
    if (staffKey !== PICKUP_STAFF_KEY) return refuse(403, 'staffKeyInvalid');
    const entry = pickupMock.answer.entries.find((e) => e.booking?.passCode === normalizePassCode(passCode));
    const booking = entry?.booking;
    if (!entry || !booking || booking.status === 'cancelled') return refuse(404, 'pickupPassMissing');
    if (booking.status === 'collected') return refuse(409, 'pickupCollected', { at: '2027-04-15 09:30' });
    booking.status = 'collected';
    booking.collectedAt = CENTRE_NOW;
    const slot = slotOf(booking.slotId);
    return ok({
      entryNo: entry.entryNo,
      name: entry.name,
      certificateType: 1,
      certificateNumber: '1101**********1234',
      itemName: entry.itemName,
      bib: 'C0815',
      slotId: booking.slotId,
      slot: slot ? { date: slot.date, start: slot.start, end: slot.end } : null,
      outsideSlot: false,
      collectedAt: CENTRE_NOW,
    } satisfies PickupCheckInAnswer);
  }),
];
