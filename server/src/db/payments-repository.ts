/**
 * Payments of sign-up orders (issue 14 §4, migration 13): payments (one per attempt at the provider),
 * payment_notifications (each notification of a provider once: its primary key makes a repeated or parallel
 * delivery a no-op) and refunds (one per order, entry and reason: the refunds_entry_reason index makes a
 * repeated refund a no-op). Every status change is guarded on the status it leaves. Amounts are integer fen.
 */
import { randomInt } from 'node:crypto';
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
}

const PAYMENT_COLUMNS = sql.raw(
  'id, payment_id, order_id, provider, amount_fen, status, trade_no, created_at, updated_at',
);
const REFUND_COLUMNS = sql.raw('id, refund_no, order_id, entry_id, amount_fen, reason, status, created_at, done_at');

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
    async create(input: { orderId: number; provider: string; amountFen: number; now: number }): Promise<PaymentRecord> {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const row = await db.get<PaymentRow>(sql`
          INSERT INTO payments (payment_id, order_id, provider, amount_fen, status, created_at, updated_at)
          VALUES (${newNumber('PAY', input.now)}, ${input.orderId}, ${input.provider}, ${input.amountFen}, 'created',
            ${input.now}, ${input.now})
          ON CONFLICT (payment_id) DO NOTHING
          RETURNING ${PAYMENT_COLUMNS}`);
        if (row) return toPayment(row);
      }
      throw new Error('no free payment id after 8 attempts');
    },

    findByPaymentId: (paymentId: string) =>
      onePayment(sql`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE payment_id = ${paymentId}`),

    /** The order's open attempt (created) at this provider for this amount, the newest, if any. */
    openFor: (orderId: number, provider: string, amountFen: number) =>
      onePayment(sql`
        SELECT ${PAYMENT_COLUMNS} FROM payments
        WHERE order_id = ${orderId} AND provider = ${provider} AND amount_fen = ${amountFen} AND status = 'created'
        ORDER BY id DESC LIMIT 1`),

    /** The order's open attempts (created). */
    async openOf(orderId: number): Promise<PaymentRecord[]> {
      const rows = await db.all<PaymentRow>(
        sql`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE order_id = ${orderId} AND status = 'created' ORDER BY id`,
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
     * A pending refund of an entry's line of an order for a reason; false (nothing added) when that order,
     * entry and reason already have one.
     */
    async addRefund(input: {
      orderId: number;
      entryId: number;
      amountFen: number;
      reason: string;
      now: number;
    }): Promise<boolean> {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const refundNo = newNumber('RF', input.now);
        const clash = await db.get<{ n: number }>(sql`SELECT 1 AS n FROM refunds WHERE refund_no = ${refundNo}`);
        if (clash) continue;
        return (
          (await db.run(sql`
            INSERT INTO refunds (refund_no, order_id, entry_id, amount_fen, reason, status, created_at)
            VALUES (${refundNo}, ${input.orderId}, ${input.entryId}, ${input.amountFen}, ${input.reason}, 'pending',
              ${input.now})
            ON CONFLICT DO NOTHING`)) > 0
        );
      }
      throw new Error('no free refund number after 8 attempts');
    },

    /** pending → done (or failed); false when it was not pending. */
    async finishRefund(refundNo: string, to: 'done' | 'failed', now: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE refunds SET status = ${to}, done_at = ${now} WHERE refund_no = ${refundNo} AND status = 'pending'`)) >
        0
      );
    },

    async refundsOf(orderId: number): Promise<RefundRecord[]> {
      const rows = await db.all<RefundRow>(
        sql`SELECT ${REFUND_COLUMNS} FROM refunds WHERE order_id = ${orderId} ORDER BY id`,
      );
      return rows.map(toRefund);
    },

    /** Refunds still pending at the provider (any order), oldest first. */
    async pendingRefunds(limit: number): Promise<RefundRecord[]> {
      const rows = await db.all<RefundRow>(
        sql`SELECT ${REFUND_COLUMNS} FROM refunds WHERE status = 'pending' ORDER BY id LIMIT ${limit}`,
      );
      return rows.map(toRefund);
    },
  };
}

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
