/**
 * The console's pick-up pages (issue 32): the organiser's pick-up admin (slots, capacities, live figures, staff
 * check-in keys, the export) and the volunteers' check-in screen, which queues hand-overs made while the
 * network is down and sends each with a nonce made once on the device (a resend is the same hand-over).
 * Calls under /api/admin/races/:raceId/pickup (server/src/routes/admin/pickup.ts).
 */
import type { PickupCheckInAnswer, PickupSlotTimes, PickupSlotView } from '#contract/after-entry';
import type { CertificateType } from '#contract/enums';
import type { LocalText } from '#contract/registration-form';

/** A staff check-in key's label: the desk or person it names (one active key per label). */
export const STAFF_KEY_LABEL_MAX = 40;

/** A hand-over's nonce: made once on the device (random), sent with every try of that hand-over. */
export const HANDOVER_NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** A slot with its places and bookings (the CLI's pickup-list). */
export interface ConsolePickupSlot extends PickupSlotView {
  /** Live bookings not yet collected. */
  booked: number;
  collected: number;
}

export interface ConsoleStaffKey {
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

/** GET /races/:raceId/pickup: the admin page. */
export interface ConsolePickupView {
  raceId: string;
  /** closed (disabled or absent), open, or ended (past the booking deadline). */
  state: 'closed' | 'open' | 'ended';
  deadline: string;
  timeZone: string;
  slots: ConsolePickupSlot[];
  keys: ConsoleStaffKey[];
}

/** POST /races/:raceId/pickup/keys: the new key, shown once. */
export interface ConsoleIssuedKey {
  label: string;
  key: string;
}

/** An answer of the form that is a size (clothingSize), shown to the volunteer handing the pack over. */
export interface ConsolePassSize {
  label: LocalText;
  /** The size's label as the form shows it, or the code when the form no longer has it. */
  shown: LocalText | string;
}

/** GET /races/:raceId/pickup/passes/:code: a pass and its holder, looked up without collecting it. */
export interface ConsolePassLookup {
  passCode: string;
  status: 'booked' | 'collected';
  entryNo: string;
  name: string;
  certificateType: CertificateType;
  /** Masked. */
  certificateNumber: string;
  itemName: LocalText;
  bib: string | null;
  sizes: ConsolePassSize[];
  slotId: string;
  slot: PickupSlotTimes | null;
  /** Now is outside the booked day and slot. */
  outsideSlot: boolean;
  collectedAt: number | null;
  collectedBy: string | null;
}

/** POST /races/:raceId/pickup/checkin. */
export interface ConsoleHandOverRequest {
  passCode: string;
  nonce: string;
  outsideSlotConfirmed?: boolean;
  /** When the volunteer handed it over on the device (ms): a queued hand-over's, kept in the audit log. */
  handedAt?: number;
}
export interface ConsoleHandOverAnswer extends PickupCheckInAnswer {
  /** This nonce was already recorded: the answer of the hand-over it made, nothing new written. */
  repeated: boolean;
}
