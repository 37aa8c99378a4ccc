/**
 * The console's refunds and deferrals page and an entry's payments queried at the provider (issue 32;
 * server/src/services/console/refunds.ts, routes/admin/refunds.ts). Amounts are integer fen; times epoch ms.
 */
import type { RefundAnswer, RefundRequestKind, RefundRequestStatus } from './after-entry.ts';
import type { LocalText } from './registration-form.ts';

/** The race's rules as the runner's refund page states them: the share returned and each window. */
export type ConsoleRefundRules = Pick<RefundAnswer, 'refunds' | 'deferral'>;

/** The money of an approved refund request: its refund as the provider confirmed it, or still owed. */
export interface ConsoleRequestRefund {
  refundNo: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  lastError: string | null;
  doneAt: number | null;
}

export interface ConsoleRefundRequest {
  id: number;
  entryNo: string;
  /** The runner's name, masked (张*三). */
  nameMasked: string;
  itemCode: string;
  itemName: LocalText;
  kind: RefundRequestKind;
  status: RefundRequestStatus;
  /** The runner's reason. */
  reason: string;
  /** What the request returns (the rule's share of what was paid); 0 for a deferral. */
  amountFen: number;
  /** What the entry's order paid for it. */
  paidFen: number;
  rejectReason: string | null;
  createdAt: number;
  decidedAt: number | null;
  refund: ConsoleRequestRefund | null;
}

/** GET /api/admin/races/:raceId/refunds[?status=] */
export interface ConsoleRefundQueue {
  raceId: string;
  rules: ConsoleRefundRules;
  /** Requests per status, whatever the filter. */
  counts: Record<RefundRequestStatus, number>;
  requests: ConsoleRefundRequest[];
  /** Approved deferrals without their code for the next race yet (deferrals-issue). */
  deferralsToIssue: number;
}

/** Why money is owed back: the server's own reasons, or an approved request. */
export type OwedRefundCause = 'notWon' | 'latePayment' | 'duplicatePayment' | 'organiser' | 'request' | 'other';

/** GET /api/admin/races/:raceId/refunds-owed: one refund not confirmed by the provider yet. */
export interface ConsoleOwedRefund {
  refundNo: string;
  orderNo: string;
  entryNo: string | null;
  itemCode: string | null;
  amountFen: number;
  cause: OwedRefundCause;
  /** 'failing': a call to the provider did not confirm it (lastError says why); 'pending': not tried yet. */
  state: 'pending' | 'failing';
  attempts: number;
  lastError: string | null;
  createdAt: number;
  /** The server's next try (epoch ms); at or before now: due. */
  nextAt: number;
}

/** What the approval or retry came to. */
export interface ConsoleRefundOutcome {
  /** False: already decided before (nothing changed). */
  fresh: boolean;
  kind: RefundRequestKind;
  amountFen: number;
  /** Confirmed by the provider now. */
  refundedFen: number;
  /** Refunds left owed (retried by the server until confirmed). */
  pending: number;
}

export interface ConsoleRetryOutcome {
  refundNo: string;
  result: 'done' | 'settled' | 'pending';
  attempts: number;
  lastError: string | null;
}

/** POST …/refunds/:entryNo/reject */
export interface ConsoleRejectBody {
  reason: string;
}

/** A payment as the provider states it, beside ours (GET …/entries/:entryNo/payments/:paymentId/query). */
export interface ConsolePaymentQuery {
  paymentId: string;
  provider: string;
  ours: { status: string; tradeNo: string | null; amountFen: number };
  theirs: {
    status: 'created' | 'paid' | 'failed' | 'closed' | 'unknown';
    tradeNo: string | null;
    amountFen: number | null;
    paidAt: number | null;
  };
  /** The provider took the money and we have not recorded it: money staff may record it as its notification would. */
  canRecord: boolean;
}

/** POST …/payments/:paymentId/record: what recording the provider's "paid" came to (the notification's outcome). */
export interface ConsolePaymentRecorded {
  paymentId: string;
  outcome: string;
  /** False: it was recorded before (by a notification or an earlier click): nothing changed now. */
  fresh: boolean;
}

/** POST …/deferrals/issue: the next race, and when the codes expire (its race time; default its sign-up end). */
export interface ConsoleDeferralsBody {
  toRaceId: string;
  expires?: string;
}

/** What issuing came to: a named single-use code of the next race per deferral, sent to each runner. */
export interface ConsoleDeferralsIssued {
  issued: { entryNo: string; nameMasked: string; itemCode: string; code: string }[];
  /** Deferrals whose item the next race lacks. */
  skipped: { entryNo: string; itemCode: string }[];
  expiresAt: number;
  /** The next race's time zone (expiresAt is shown in it). */
  zone: string;
}

/**
 * Why a refund is still owed, as the server keeps it (refunds.last_error: English, for the command line and the
 * logs) and as the console reads it back to word it in the member's language. The server writes it with
 * refundProblemText only.
 */
export const REFUND_PROBLEMS = {
  refused: 'the provider refused it',
  unconfirmed: 'the provider has not confirmed it yet',
  noPayment: 'no paid payment of the order to refund',
} as const;
export type RefundProblemKind = keyof typeof REFUND_PROBLEMS | 'other';

/** The kept text of a problem: its English words, then the provider's own answer (a code, a message). */
export function refundProblemText(kind: keyof typeof REFUND_PROBLEMS, detail = ''): string {
  return detail ? `${REFUND_PROBLEMS[kind]}: ${detail}` : REFUND_PROBLEMS[kind];
}

/** A kept problem read back: its kind, and the provider's answer or the error (other: the whole text). */
export function readRefundProblem(text: string): { kind: RefundProblemKind; detail: string } {
  for (const kind of Object.keys(REFUND_PROBLEMS) as (keyof typeof REFUND_PROBLEMS)[]) {
    const words = REFUND_PROBLEMS[kind];
    if (text === words) return { kind, detail: '' };
    if (text.startsWith(`${words}: `)) return { kind, detail: text.slice(words.length + 2) };
  }
  return { kind: 'other', detail: text };
}
