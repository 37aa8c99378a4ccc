/**
 * After entry (issue #15): the electronic commitment letter, pack pick-up appointments, saved participants,
 * refunds (and the optional deferral) and the race-pack mailing parcel. What an organiser sets in race.json
 * (`race.commitmentLetter`, `race.packPickup`, `race.entry.refunds`, `race.packMailing`), the request and
 * answer shapes of the calls (paths in contract/api.ts) and the calculations the SPA and the server must
 * agree on. One place for each; the SPA and the server import them from here.
 *
 * How the server answers: like the sign-up calls (contract/entry.ts). Logged-in calls without a valid token
 * `{ code: 401, msgCode: 'loginExpired' }`; field refusals `{ code: 400, msgCode, data: FieldRefusals }`; a
 * call about an entry that is not the caller's answers registrationMissing (404), never someone else's data.
 * Times in answers are epoch ms; times in settings are race wall-clock texts read in the race's zone.
 */
import SHA256 from 'crypto-js/sha256.js';
import Hex from 'crypto-js/enc-hex.js';
import { ageOn, ENTRY_STATUSES, type EntryStatus } from '#contract/entry';
import type { CertificateType } from '#contract/enums';
import type { LocalText } from '#contract/registration-form';

// ---------------------------------------------------------------------------------------------------------
// 1. The electronic commitment letter (电子承诺书)
// ---------------------------------------------------------------------------------------------------------

/** Under this age on race day a guardian signs too (docs/after-entry.md "Commitment letter"). */
export const ADULT_AGE = 18;

/**
 * `race.commitmentLetter`: the organiser's letter. Its text is versioned by its hash (`letterVersionHash`):
 * any change of title, body or statements in either language is a new version, and signatures of an older
 * version no longer count (the runner signs again).
 */
export interface CommitmentLetterSettings {
  enabled: boolean;
  title: LocalText;
  /** The letter itself: rich text (HTML, shown through the one sanitising component). */
  body: LocalText;
  /** The statements the runner ticks one by one (1–20). */
  statements: LocalText[];
  /** Under-18s on race day need a guardian's signature (default true). */
  guardianForMinors?: boolean;
  /** Runners older than this on race day need a relative's signature (Taiyuan, Suzhou: 65); absent: never. */
  relativeOverAge?: number;
  /** The last moment to sign (race time); absent: until race day. */
  deadline?: string;
}

/** The text a version hash covers, in a fixed key order (the hash must not depend on how JSON was written). */
export function letterVersionText(letter: Pick<CommitmentLetterSettings, 'title' | 'body' | 'statements'>): string {
  const local = (t: LocalText) => [t.zh, t.en];
  return JSON.stringify([local(letter.title), local(letter.body), letter.statements.map(local)]);
}
/** sha256 hex of the letter's text: its version. */
export const letterVersionHash = (letter: Pick<CommitmentLetterSettings, 'title' | 'body' | 'statements'>): string =>
  SHA256(letterVersionText(letter)).toString(Hex);

/** Who must co-sign for a runner born on `birthday` in a race on `raceDate` (both 'YYYY-MM-DD…'). */
export function letterCosigners(
  letter: Pick<CommitmentLetterSettings, 'guardianForMinors' | 'relativeOverAge'>,
  birthday: string,
  raceDate: string,
): { guardian: boolean; relative: boolean } {
  const age = ageOn(birthday, raceDate);
  return {
    guardian: (letter.guardianForMinors ?? true) && age < ADULT_AGE,
    relative: letter.relativeOverAge !== undefined && age > letter.relativeOverAge,
  };
}

/** A co-signer (guardian or relative): name, relation to the runner, phone (stored encrypted, answered masked). */
export interface Cosigner {
  name: string;
  /** Free text of at most 20 characters: 父亲 / Mother / Son … */
  relation: string;
  phone: string;
}

/** letterGet: GET ?raceId= (login) → the current letter and each of the caller's entries that must sign it. */
export interface LetterAnswer {
  raceId: string;
  letter: {
    title: LocalText;
    body: LocalText;
    statements: LocalText[];
    versionHash: string;
    deadline?: string;
  } | null;
  /** 'closed': the race has no letter; 'ended': past its deadline (signatures are shown, no new ones). */
  state: 'open' | 'ended' | 'closed';
  entries: LetterEntry[];
}
export interface LetterEntry {
  entryNo: string;
  name: string;
  itemName: LocalText;
  needs: { guardian: boolean; relative: boolean };
  /** The newest signature of this entry (any version), or null. */
  signature: LetterSignatureView | null;
}
export interface LetterSignatureView {
  versionHash: string;
  /** Signed the letter as it reads now. */
  current: boolean;
  signerName: string;
  guardian: { name: string; relation: string; phone: string } | null;
  relative: { name: string; relation: string; phone: string } | null;
  signedAt: number;
}

