/**
 * Sign-up orders (issue 14, migration 13): one order per submission that takes payment, one line (sub-order)
 * per entry. Order numbers: 'RS' + yyyymmdd (UTC) + 8 random digits; sub-orders: `${orderNo}-1`, `-2` ….
 * Every transition is one UPDATE guarded on the status it leaves (1 awaiting payment, 3 paid, 4 cancelled,
 * 5 refunded), so a repeated notification or job run changes nothing. Amounts are integer fen.
 */
import { randomInt } from 'node:crypto';
import type { RawBuilder } from 'kysely';
import { shownOrderStatus, type OrderStatus, type OrderView } from '#contract/entry';
import type { LocalText } from '#contract/registration-form';
import type { RaceInfo } from '#contract/site-config/race-types';
import { runnerMessageKeyParts } from '../lib/outbox-keys.ts';
import { sql, type Db } from './engine.ts';

interface OrderRow {
  id: number;
  order_no: string;
  race_id: string;
  user_id: number;
  status: number;
  amount_fen: number;
  paid_fen: number;
  refunded_fen: number;
  deadline_at: number | null;
  created_at: number;
  paid_at: number | null;
  settled_at: number | null;
  serial_no: string | null;
}

export interface OrderRecord {
  id: number;
  orderNo: string;
  raceId: string;
  userId: number;
  /** Stored status: 1 awaiting payment, 3 paid, 4 cancelled, 5 refunded. */
  status: OrderStatus;
  amountFen: number;
  paidFen: number;
  refundedFen: number;
  deadlineAt: number | null;
  createdAt: number;
  paidAt: number | null;
  settledAt: number | null;
  serialNo: string | null;
}

export interface OrderLineRecord {
  subOrderNo: string;
  entryId: number;
  amountFen: number;
}

export interface OrderCreate {
  raceId: string;
  userId: number;
  amountFen: number;
  /** Pay before this (epoch ms). */
  deadlineAt: number | null;
  createdAt: number;
  lines: { entryId: number; amountFen: number }[];
  /** Draws the order numbers tried (default newOrderNo; tests give their own to force a clash). */
  drawOrderNo?: (at: number) => string;
}

export interface PaidFacts {
  paidFen: number;
  paidAt: number;
  /** The provider's serial number of the payment. */
  serialNo: string | null;
}

const COLUMNS = sql.raw(
  'id, order_no, race_id, user_id, status, amount_fen, paid_fen, refunded_fen, deadline_at, created_at, paid_at, ' +
    'settled_at, serial_no',
);

const num = (v: number | null) => (v === null ? null : Number(v));

const toOrder = (row: OrderRow): OrderRecord => ({
  id: Number(row.id),
  orderNo: row.order_no,
  raceId: row.race_id,
  userId: Number(row.user_id),
  status: Number(row.status) as OrderStatus,
  amountFen: Number(row.amount_fen),
  paidFen: Number(row.paid_fen),
  refundedFen: Number(row.refunded_fen),
  deadlineAt: num(row.deadline_at),
  createdAt: Number(row.created_at),
  paidAt: num(row.paid_at),
  settledAt: num(row.settled_at),
  serialNo: row.serial_no,
});

/** 'RS' + the UTC date of `at` (yyyymmdd) + 8 random digits. */
export function newOrderNo(at: number): string {
  const day = new Date(at).toISOString().slice(0, 10).replaceAll('-', '');
  return `RS${day}${String(randomInt(100_000_000)).padStart(8, '0')}`;
}

/** An order line as its runner sees it. */
export interface OrderLineShown {
  subOrderNo: string;
  entryNo: string;
  name: string;
  itemCode: string;
  amountFen: number;
}

