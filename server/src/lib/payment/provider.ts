/**
 * The payment-provider interface (issue #14 §4), shaped like the real ones (Alipay, WeChat Pay): the server
 * creates a payment for an order and sends the runner to the provider's cashier page (or shows its QR code);
 * the provider tells the server the outcome by a signed asynchronous notification, which it repeats until it
 * is acknowledged; the server may query a payment, refund it (in part) and close it.
 *
 * The built-in provider is the sandbox (lib/payment/sandbox.ts: a cashier page on this server where the tester
 * pays or fails). PAYMENT_PROVIDER selects one by name (default 'sandbox'). An organiser plugs a real provider
 * by writing a PaymentProviderFactory (its keys from its own variables, its notifications verified with the
 * provider's public key or API key) and adding it under its name to PAYMENT_PROVIDERS
 * (lib/payment/providers.ts, which also says whether it takes real money) or to the payment plugin's `providers` option; its notifications then arrive at
 * `${API_PATHS.payNotifyPrefix}<name>` (contract/api.ts) and are answered in its form (notifyAnswer).
 *
 * Amounts are integer fen, never floats.
 */

import type { PaySite } from '#contract/entry';

export interface CreatePaymentInput {
  /** Our id of this attempt (the provider's out_trade_no). */
  paymentId: string;
  orderNo: string;
  amountFen: number;
  /** What the runner pays for (race and order), shown on the cashier page. */
  subject: string;
  /** The provider refuses to take the money after this (epoch ms): the order's deadline. */
  expiresAt: number;
  /** Where the provider posts its notifications: an absolute URL on the origin the runner pays from. */
  notifyUrl: string;
  /** Where the runner's browser goes back after paying (the SPA's order page, on the site below): absolute. */
  returnUrl: string;
  /** The runner's IP address as this server sees it (behind TRUST_PROXY, the client's): WeChat Pay H5 asks for it. */
  clientIp: string;
  /** The site the runner pays from (returnUrl is on it); the sandbox's own cashier carries it to its return. */
  site: PaySite;
}

export interface CreatedPayment {
  /** The provider's cashier page (empty when the runner pays by scanning qrContent only). */
  cashierUrl: string;
  /** What a QR code shows for paying on a phone. */
  qrContent: string;
  /**
   * How the runner's browser pays: 'redirect' (default) goes to cashierUrl; 'qr' stays on the order page,
   * shows qrContent as a QR code to scan with the wallet app (WeChat Pay Native on a desktop) and waits for
   * the order to be paid.
   */
  display?: 'redirect' | 'qr';
}

/** A notification whose signature checked out. */
export interface VerifiedNotification {
  /** The provider's id of this notification (the same for each repeat of it). */
  notificationId: string;
  paymentId: string;
  status: 'paid' | 'failed';
  /** The provider's transaction number (the order's serial number once paid). */
  tradeNo: string;
  amountFen: number;
  /** When the provider took the money (epoch ms). */
  paidAt: number;
}

/**
 * A notification checked: acted on (ok), or refused (the provider repeats it). `acknowledge`: genuine (its
 * signature checked out) but with nothing to act on (a state that is not final, like Alipay's WAIT_BUYER_PAY):
 * answered as accepted so that the provider stops repeating it, and nothing changes.
 */
export type NotificationCheck =
  { ok: true; notification: VerifiedNotification } | { ok: false; reason: string; acknowledge?: boolean };

export interface PaymentState {
  status: 'created' | 'paid' | 'failed' | 'closed' | 'unknown';
  tradeNo: string | null;
  amountFen: number | null;
  paidAt: number | null;
}

export interface RefundInput {
  /** Our id of this refund (the provider's out_request_no): the same refundNo twice refunds once. */
  refundNo: string;
  paymentId: string;
  tradeNo: string;
  amountFen: number;
  reason: string;
}

