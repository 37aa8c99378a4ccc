/**
 * Reconciliation of the payment providers' daily bills (issue 31 §3): what the console's finance page and the
 * organiser CLI show. A run compares one provider's bill of one day (China time) with our payments and
 * refunds of that provider; each difference is kept with how the finance staff handled it.
 */

/**
 * The kinds of difference: a payment (or refund) the provider's bill has and we do not have, or have but not
 * as paid (refund: not as confirmed); one we have and the bill does not; one both have with different amounts.
 */
export const RECONCILIATION_KINDS = [
  'paymentMissingHere',
  'paymentMissingThere',
  'paymentAmount',
  'refundMissingHere',
  'refundMissingThere',
  'refundAmount',
] as const;
export type ReconciliationKind = (typeof RECONCILIATION_KINDS)[number];

export const isReconciliationKind = (value: unknown): value is ReconciliationKind =>
  typeof value === 'string' && (RECONCILIATION_KINDS as readonly string[]).includes(value);

/** A handling note: what was done about a difference ("refunded by hand", "late notification, now paid"). */
export const RECONCILIATION_NOTE_MAX = 500;

/** Where a run's bill came from: fetched from the provider, or a file the finance staff imported. */
export type ReconciliationSource = 'fetch' | 'file';
export type ReconciliationStatus = 'matched' | 'differences' | 'failed';

/** What a run counted: the bill's payments and refunds, ours of the same day, and the differences found. */
export interface ReconciliationCounts {
  billPayments: number;
  billPaidFen: number;
  billRefunds: number;
  billRefundFen: number;
  ourPayments: number;
  ourPaidFen: number;
  ourRefunds: number;
  ourRefundFen: number;
  differences: number;
}

export interface ReconciliationRunView extends ReconciliationCounts {
  id: number;
  provider: string;
  /** The bill's day, YYYY-MM-DD in China time. */
  day: string;
  source: ReconciliationSource;
  /** Who ran it: 'job' (the daily job), 'staff:<id>' (the console, with `staffName`), 'cli:<user>@<host>'. */
  actor: string;
  staffName: string | null;
  status: ReconciliationStatus;
  /** Why a failed run failed. */
  error: string | null;
  ranAt: number;
}

export interface ReconciliationDifferenceView {
  id: number;
  provider: string;
  day: string;
  kind: ReconciliationKind;
  paymentId: string | null;
  refundNo: string | null;
  orderNo: string | null;
  raceId: string | null;
  /** Our amount (null: we have no such record) and the bill's (null: the bill has no such line), in fen. */
  oursFen: number | null;
  theirsFen: number | null;
  /** Our record's status as found ('paid', 'created', 'pending'…), or null. */
  ourStatus: string | null;
  foundAt: number;
  /** false when the latest run of its day no longer finds it (kept because it was handled). */
  stillFound: boolean;
  handledAt: number | null;
  handledBy: string | null;
  handledByName: string | null;
  note: string | null;
}

/** GET /api/admin/reconciliation: the providers that can be reconciled, runs and differences (filtered). */
export interface ReconciliationAnswer {
  providers: { name: string; enabled: boolean; fetch: boolean; file: boolean }[];
  runs: ReconciliationRunView[];
  differences: ReconciliationDifferenceView[];
}

/** A run's outcome (run now, import): the run and its day's differences. */
export interface ReconcileAnswer {
  run: ReconciliationRunView;
  differences: ReconciliationDifferenceView[];
}