/**
 * letterSign: POST (login). The runner has read the letter of `versionHash` (refused with letterChanged when
 * it is not the current one), ticked every statement (`accepted` holds each statement's index once), and
 * typed their name exactly as registered (letterNameMismatch otherwise). Stored append-only with the hash,
 * time, IP and user agent; answered with the new LetterEntry.
 */
export interface LetterSignRequest {
  raceId: string;
  entryNo: string;
  versionHash: string;
  accepted: number[];
  signerName: string;
  guardian?: Cosigner;
  relative?: Cosigner;
}

/** Which entries may sign: those holding a place (won, registered successfully). */
export const mustSignLetter = (status: EntryStatus) => status === ENTRY_STATUSES.won;

// ---------------------------------------------------------------------------------------------------------
// 2. Pack pick-up appointments (领物预约)
// ---------------------------------------------------------------------------------------------------------

/** `race.packPickup`: the days and slots of pack pick-up and who may book. */
export interface PackPickupSettings {
  enabled: boolean;
  /** Where the packs are handed out. */
  location: LocalText;
  /** Shown above the slots: what to bring (ID card, the pass) … */
  notice: LocalText;
  /** Booking, changing and cancelling end at this race time. */
  deadline: string;
  /** Conditions besides a won entry: the entry's order paid (default true), the letter signed (default: when the race has one). */
  requirePaid?: boolean;
  requireLetter?: boolean;
  days: PickupDay[];
}
export interface PickupDay {
  /** 'YYYY-MM-DD' in the race's zone. */
  date: string;
  slots: { start: string; end: string; capacity: number }[];
}

/** A slot's id: its day and start, 'YYYY-MM-DD HH:mm' (unique within a race). */
export const pickupSlotId = (date: string, start: string) => `${date} ${start}`;
/** A slot's day ('YYYY-MM-DD') and its start and end ('HH:mm'). */
export type PickupSlotTimes = { date: string; start: string; end: string };
/** The day and times of a slot of the settings, by its id; null when the settings have no such slot. */
export function pickupSlotTimes(settings: PackPickupSettings | undefined, slotId: string): PickupSlotTimes | null {
  for (const day of settings?.days ?? []) {
    for (const slot of day.slots) {
      if (pickupSlotId(day.date, slot.start) === slotId) return { date: day.date, start: slot.start, end: slot.end };
    }
  }
  return null;
}
/** The most places of one slot. */
export const MAX_SLOT_CAPACITY = 100_000;
/** Slot times are 'HH:mm' on a 24-hour clock. */
export const SLOT_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A pass code: 10 letters and digits without look-alikes, shown in groups of 5 and in the pass's QR. */
export const PASS_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const PASS_CODE_PATTERN = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{10}$/;
/** What staff type or scan: spaces and dashes dropped, upper case. */
export const normalizePassCode = (raw: string) => raw.replace(/[\s-]/g, '').toUpperCase();
export const formatPassCode = (code: string) => `${code.slice(0, 5)} ${code.slice(5)}`;