export interface RefundResult {
  /** done: confirmed; pending: accepted, not confirmed yet; failed: refused (the server asks again later). */
  status: 'done' | 'pending' | 'failed';
  refundTradeNo: string;
  /** Why it failed, in the provider's words (kept as the refund's last error). */
  reason?: string;
}

/** What the notify route answers the provider, in the form it expects. */
export interface NotifyAnswer {
  statusCode: number;
  contentType: string;
  body: string;
}

export interface PaymentProvider {
  /** The name of PAYMENT_PROVIDER and of the notify path. */
  readonly name: string;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** Checks the signature over the raw body; never throws for a bad notification. */
  verifyNotification(
    headers: Record<string, string | string[] | undefined>,
    rawBody: string,
  ): Promise<NotificationCheck>;
  query(paymentId: string): Promise<PaymentState>;
  /** Refunds (part of) a paid payment; the same refundNo again refunds once. May throw (network, provider down). */
  refund(input: RefundInput): Promise<RefundResult>;
  /** Closes an unpaid payment (the order was cancelled); a closed payment takes no money. */
  close(paymentId: string): Promise<void>;
  /** The acknowledgement of a notification (accepted) or its refusal (the provider repeats it later). */
  notifyAnswer(accepted: boolean, reason?: string): NotifyAnswer;
  /**
   * The provider's bill of one day (`day` YYYY-MM-DD, the day as the provider cuts it: China time for both
   * Alipay and WeChat Pay), fetched from the provider, in our terms (reconciliation, issue 31 §3). May throw
   * (network, provider down, no bill yet: BillNotReadyError).
   */
  fetchBill?(day: string): Promise<BillLine[]>;
  /**
   * A bill file the finance staff downloaded from the provider's merchant portal, read into our terms.
   * Throws BillFormatError (with the file's line) on a file it cannot read; never returns half a bill.
   */
  parseBill?(content: Buffer): BillLine[];
}

/** One line of a provider's daily bill, in our terms: money taken or money given back. */
export interface BillLine {
  kind: 'payment' | 'refund';
  /** Our payment id (out_trade_no) the line belongs to. */
  paymentId: string;
  /** The provider's transaction number of the payment. */
  tradeNo: string;
  /** Our refund number (out_refund_no / out_request_no) for a refund line, null for a payment. */
  refundNo: string | null;
  /** Positive integer fen: taken for a payment, given back for a refund. */
  amountFen: number;
  /** When the provider took or gave back the money (epoch ms). */
  at: number;
}

/** The provider has no bill for that day yet (both publish the previous day's bill in the morning). */
export class BillNotReadyError extends Error {}

/** A bill file that cannot be read: which line (1-based, 0 for the whole file) and why. */
export class BillFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(line > 0 ? `line ${line}: ${message}` : message);
  }
}

/** What the server hands a provider when it makes it. */
export interface PaymentProviderContext {
  /**
   * The server's environment: a real provider reads its keys from its own variables (or files they name) and
   * throws at make time, naming the variable, when one is missing or malformed (the server does not start).
   */
  env: Record<string, string | undefined>;
  /** The payment secret (lib/secrets.ts PAYMENT_SECRET), shared by every instance; a real provider has its own keys. */
  secret: string;
  /** The app's clock (epoch ms). */
  now: () => number;
  /** This server's record of a payment (for a provider that keeps no state of its own, like the sandbox). */
  state: (paymentId: string) => Promise<PaymentState>;
  /**
   * This server's record of a provider's money in [from, to) as bill lines (payments recorded paid, refunds
   * confirmed): the bill of a provider that keeps no books of its own, like the sandbox. Absent where the
   * database is not at hand.
   */
  ledger?: (provider: string, from: number, to: number) => Promise<BillLine[]>;
}

/** Makes a provider; registered by name (lib/payment/providers.ts, or buildApp's option). */
export type PaymentProviderFactory = (context: PaymentProviderContext) => PaymentProvider;
