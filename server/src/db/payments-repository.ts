/**
 * Payments of sign-up orders (issue 14 §4, migration 13): payments (one per attempt at the provider),
 * payment_notifications (each notification of a provider once: its primary key makes a repeated or parallel
 * delivery a no-op) and refunds (one per order, entry and reason: the refunds_entry_reason index makes a
 * repeated refund a no-op). Every status change is guarded on the status it leaves. Amounts are integer fen.
 */
import { randomInt } from 'node:crypto';
import type { PaySite } from '#contract/entry';
import { sql, type Db } from './engine.ts';

export type PaymentStatus = 'created' | 'paid' | 'failed' | 'closed';
export type RefundStatus = 'pending' | 'done' | 'failed';

interface PaymentRow {
  id: number;
  payment_id: string;
  order_id: number;
  provider: string;
  amount_fen: number;
  status: PaymentStatus;
  trade_no: string | null;
  created_at: number;
  updated_at: number;
}

export interface PaymentRecord {
  id: number;
  paymentId: string;
  orderId: number;
  provider: string;
  amountFen: number;
  status: PaymentStatus;
  tradeNo: string | null;
  createdAt: number;
  updatedAt: number;
}

interface RefundRow {
  id: number;
  refund_no: string;
  order_id: number;
  entry_id: number | null;
  amount_fen: number;
  reason: string;
  status: RefundStatus;
  created_at: number;
  done_at: number | null;
  payment_id: string | null;
  attempts: number;
  last_error: string | null;
  next_at: number;
}

export interface RefundRecord {
  id: number;
  refundNo: string;
  orderId: number;
  entryId: number | null;
  amountFen: number;
  reason: string;
  status: RefundStatus;
  createdAt: number;
  doneAt: number | null;
  /** The payment it gives back (a double payment's second charge); null: the order's paid payment. */
  paymentId: string | null;
  /** Calls to the provider that did not confirm it (failed, threw or left it pending). */
  attempts: number;
  /** What the last such call answered, or null. */
  lastError: string | null;
  /** Not tried again before this (epoch ms; 0: at once). */
  nextAt: number;
}

/** A refund owed as the organiser sees it: with its order, entry and race. */
export interface OwedRefund extends RefundRecord {
  orderNo: string;
  raceId: string;
  entryNo: string | null;
  itemCode: string | null;
}

const PAYMENT_COLUMNS = sql.raw(
  'id, payment_id, order_id, provider, amount_fen, status, trade_no, created_at, updated_at',
);
const REFUND_COLUMNS = sql.raw(
  'id, refund_no, order_id, entry_id, amount_fen, reason, status, created_at, done_at, payment_id, attempts, ' +
    'last_error, next_at',
);

