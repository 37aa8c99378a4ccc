/**
 * One entry in the organiser console (issue 30 §5): what GET /api/admin/races/:raceId/entries/:entryNo answers,
 * and the bodies of its actions (each with a reason). The server (services/console/entry-detail.ts,
 * entry-actions.ts), the CLI (entry-* commands) and the console page share these shapes and limits.
 */
import type { EntryChannel, EntryModel, EntryStatus, OrderStatus, TimelineStep } from './entry.ts';
import type { LocalText } from './registration-form.ts';
import type { OwedRefundCause } from './console-refunds.ts';

/** A reason is required for every action: 1–ENTRY_REASON_MAX characters (kept in the audit log and the timeline). */
export const ENTRY_REASON_MAX = 500;

/** How an offline payment was received. */
export const OFFLINE_PAYMENT_METHODS = ['cash', 'bankTransfer', 'pos', 'other'] as const;
export type OfflinePaymentMethod = (typeof OFFLINE_PAYMENT_METHODS)[number];
export const isOfflinePaymentMethod = (value: unknown): value is OfflinePaymentMethod =>
  typeof value === 'string' && (OFFLINE_PAYMENT_METHODS as readonly string[]).includes(value);
/** The provider name an offline payment is recorded under (payments.provider): `offline:<method>`. */
export const OFFLINE_PROVIDER_PREFIX = 'offline:';
/** The payment's reference (receipt or bank transfer number): 1–64 characters. */
export const OFFLINE_REFERENCE_MAX = 64;

/** Who took a timeline step. */
export type EntryStepActor =
  | { kind: 'runner' }
  | { kind: 'system' }
  | { kind: 'staff'; staffId: number; name: string }
  | { kind: 'cli'; name: string };

export interface ConsoleEntryStep {
  step: TimelineStep;
  at: number;
  /** The step's note (a bib, a reason, a refund amount…), '' when none. */
  note: string;
  actor: EntryStepActor;
}

/** One answer of the registration form, by the form's label (personal numbers masked). */
export interface ConsoleEntryAnswer {
  key: string;
  label: LocalText;
  type: string;
  /** The answer as the form keeps it (a certificate number or phone masked). */
  value: unknown;
  /** The option's or size's label when the form has one for the value. */
  shown?: LocalText | LocalText[];
  /** The choices the form offers (radio, checkbox, picker, clothing size): the edit form's options. */
  options?: { value: string; label: LocalText }[];
  required: boolean;
}

export interface ConsoleEntryPayment {
  paymentId: string;
  provider: string;
  amountFen: number;
  status: string;
  tradeNo: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface ConsoleEntryRefund {
  refundNo: string;
  amountFen: number;
  reason: string;
  /** Why it was made, for the console's words. */
  cause: OwedRefundCause;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  doneAt: number | null;
}

export interface ConsoleEntryOrder {
  orderNo: string;
  status: OrderStatus;
  amountFen: number;
  paidFen: number;
  refundedFen: number;
  /** This entry's line (sub-order) of the order. */
  subOrderNo: string;
  lineFen: number;
  createdAt: number;
  deadlineAt: number | null;
  paidAt: number | null;
  serialNo: string | null;
  payments: ConsoleEntryPayment[];
  refunds: ConsoleEntryRefund[];
}

export interface ConsoleEntryDetail {
  entryNo: string;
  raceId: string;
  itemCode: string;
  itemName: LocalText;
  /** The item's entry model (how its place is given: the status's wording), null when the race lists it no more. */
  itemModel: EntryModel | null;
  channel: EntryChannel;
  status: EntryStatus;
  holdsPlace: boolean;
  waitRank: number | null;
  bib: string | null;
  feeFen: number;
  createdAt: number;
  updatedAt: number;
  person: {
    name: string;
    gender: number;
    birthday: string;
    certType: number;
    certMasked: string;
    phoneMasked: string;
  };
  /** The account that made the entry: its masked phone or e-mail. */
  account: { userId: number; contactMasked: string };
  team: { code: string; name: string } | null;
  /** The form's answers in the form's order (null: no published form of the entry's channel). */
  answers: ConsoleEntryAnswer[] | null;
  formVersion: number | null;
  orders: ConsoleEntryOrder[];
  timeline: ConsoleEntryStep[];
  letter: { enabled: boolean; signed: boolean; current: boolean; signedAt: number | null; signerName: string | null };
  pickup: { slotId: string; status: string; collectedAt: number | null; collectedBy: string | null } | null;
  mailing: {
    method: string;
    address: string;
    shipment: { carrier: string; trackingNo: string; shippedAt: number } | null;
  } | null;
  requests: {
    id: number;
    kind: 'refund' | 'deferral';
    status: string;
    reason: string;
    amountFen: number;
    rejectReason: string | null;
    createdAt: number;
    decidedAt: number | null;
  }[];
  /** What the race allows the organiser here (the console shows the actions accordingly). */
  allows: { transfer: boolean };
}

/** The whole numbers of one entry (permission entries.personal; each opening is in the audit log). */
export interface ConsoleEntryPersonal {
  certNumber: string;
  phone: string;
}

export interface EntryReasonBody {
  reason: string;
}
export interface EntryAnswersBody extends EntryReasonBody {
  /**
   * The form's values of the person, as the public form sends them. An edit may send a certificate number or
   * phone back masked as the page shows it: the stored number is kept.
   */
  values: Record<string, unknown>;
}
export interface EntryOfflinePaymentBody extends EntryReasonBody {
  amountFen: number;
  method: OfflinePaymentMethod;
  reference: string;
}
export interface EntryRefundBody extends EntryReasonBody {
  /** Fen to refund; absent: the entry's whole line. */
  amountFen?: number;
}
export interface EntryBibBody extends EntryReasonBody {
  bib: string;
}

/** Checks a reason: trimmed, 1–ENTRY_REASON_MAX characters; undefined when it is not one. */
export function entryReason(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const reason = raw.trim();
  return reason.length >= 1 && [...reason].length <= ENTRY_REASON_MAX ? reason : undefined;
}