/** The order as its runner sees it at `now`, from its record, its lines and its race (item names). */
export function orderView(
  order: OrderRecord,
  lines: OrderLineShown[],
  info: RaceInfo | undefined,
  now: number,
  /** The status of the order's latest payment attempt, when it has one. */
  lastPayment?: string,
): OrderView {
  const itemName = (code: string): LocalText =>
    info?.entry?.items.find((item) => item.code === code)?.name ?? { zh: code, en: code };
  return {
    orderNo: order.orderNo,
    raceId: order.raceId,
    status: shownOrderStatus(order, now),
    amountFen: order.amountFen,
    paidFen: order.paidFen,
    couponFen: 0,
    discountFen: 0,
    createdAt: order.createdAt,
    deadlineAt: order.status === 1 ? order.deadlineAt : null,
    paidAt: order.paidAt,
    serialNo: order.serialNo,
    refundedFen: order.refundedFen,
    lines: lines.map((line) => ({
      subOrderNo: line.subOrderNo,
      entryNo: line.entryNo,
      name: line.name,
      itemName: itemName(line.itemCode),
      amountFen: line.amountFen,
    })),
    ...(order.status === 1 && lastPayment === 'failed' ? { paymentFailed: true as const } : {}),
  };
}

export function createOrdersRepository(db: Db) {
  const one = async (query: Parameters<Db['get']>[0]) => {
    const row = await db.get<OrderRow>(query);
    return row ? toOrder(row) : undefined;
  };
  const findById = (id: number) => one(sql`SELECT ${COLUMNS} FROM orders WHERE id = ${id}`);
  const findByNo = (orderNo: string) => one(sql`SELECT ${COLUMNS} FROM orders WHERE order_no = ${orderNo}`);

  const lines = async (orderId: number): Promise<OrderLineRecord[]> => {
    const rows = await db.all<{ sub_order_no: string; entry_id: number; amount_fen: number }>(sql`
      SELECT sub_order_no, entry_id, amount_fen FROM order_lines WHERE order_id = ${orderId} ORDER BY sub_order_no`);
    return rows.map((r) => ({
      subOrderNo: r.sub_order_no,
      entryId: Number(r.entry_id),
      amountFen: Number(r.amount_fen),
    }));
  };

  /** The order as its runner sees it (names and item names from the entries and the race's settings). */
  const toView = async (order: OrderRecord, now: number): Promise<OrderView> => {
    const rows = await db.all<{
      sub_order_no: string;
      entry_no: string;
      name: string;
      item_code: string;
      amount_fen: number;
    }>(sql`
      SELECT l.sub_order_no, e.entry_no, e.name, e.item_code, l.amount_fen
      FROM order_lines l JOIN entries e ON e.id = l.entry_id
      WHERE l.order_id = ${order.id} ORDER BY l.sub_order_no`);
    const race = await db.get<{ info_json: string }>(sql`SELECT info_json FROM races WHERE race_id = ${order.raceId}`);
    const info = race ? (JSON.parse(race.info_json) as RaceInfo) : undefined;
    const shown = rows.map((r) => ({
      subOrderNo: r.sub_order_no,
      entryNo: r.entry_no,
      name: r.name,
      itemCode: r.item_code,
      amountFen: Number(r.amount_fen),
    }));
    const payment = await db.get<{ status: string }>(
      sql`SELECT status FROM payments WHERE order_id = ${order.id} ORDER BY id DESC LIMIT 1`,
    );
    return orderView(order, shown, info, now, payment?.status);
  };

  /** Paid (3) from the given status, guarded on it; false when the order is not in that status. */
  const paidFrom = async (orderId: number, from: 1 | 4, paid: PaidFacts): Promise<boolean> =>
    (await db.run(sql`
      UPDATE orders SET status = 3, paid_fen = ${paid.paidFen}, paid_at = ${paid.paidAt}, settled_at = ${paid.paidAt},
        serial_no = ${paid.serialNo}
      WHERE id = ${orderId} AND status = ${from}`)) > 0;

  return {
    /** A new order awaiting payment (status 1) with its lines; retried on an order-number clash. */
    async create(input: OrderCreate): Promise<{ id: number; orderNo: string; subOrderNos: string[] }> {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const orderNo = (input.drawOrderNo ?? newOrderNo)(input.createdAt);
        const subOrderNos = input.lines.map((_, k) => `${orderNo}-${k + 1}`);
        const insert = sql`
          INSERT INTO orders (order_no, race_id, user_id, status, amount_fen, deadline_at, created_at)
          VALUES (${orderNo}, ${input.raceId}, ${input.userId}, 1, ${input.amountFen}, ${input.deadlineAt}, ${input.createdAt})
          ON CONFLICT (order_no) DO NOTHING
          RETURNING id`;
        if (db.engine === 'postgres' && input.lines.length > 0) {
          // The order and its lines in one round trip (nothing is inserted on an order-number clash).
          const row = await db.get<{ order_id: number }>(sql`
            WITH o AS (${insert})
            INSERT INTO order_lines (order_id, sub_order_no, entry_id, amount_fen)
            SELECT o.id, l.sub_order_no, l.entry_id, l.amount_fen
            FROM o CROSS JOIN unnest(CAST(${subOrderNos} AS TEXT[]), CAST(${input.lines.map((line) => line.entryId)} AS BIGINT[]),
              CAST(${input.lines.map((line) => line.amountFen)} AS BIGINT[])) AS l (sub_order_no, entry_id, amount_fen)
            RETURNING order_id`);
          if (row) return { id: Number(row.order_id), orderNo, subOrderNos };
          continue;
        }
        const row = await db.get<{ id: number }>(insert);
        if (!row) continue;
        const id = Number(row.id);
        if (input.lines.length > 0) {
          await db.run(sql`
            INSERT INTO order_lines (order_id, sub_order_no, entry_id, amount_fen)
            VALUES ${sql.join(input.lines.map((line, k) => sql`(${id}, ${subOrderNos[k]}, ${line.entryId}, ${line.amountFen})`))}`);
        }
        return { id, orderNo, subOrderNos };
      }
      throw new Error('no free order number after 8 attempts');
    },

    findById,
    findByNo,
    /** The order's lines (sub-orders), in order. */
    lines,

    /** The order as OrderView at `now` (cancel-soon shown in its last minutes), or undefined. */
    async view(orderNo: string, now: number): Promise<OrderView | undefined> {
      const order = await findByNo(orderNo);
      return order ? toView(order, now) : undefined;
    },

    /** Views of these orders (by id), in the given order. */
    async viewsOf(orderIds: number[], now: number): Promise<OrderView[]> {
      const views: OrderView[] = [];
      for (const id of orderIds) {
        const order = await findById(id);
        if (order) views.push(await toView(order, now));
      }
      return views;
    },

    /** The account's orders, newest first, as OrderView. */
    async listForUser(userId: number, now: number): Promise<OrderView[]> {
      const rows = await db.all<OrderRow>(
        sql`SELECT ${COLUMNS} FROM orders WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`,
      );
      return Promise.all(rows.map((row) => toView(toOrder(row), now)));
    },

    /** The latest order of each entry (entry id → order number). */
    async latestOrderNos(entryIds: number[]): Promise<Map<number, string>> {
      const map = new Map<number, string>();
      if (entryIds.length === 0) return map;
      const rows = await db.all<{ entry_id: number; order_no: string }>(sql`
        SELECT l.entry_id, o.order_no FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE l.entry_id IN (${sql.join(entryIds)}) ORDER BY o.created_at, o.id`);
      for (const row of rows) map.set(Number(row.entry_id), row.order_no);
      return map;
    },

    /** Every order of an entry, oldest first (the console's entry page). */
    async ofEntry(entryId: number): Promise<OrderRecord[]> {
      const rows = await db.all<OrderRow>(sql`
        SELECT ${sql.raw(
          'o.id, o.order_no, o.race_id, o.user_id, o.status, o.amount_fen, o.paid_fen, o.refunded_fen, o.deadline_at, ' +
            'o.created_at, o.paid_at, o.settled_at, o.serial_no',
        )}
        FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE l.entry_id = ${entryId} ORDER BY o.created_at, o.id`);
      return rows.map(toOrder);
    },

    /** The latest order of an entry, if any. */
    async latestOfEntry(entryId: number): Promise<OrderRecord | undefined> {
      return one(sql`
        SELECT ${sql.raw(
          'o.id, o.order_no, o.race_id, o.user_id, o.status, o.amount_fen, o.paid_fen, o.refunded_fen, o.deadline_at, ' +
            'o.created_at, o.paid_at, o.settled_at, o.serial_no',
        )}
        FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE l.entry_id = ${entryId} ORDER BY o.created_at DESC, o.id DESC LIMIT 1`);
    },

    /** Awaiting payment (1) → paid (3). False when the order is not awaiting payment. */
    markPaid: (orderId: number, paid: PaidFacts) => paidFrom(orderId, 1, paid),

    /** A payment that arrived after the automatic cancellation: cancelled (4) → paid (3). False otherwise. */
    markPaidAfterCancel: (orderId: number, paid: PaidFacts) => paidFrom(orderId, 4, paid),

    /**
     * Records a late payment on a cancelled order without reinstating it (the money is to be refunded): the
     * order stays cancelled (4) with paid_fen set. False when it is not cancelled or already has a payment.
     */
    async notePaidWhileCancelled(orderId: number, paid: PaidFacts): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE orders SET paid_fen = ${paid.paidFen}, paid_at = ${paid.paidAt}, serial_no = ${paid.serialNo}
          WHERE id = ${orderId} AND status = 4 AND paid_fen = 0`)) > 0
      );
    },

    /** Awaiting payment (1) → cancelled (4). False when the order is not awaiting payment. */
    async cancel(orderId: number, at: number): Promise<boolean> {
      return (
        (await db.run(sql`UPDATE orders SET status = 4, settled_at = ${at} WHERE id = ${orderId} AND status = 1`)) > 0
      );
    },

    /**
     * Adds a refund of `refundedFen` to a paid order (3), or a cancelled one that holds a late payment (4): the
     * refunded amount grows by it and the order becomes refunded (5) once all it was paid is refunded. False
     * (nothing changed) when the order holds no such payment or the refund would exceed what was paid.
     */
    async markRefunded(orderId: number, refundedFen: number, at: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE orders SET refunded_fen = refunded_fen + ${refundedFen},
            status = CASE WHEN refunded_fen + ${refundedFen} >= paid_fen THEN 5 ELSE status END, settled_at = ${at}
          WHERE id = ${orderId} AND status IN (3, 4) AND paid_fen > 0 AND refunded_fen + ${refundedFen} <= paid_fen`)) >
        0
      );
    },

    /** Orders awaiting payment whose deadline has passed at `now`, oldest deadline first. */
    /**
     * Unpaid orders whose deadline comes within `beforeMs` of `now`, given at least `minWindowMs` to pay, whose
     * reminder (outbox key runnerMessageKey(`${reminderKeyPrefix}<orderNo>`, raceId), as tellRunner keys it) is not written yet, the soonest first.
     */
    async toRemind(
      now: number,
      beforeMs: number,
      minWindowMs: number,
      reminderKeyPrefix: string,
      limit: number,
    ): Promise<OrderRecord[]> {
      // The reminder's outbox key of each order, as the writer makes it (lib/outbox-keys.ts), in SQL.
      const parts = runnerMessageKeyParts<RawBuilder<unknown>>(sql`${reminderKeyPrefix} || o.order_no`, sql`o.race_id`);
      const reminderKey = sql.join(
        parts.map((part) => (typeof part === 'string' ? sql`${part}` : part)),
        sql` || `,
      );
      const rows = await db.all<OrderRow>(sql`
        SELECT ${COLUMNS} FROM orders o WHERE status = 1 AND deadline_at IS NOT NULL
          AND deadline_at > ${now} AND deadline_at <= ${now + beforeMs} AND created_at <= deadline_at - ${minWindowMs}
          AND NOT EXISTS (SELECT 1 FROM outbox WHERE dedupe_key = ${reminderKey})
        ORDER BY deadline_at, id LIMIT ${limit}`);
      return rows.map(toOrder);
    },

    async dueUnpaid(now: number, limit: number): Promise<OrderRecord[]> {
      const rows = await db.all<OrderRow>(sql`
        SELECT ${COLUMNS} FROM orders WHERE status = 1 AND deadline_at IS NOT NULL AND deadline_at <= ${now}
        ORDER BY deadline_at, id LIMIT ${limit}`);
      return rows.map(toOrder);
    },
  };
}

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