const toPayment = (row: PaymentRow): PaymentRecord => ({
  id: Number(row.id),
  paymentId: row.payment_id,
  orderId: Number(row.order_id),
  provider: row.provider,
  amountFen: Number(row.amount_fen),
  status: row.status,
  tradeNo: row.trade_no,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

const toRefund = (row: RefundRow): RefundRecord => ({
  id: Number(row.id),
  refundNo: row.refund_no,
  orderId: Number(row.order_id),
  entryId: row.entry_id === null ? null : Number(row.entry_id),
  amountFen: Number(row.amount_fen),
  reason: row.reason,
  status: row.status,
  createdAt: Number(row.created_at),
  doneAt: row.done_at === null ? null : Number(row.done_at),
  paymentId: row.payment_id,
  attempts: Number(row.attempts),
  lastError: row.last_error,
  nextAt: Number(row.next_at),
});

/** A payment or refund number: prefix + the UTC date + 10 random digits. */
const newNumber = (prefix: string, at: number) =>
  `${prefix}${new Date(at).toISOString().slice(0, 10).replaceAll('-', '')}${String(randomInt(10_000_000_000)).padStart(10, '0')}`;

export function createPaymentsRepository(db: Db) {
  const onePayment = async (query: Parameters<Db['get']>[0]) => {
    const row = await db.get<PaymentRow>(query);
    return row ? toPayment(row) : undefined;
  };

  return {
    // ---- payments ----------------------------------------------------------------------------------------

    /** A new attempt at the provider (status created) with a fresh payment id ('PAY' + date + digits). */
    async create(input: {
      orderId: number;
      provider: string;
      amountFen: number;
      now: number;
      /** The site the runner pays from (default desktop): an open attempt is reused from that site only. */
      site?: PaySite;
    }): Promise<PaymentRecord> {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const row = await db.get<PaymentRow>(sql`
          INSERT INTO payments (payment_id, order_id, provider, amount_fen, status, created_at, updated_at, site)
          VALUES (${newNumber('PAY', input.now)}, ${input.orderId}, ${input.provider}, ${input.amountFen}, 'created',
            ${input.now}, ${input.now}, ${input.site ?? 'desktop'})
          ON CONFLICT (payment_id) DO NOTHING
          RETURNING ${PAYMENT_COLUMNS}`);
        if (row) return toPayment(row);
      }
      throw new Error('no free payment id after 8 attempts');
    },

    findByPaymentId: (paymentId: string) =>
      onePayment(sql`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE payment_id = ${paymentId}`),

    /** The order's open attempt (created) at this provider for this amount from this site, the newest, if any. */
    openFor: (orderId: number, provider: string, amountFen: number, site: PaySite) =>
      onePayment(sql`
        SELECT ${PAYMENT_COLUMNS} FROM payments
        WHERE order_id = ${orderId} AND provider = ${provider} AND amount_fen = ${amountFen} AND status = 'created'
          AND site = ${site}
        ORDER BY id DESC LIMIT 1`),

    /** The order's open attempts (created). */
    async openOf(orderId: number): Promise<PaymentRecord[]> {
      const rows = await db.all<PaymentRow>(
        sql`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE order_id = ${orderId} AND status = 'created' ORDER BY id`,
      );
      return rows.map(toPayment);
    },

    /** Every attempt of the order, oldest first (the console's entry page). */
    async ofOrder(orderId: number): Promise<PaymentRecord[]> {
      const rows = await db.all<PaymentRow>(
        sql`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE order_id = ${orderId} ORDER BY id`,
      );
      return rows.map(toPayment);
    },

    /** The attempt that paid the order, if any. */
    paidOf: (orderId: number) =>
      onePayment(sql`
        SELECT ${PAYMENT_COLUMNS} FROM payments WHERE order_id = ${orderId} AND status = 'paid' ORDER BY id LIMIT 1`),

    /** Any status but paid → paid with the provider's trade number; false when it was already paid. */
    async markPaid(paymentId: string, tradeNo: string, now: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE payments SET status = 'paid', trade_no = ${tradeNo}, updated_at = ${now}
          WHERE payment_id = ${paymentId} AND status <> 'paid'`)) > 0
      );
    },

    /** created → failed (or closed); false otherwise. */
    async finish(paymentId: string, to: 'failed' | 'closed', now: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE payments SET status = ${to}, updated_at = ${now} WHERE payment_id = ${paymentId} AND status = 'created'`)) >
        0
      );
    },

    // ---- notifications -----------------------------------------------------------------------------------

    /**
     * Keeps a notification of a provider once: true when it is new, false when it was already received (its
     * outcome is then `notificationOutcome`). Call it inside the transaction that acts on the notification.
     */
    async recordNotification(input: {
      provider: string;
      notificationId: string;
      paymentId: string;
      outcome: string;
      now: number;
    }): Promise<boolean> {
      return (
        (await db.run(sql`
          INSERT INTO payment_notifications (provider, notification_id, payment_id, outcome, received_at)
          VALUES (${input.provider}, ${input.notificationId}, ${input.paymentId}, ${input.outcome}, ${input.now})
          ON CONFLICT (provider, notification_id) DO NOTHING`)) > 0
      );
    },

    async setNotificationOutcome(provider: string, notificationId: string, outcome: string): Promise<void> {
      await db.run(sql`
        UPDATE payment_notifications SET outcome = ${outcome}
        WHERE provider = ${provider} AND notification_id = ${notificationId}`);
    },

    async notificationOutcome(provider: string, notificationId: string): Promise<string | undefined> {
      const row = await db.get<{ outcome: string }>(sql`
        SELECT outcome FROM payment_notifications WHERE provider = ${provider} AND notification_id = ${notificationId}`);
      return row?.outcome;
    },

    async notificationsOf(paymentId: string): Promise<{ notificationId: string; outcome: string }[]> {
      const rows = await db.all<{ notification_id: string; outcome: string }>(sql`
        SELECT notification_id, outcome FROM payment_notifications WHERE payment_id = ${paymentId} ORDER BY received_at`);
      return rows.map((r) => ({ notificationId: r.notification_id, outcome: r.outcome }));
    },

    // ---- refunds -----------------------------------------------------------------------------------------

    /**
     * A pending refund (due at once) of an order for a reason: of an entry's line, or (entryId null) of a whole
     * payment such as a double payment's second charge (paymentId). False (nothing added) when that order, entry
     * and reason, or the refund number given, already have one.
     */
    async addRefund(input: {
      orderId: number;
      entryId: number | null;
      amountFen: number;
      reason: string;
      now: number;
      /** The payment it gives back; default (null) the order's paid payment. */
      paymentId?: string | null;
      /** A number of the caller's (one per payment, e.g. 'DUP' + its id); default a fresh one. */
      refundNo?: string;
    }): Promise<boolean> {
      const insert = (refundNo: string) => sql`
        INSERT INTO refunds (refund_no, order_id, entry_id, amount_fen, reason, status, created_at, payment_id)
        VALUES (${refundNo}, ${input.orderId}, ${input.entryId}, ${input.amountFen}, ${input.reason}, 'pending',
          ${input.now}, ${input.paymentId ?? null})
        ON CONFLICT DO NOTHING`;
      if (input.refundNo !== undefined) return (await db.run(insert(input.refundNo))) > 0;
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const refundNo = newNumber('RF', input.now);
        const clash = await db.get<{ n: number }>(sql`SELECT 1 AS n FROM refunds WHERE refund_no = ${refundNo}`);
        if (clash) continue;
        return (await db.run(insert(refundNo))) > 0;
      }
      throw new Error('no free refund number after 8 attempts');
    },

    /** pending → done (or failed); false when it was not pending. */
    async finishRefund(refundNo: string, to: 'done' | 'failed', now: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE refunds SET status = ${to}, done_at = ${now}, next_at = 0
          WHERE refund_no = ${refundNo} AND status = 'pending'`)) > 0
      );
    },

    /** A call to the provider that did not confirm a pending refund: counted, its answer kept, tried again at nextAt. */
    async noteRefundAttempt(refundNo: string, error: string, nextAt: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE refunds SET attempts = attempts + 1, last_error = ${error}, next_at = ${nextAt}, claimed_until = 0
          WHERE refund_no = ${refundNo} AND status = 'pending'`)) > 0
      );
    },

    /**
     * Claims a pending refund due at `now` for one sweep (its next try moved to `until`, the longest a call to
     * the provider takes): false when it is no longer due, or another sweep or an organiser's retry holds it.
     * The claim ends at `until`, or when the attempt is noted (noteRefundAttempt) or the refund confirmed.
     */
    async claimDueRefund(refundNo: string, now: number, until: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE refunds SET next_at = ${until}, claimed_until = ${until}
          WHERE refund_no = ${refundNo} AND status = 'pending' AND next_at <= ${now} AND claimed_until <= ${now}`)) > 0
      );
    },

    /**
     * Claims a pending refund for the organiser's retry, whatever its next try, unless a sweep or another retry
     * holds it (until `claimed_until`): of two retries at once, one claims it. False otherwise.
     */
    async claimRefund(refundNo: string, now: number, until: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE refunds SET next_at = ${until}, claimed_until = ${until}
          WHERE refund_no = ${refundNo} AND status = 'pending' AND claimed_until <= ${now}`)) > 0
      );
    },

    /** A pending refund made due at `at` (the organiser's retry, for the server's sweep). */
    async refundDueAt(refundNo: string, at: number): Promise<boolean> {
      return (
        (await db.run(sql`UPDATE refunds SET next_at = ${at} WHERE refund_no = ${refundNo} AND status = 'pending'`)) > 0
      );
    },

    async findRefund(refundNo: string): Promise<RefundRecord | undefined> {
      const row = await db.get<RefundRow>(sql`SELECT ${REFUND_COLUMNS} FROM refunds WHERE refund_no = ${refundNo}`);
      return row ? toRefund(row) : undefined;
    },

    async refundsOf(orderId: number): Promise<RefundRecord[]> {
      const rows = await db.all<RefundRow>(
        sql`SELECT ${REFUND_COLUMNS} FROM refunds WHERE order_id = ${orderId} ORDER BY id`,
      );
      return rows.map(toRefund);
    },

    /** Refunds pending whose next try is due at `now` (any order), oldest first. */
    async dueRefunds(now: number, limit: number): Promise<RefundRecord[]> {
      const rows = await db.all<RefundRow>(sql`
        SELECT ${REFUND_COLUMNS} FROM refunds WHERE status = 'pending' AND next_at <= ${now}
        ORDER BY next_at, id LIMIT ${limit}`);
      return rows.map(toRefund);
    },

    /** Refunds not confirmed yet (pending; of one race when given), oldest first, with their order and entry. */
    async owedRefunds(raceId?: string): Promise<OwedRefund[]> {
      const race = raceId === undefined ? sql`` : sql`AND o.race_id = ${raceId}`;
      const rows = await db.all<
        RefundRow & { order_no: string; race_id: string; entry_no: string | null; item_code: string | null }
      >(sql`
        SELECT ${sql.raw(
          'r.id, r.refund_no, r.order_id, r.entry_id, r.amount_fen, r.reason, r.status, r.created_at, r.done_at, ' +
            'r.payment_id, r.attempts, r.last_error, r.next_at, o.order_no, o.race_id, e.entry_no, e.item_code',
        )}
        FROM refunds r JOIN orders o ON o.id = r.order_id LEFT JOIN entries e ON e.id = r.entry_id
        WHERE r.status = 'pending' ${race}
        ORDER BY r.id`);
      return rows.map((row) => ({
        ...toRefund(row),
        orderNo: row.order_no,
        raceId: row.race_id,
        entryNo: row.entry_no,
        itemCode: row.item_code,
      }));
    },
  };
}

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