export const BOOKING_STATUSES = ['booked', 'cancelled', 'collected'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export interface PickupSlotView {
  slotId: string;
  date: string;
  start: string;
  end: string;
  capacity: number;
  left: number;
}

/** pickupGet: GET ?raceId= (login) → the slots with places left and each of the caller's eligible entries. */
export interface PickupAnswer {
  raceId: string;
  state: 'open' | 'ended' | 'closed';
  location: LocalText;
  notice: LocalText;
  deadline: string;
  slots: PickupSlotView[];
  entries: PickupEntry[];
}
export interface PickupEntry {
  entryNo: string;
  name: string;
  itemName: LocalText;
  /**
   * Why it may not book yet (the message codes pickupNeedsPayment / pickupNeedsLetter, or pickupMailingChosen:
   * the runner chose to have the pack mailed on /post), or null when it may.
   */
  blockedBy: 'pickupMailingChosen' | 'pickupNeedsPayment' | 'pickupNeedsLetter' | null;
  booking: PickupBookingView | null;
}
export interface PickupBookingView {
  slotId: string;
  status: BookingStatus;
  /** The pass code (only its owner sees it; the QR holds it). */
  passCode: string;
  bookedAt: number;
  collectedAt: number | null;
}

/** pickupBook: POST (login) → PickupBookingView. A booked entry with another slot changes it (the old place is given back). */
export interface PickupBookRequest {
  raceId: string;
  entryNo: string;
  slotId: string;
}
/** pickupCancel: POST (login) { raceId, entryNo } → code 0; the place is given back. */
export interface PickupCancelRequest {
  raceId: string;
  entryNo: string;
}

/**
 * pickupCheckIn: POST (staff: header `staffKey` issued by the CLI per race) { raceId, passCode } → the pass's
 * holder (name, masked certificate, item, bib, slot) once; a second collection is refused with
 * pickupCollected (its time in msgParams.at), an unknown code with pickupPassMissing.
 */
export interface PickupCheckInRequest {
  raceId: string;
  passCode: string;
  /**
   * Staff confirmed handing the pack over outside the pass's booked day and slot. Without it such a pass is
   * refused with pickupOutsideSlot (409) and its PickupOutsideSlot as the answer's data.
   */
  outsideSlotConfirmed?: boolean;
}
/** The data of a pickupOutsideSlot refusal: the booked slot and the race clock's time now. */
export interface PickupOutsideSlot {
  slotId: string;
  slot: PickupSlotTimes | null;
  /** 'YYYY-MM-DD HH:mm' on the race clock. */
  now: string;
}
/** POST pickupStaffKey with the staffKey header → the key's label (refused with staffKeyInvalid). */
export interface PickupStaffKeyRequest {
  raceId: string;
}
export interface PickupStaffKeyAnswer {
  label: string;
}
export interface PickupCheckInAnswer {
  entryNo: string;
  name: string;
  certificateType: CertificateType;
  /** Masked: staff compare it with the ID card handed over. */
  certificateNumber: string;
  itemName: LocalText;
  bib: string | null;
  slotId: string;
  /** The booked slot's day and times (null when the organiser has since removed the slot: slotId says its day and start). */
  slot: PickupSlotTimes | null;
  /** Collected outside the booked day and slot (staff confirmed it). */
  outsideSlot: boolean;
  collectedAt: number;
}
/** The staff key header of pickupCheckIn. */
export const STAFF_KEY_HEADER = 'staffKey';

// ---------------------------------------------------------------------------------------------------------
// 3. Saved participants (常用参赛人)
// ---------------------------------------------------------------------------------------------------------

/** At most this many saved participants per account. */
export const MAX_SAVED_PARTICIPANTS = 20;

/** A saved participant as its account holder sees it: numbers masked (spec §3 participant). */
export interface SavedParticipant {
  id: number;
  name: string;
  gender: 0 | 1 | 2;
  certificateType: CertificateType;
  /** Masked. */
  certificateNumber: string;
  /** Masked. */
  phone: string;
  emergencyName: string;
  /** Masked. */
  emergencyPhone: string;
  /** 'YYYY-MM-DD' */
  birthday: string;
  /** Age today and adult/minor from it (isAdult). */
  age: number;
  adult: boolean;
  updatedAt: number;
}

/**
 * participantSave: POST (login): no id creates, an id updates. The §5 rules apply (required text, certificate
 * number per type, mobile, emergency contact differs from the participant). A masked number sent back exactly
 * as answered stands for the stored one. The same certificate twice in one account: participantDuplicate.
 */
export interface ParticipantSaveRequest {
  id?: number;
  name: string;
  gender: 0 | 1 | 2;
  certificateType: CertificateType;
  certificateNumber: string;
  phone: string;
  emergencyName: string;
  emergencyPhone: string;
  birthday: string;
}
/** participantDelete: POST { id } (login) → code 0. participantList: GET (login) → SavedParticipant[]. */
export interface ParticipantDeleteRequest {
  id: number;
}

/** Adult (18 or over) on a date. */
export const isAdult = (birthday: string, on: string) => ageOn(birthday, on) >= ADULT_AGE;

/**
 * In an entry submission (contract/entry.ts EntrySubmitRequest participants[i]), `savedParticipantId` names a
 * saved participant of the caller: the server fills each of the form's participant fields that is sent back
 * exactly as the saved participant answered it masked (certificate number, phone, emergency phone) with the
 * stored number.
 */
export const SAVED_PARTICIPANT_KEY = 'savedParticipantId';

// ---------------------------------------------------------------------------------------------------------
// 4. Refunds and deferral
// ---------------------------------------------------------------------------------------------------------

/** `race.entry.refunds`: most Chinese majors forbid refunds; absent means none (pay-first ballot losers are refunded regardless). */
export interface RefundSettings {
  allowed: boolean;
  /** Requests until this race time. */
  until: string;
  /** The share of the amount paid that is returned, 0–100 per cent. */
  sharePercent: number;
  /** One deferral to the next year's race instead (default off); charity and code places cannot defer. */
  deferral?: { allowed: boolean; until: string };
}

/** The amount returned: the share of the paid amount, in whole fen rounded down. */
export const refundAmountFen = (paidFen: number, sharePercent: number): number =>
  Math.floor((paidFen * Math.round(sharePercent * 100)) / 10_000);

export const REFUND_REQUEST_KINDS = ['refund', 'deferral'] as const;
export type RefundRequestKind = (typeof REFUND_REQUEST_KINDS)[number];
export const REFUND_REQUEST_STATUSES = ['review', 'approved', 'rejected'] as const;
export type RefundRequestStatus = (typeof REFUND_REQUEST_STATUSES)[number];
/** A reason: 2–200 characters. */
export const REFUND_REASON_LIMITS = { min: 2, max: 200 } as const;
/** The organiser's reason for rejecting a request, which the runner reads: 1–200 characters. */
export const REFUND_REJECT_REASON_MAX = 200;

/**
 * refundRequest: POST (login) → RefundRequestView. Only a won (1) entry whose order is paid, within the
 * window, once per entry and kind while one is in review (refundInReview). A refund request sets the
 * entry to 'refund under review' (4); approval refunds through the payment provider (idempotent) and sets
 * 'refunded' (5), giving the place back; rejection returns it to 1 with the organiser's reason. A deferral
 * request, once approved, cancels the entry (timeline 'deferred') and gives the runner a named invitation
 * code for the next race (CLI deferrals-issue).
 */
export interface RefundRequestBody {
  raceId: string;
  entryNo: string;
  kind: RefundRequestKind;
  reason: string;
}
export interface RefundRequestView {
  id: number;
  entryNo: string;
  kind: RefundRequestKind;
  status: RefundRequestStatus;
  reason: string;
  /** What will be (or was) returned, fen; 0 for a deferral. */
  amountFen: number;
  rejectReason: string | null;
  createdAt: number;
  decidedAt: number | null;
}
/** refundGet: GET ?raceId= (login) → the race's refund terms and each of the caller's entries with its requests. */
export interface RefundAnswer {
  raceId: string;
  refunds: { allowed: boolean; until: string; sharePercent: number; state: 'open' | 'ended' | 'closed' };
  deferral: { allowed: boolean; until: string; state: 'open' | 'ended' | 'closed' };
  entries: {
    entryNo: string;
    name: string;
    itemName: LocalText;
    status: EntryStatus;
    paidFen: number;
    /** refundAmountFen of paidFen. */
    refundFen: number;
    requests: RefundRequestView[];
  }[];
}

// ---------------------------------------------------------------------------------------------------------
// 5. Race-pack mailing: the parcel (the choice itself is contract/registration-screens.ts /post)
// ---------------------------------------------------------------------------------------------------------

export const PARCEL_STATES = ['waiting', 'shipped'] as const;
export type ParcelState = (typeof PARCEL_STATES)[number];
/** What mailingGet answers besides the choice once the runner chose mailing. */
export interface ParcelView {
  state: ParcelState;
  carrier: string | null;
  trackingNo: string | null;
  shippedAt: number | null;
}

// ---------------------------------------------------------------------------------------------------------
// The personal centre's entry card: which services an entry offers
// ---------------------------------------------------------------------------------------------------------

/** 'deferral' is the refund page of a race that offers deferral but no refunds (the card's link says so). */
export const ENTRY_SERVICES = ['letter', 'pickup', 'refund', 'deferral', 'mailing'] as const;
export type EntryService = (typeof ENTRY_SERVICES)[number];

/** The services a race offers to an entry of this status (the pages refuse or explain the rest). */
export function entryServices(
  race: {
    commitmentLetter?: { enabled: boolean };
    packPickup?: { enabled: boolean };
    packMailing?: { enabled: boolean };
    entry?: { refunds?: { allowed: boolean; deferral?: { allowed: boolean } } };
  },
  status: EntryStatus,
): EntryService[] {
  const out: EntryService[] = [];
  const won = status === ENTRY_STATUSES.won;
  if (won && race.commitmentLetter?.enabled) out.push('letter');
  if (won && race.packPickup?.enabled) out.push('pickup');
  const refunds = race.entry?.refunds;
  if (
    (won || status === ENTRY_STATUSES.refundReview || status === ENTRY_STATUSES.refunded) &&
    (refunds?.allowed || refunds?.deferral?.allowed)
  ) {
    out.push(refunds?.allowed ? 'refund' : 'deferral');
  }
  if (won && race.packMailing?.enabled) out.push('mailing');
  return out;
}
