/**
 * Reconciliation of the providers' daily bills (issue 31 §3, migration 25): the runs (reconciliation_runs), the
 * bill's lines of a provider's day (reconciliation_lines, replaced by a re-run) and the differences found
 * (reconciliation_differences, one per provider, day and key, with the finance staff's handling), and the
 * reads of our own payments and refunds of a provider the comparison needs. Amounts are integer fen; days are
 * YYYY-MM-DD in China time (the provider's day), times epoch ms.
 */
import type { ReconciliationCounts, ReconciliationSource, ReconciliationStatus } from '#contract/reconciliation';
import type { BillLine } from '../lib/payment/provider.ts';
import { sql, type Db } from './engine.ts';

export type RunSource = ReconciliationSource;
export type RunStatus = ReconciliationStatus;
/** A bill line as kept. */
export type StoredBillLine = BillLine;
export type RunCounts = ReconciliationCounts;

export interface RunRecord extends RunCounts {
  id: number;
  provider: string;
  day: string;
  source: RunSource;
  /** Who ran it: 'job' (the daily job), 'staff:<id>' (the console), 'cli:<user>@<host>'. */
  actor: string;
  status: RunStatus;
  error: string | null;
  ranAt: number;
}

/** Our payment as the comparison reads it, with its order. */
export interface OurPayment {
  paymentId: string;
  provider: string;
  status: string;
  tradeNo: string | null;
  amountFen: number;
  /** When it was recorded paid here (its last change). */
  at: number;
  orderNo: string;
  raceId: string;
}

/** Our refund as the comparison reads it: with the payment it gives back (and that payment's provider). */
export interface OurRefund {
  refundNo: string;
  paymentId: string | null;
  provider: string | null;
  status: string;
  amountFen: number;
  /** When the provider confirmed it here (null while pending). */
  at: number | null;
  orderNo: string;
  raceId: string;
}

export interface DifferenceInput {
  /** Its identity within the provider's day: the kind and the payment or refund (a re-run finds it again). */
  key: string;
  kind: string;
  paymentId: string | null;
  refundNo: string | null;
  orderNo: string | null;
  raceId: string | null;
  oursFen: number | null;
  theirsFen: number | null;
  ours: unknown;
  theirs: unknown;
}

export interface DifferenceRecord extends Omit<DifferenceInput, 'ours' | 'theirs'> {
  id: number;
  provider: string;
  day: string;
  /** Our record (null: we have none) and the provider's line (null: the bill has none), as found. */
  ours: Record<string, unknown> | null;
  theirs: Record<string, unknown> | null;
  runId: number;
  foundAt: number;
  /** false when the latest run of its day no longer finds it (a handled one is kept). */
  stillFound: boolean;
  handledAt: number | null;
  handledBy: string | null;
  note: string | null;
}

export interface DifferenceFilter {
  provider?: string;
  /** Days from and to (inclusive), YYYY-MM-DD. */
  from?: string;
  to?: string;
  state?: 'open' | 'handled';
  kind?: string;
  limit: number;
}

interface RunRow {
  id: number;
  provider: string;
  day: string;
  source: RunSource;
  actor: string;
  status: RunStatus;
  bill_payments: number;
  bill_paid_fen: number;
  bill_refunds: number;
  bill_refund_fen: number;
  our_payments: number;
  our_paid_fen: number;
  our_refunds: number;
  our_refund_fen: number;
  differences: number;
  error: string | null;
  ran_at: number;
}

interface DifferenceRow {
  id: number;
  provider: string;
  day: string;
  diff_key: string;
  kind: string;
  payment_id: string | null;
  refund_no: string | null;
  order_no: string | null;
  race_id: string | null;
  ours_fen: number | null;
  theirs_fen: number | null;
  ours_json: string | null;
  theirs_json: string | null;
  run_id: number;
  found_at: number;
  still_found: number;
  handled_at: number | null;
  handled_by: string | null;
  note: string | null;
}

const num = (value: number | null) => (value === null ? null : Number(value));
const parsed = (text: string | null) => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

const toRun = (row: RunRow): RunRecord => ({
  id: Number(row.id),
  provider: row.provider,
  day: row.day,
  source: row.source,
  actor: row.actor,
  status: row.status,
  billPayments: Number(row.bill_payments),
  billPaidFen: Number(row.bill_paid_fen),
  billRefunds: Number(row.bill_refunds),
  billRefundFen: Number(row.bill_refund_fen),
  ourPayments: Number(row.our_payments),
  ourPaidFen: Number(row.our_paid_fen),
  ourRefunds: Number(row.our_refunds),
  ourRefundFen: Number(row.our_refund_fen),
  differences: Number(row.differences),
  error: row.error,
  ranAt: Number(row.ran_at),
});

const toDifference = (row: DifferenceRow): DifferenceRecord => ({
  id: Number(row.id),
  provider: row.provider,
  day: row.day,
  key: row.diff_key,
  kind: row.kind,
  paymentId: row.payment_id,
  refundNo: row.refund_no,
  orderNo: row.order_no,
  raceId: row.race_id,
  oursFen: num(row.ours_fen),
  theirsFen: num(row.theirs_fen),
  ours: parsed(row.ours_json),
  theirs: parsed(row.theirs_json),
  runId: Number(row.run_id),
  foundAt: Number(row.found_at),
  stillFound: Number(row.still_found) === 1,
  handledAt: num(row.handled_at),
  handledBy: row.handled_by,
  note: row.note,
});

/** At most this many ids in one IN (…) list. */
const CHUNK = 500;
const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

const PAYMENT_SELECT = sql.raw(
  'p.payment_id, p.provider, p.status, p.trade_no, p.amount_fen, p.updated_at, o.order_no, o.race_id',
);
type PaymentJoinRow = {
  payment_id: string;
  provider: string;
  status: string;
  trade_no: string | null;
  amount_fen: number;
  updated_at: number;
  order_no: string;
  race_id: string;
};
const toOurPayment = (row: PaymentJoinRow): OurPayment => ({
  paymentId: row.payment_id,
  provider: row.provider,
  status: row.status,
  tradeNo: row.trade_no,
  amountFen: Number(row.amount_fen),
  at: Number(row.updated_at),
  orderNo: row.order_no,
  raceId: row.race_id,
});

// A refund's payment: the one it names, else (rows written before payment_id) its order's first paid one.
const REFUND_FROM = sql.raw(`
  refunds r JOIN orders o ON o.id = r.order_id
  LEFT JOIN payments p ON p.id = COALESCE(
    (SELECT x.id FROM payments x WHERE x.payment_id = r.payment_id),
    (SELECT min(y.id) FROM payments y WHERE r.payment_id IS NULL AND y.order_id = r.order_id AND y.status = 'paid'))`);
const REFUND_SELECT = sql.raw(
  'r.refund_no, p.payment_id, p.provider, r.status, r.amount_fen, r.done_at, o.order_no, o.race_id',
);
type RefundJoinRow = {
  refund_no: string;
  payment_id: string | null;
  provider: string | null;
  status: string;
  amount_fen: number;
  done_at: number | null;
  order_no: string;
  race_id: string;
};
const toOurRefund = (row: RefundJoinRow): OurRefund => ({
  refundNo: row.refund_no,
  paymentId: row.payment_id,
  provider: row.provider,
  status: row.status,
  amountFen: Number(row.amount_fen),
  at: num(row.done_at),
  orderNo: row.order_no,
  raceId: row.race_id,
});

export function createReconciliationRepository(db: Db) {
  return {
    // ---- our side ----------------------------------------------------------------------------------------

    /** The provider's payments recorded paid here in [from, to). */
    async paidBetween(provider: string, from: number, to: number): Promise<OurPayment[]> {
      const rows = await db.all<PaymentJoinRow>(sql`
        SELECT ${PAYMENT_SELECT} FROM payments p JOIN orders o ON o.id = p.order_id
        WHERE p.provider = ${provider} AND p.status = 'paid' AND p.updated_at >= ${from} AND p.updated_at < ${to}
        ORDER BY p.id`);
      return rows.map(toOurPayment);
    },

    /** Payments by our ids, whatever their provider and status. */
    async paymentsByIds(paymentIds: readonly string[]): Promise<OurPayment[]> {
      const out: OurPayment[] = [];
      for (const ids of chunks([...new Set(paymentIds)])) {
        const rows = await db.all<PaymentJoinRow>(sql`
          SELECT ${PAYMENT_SELECT} FROM payments p JOIN orders o ON o.id = p.order_id
          WHERE p.payment_id IN (${sql.join(ids)})`);
        out.push(...rows.map(toOurPayment));
      }
      return out;
    },

    /** Refunds of the provider's payments confirmed here in [from, to). */
    async refundedBetween(provider: string, from: number, to: number): Promise<OurRefund[]> {
      const rows = await db.all<RefundJoinRow>(sql`
        SELECT ${REFUND_SELECT} FROM ${REFUND_FROM}
        WHERE p.provider = ${provider} AND r.status = 'done' AND r.done_at >= ${from} AND r.done_at < ${to}
        ORDER BY r.id`);
      return rows.map(toOurRefund);
    },

    /** Refunds by our numbers, whatever their status. */
    async refundsByNos(refundNos: readonly string[]): Promise<OurRefund[]> {
      const out: OurRefund[] = [];
      for (const nos of chunks([...new Set(refundNos)])) {
        const rows = await db.all<RefundJoinRow>(sql`
          SELECT ${REFUND_SELECT} FROM ${REFUND_FROM} WHERE r.refund_no IN (${sql.join(nos)})`);
        out.push(...rows.map(toOurRefund));
      }
      return out;
    },

    // ---- the bill's lines --------------------------------------------------------------------------------

    /** The provider's bill of a day, replacing what a run before kept of it. */
    async replaceLines(provider: string, day: string, lines: readonly StoredBillLine[]): Promise<void> {
      await db.run(sql`DELETE FROM reconciliation_lines WHERE provider = ${provider} AND day = ${day}`);
      for (const part of chunks(lines)) {
        const values = part.map(
          (l) =>
            sql`(${provider}, ${day}, ${l.kind}, ${l.paymentId}, ${l.tradeNo}, ${l.refundNo}, ${l.amountFen}, ${l.at})`,
        );
        await db.run(sql`
          INSERT INTO reconciliation_lines (provider, day, kind, payment_id, trade_no, refund_no, amount_fen, at)
          VALUES ${sql.join(values)}`);
      }
    },

    /**
     * Which of these payments (kind payment) or refunds (kind refund, by refund number) the provider's bill of
     * another day than `day` holds (the provider counts a payment at midnight on its own side of the day).
     */
    async onOtherDays(
      provider: string,
      day: string,
      kind: 'payment' | 'refund',
      keys: readonly string[],
    ): Promise<Set<string>> {
      const found = new Set<string>();
      const column = kind === 'payment' ? sql.ref('payment_id') : sql.ref('refund_no');
      for (const part of chunks([...new Set(keys)])) {
        const rows = await db.all<{ k: string }>(sql`
          SELECT ${column} AS k FROM reconciliation_lines
          WHERE provider = ${provider} AND day <> ${day} AND kind = ${kind} AND ${column} IN (${sql.join(part)})`);
        for (const row of rows) found.add(row.k);
      }
      return found;
    },

    // ---- runs --------------------------------------------------------------------------------------------

    async addRun(input: Omit<RunRecord, 'id'>): Promise<RunRecord> {
      const row = await db.get<RunRow>(sql`
        INSERT INTO reconciliation_runs (provider, day, source, actor, status, bill_payments, bill_paid_fen,
          bill_refunds, bill_refund_fen, our_payments, our_paid_fen, our_refunds, our_refund_fen, differences, error,
          ran_at)
        VALUES (${input.provider}, ${input.day}, ${input.source}, ${input.actor}, ${input.status},
          ${input.billPayments}, ${input.billPaidFen}, ${input.billRefunds}, ${input.billRefundFen},
          ${input.ourPayments}, ${input.ourPaidFen}, ${input.ourRefunds}, ${input.ourRefundFen}, ${input.differences},
          ${input.error}, ${input.ranAt})
        RETURNING *`);
      if (!row) throw new Error('the reconciliation run was not written');
      return toRun(row);
    },

    /** Runs, newest first (of a provider, days from–to inclusive). */
    async runs(filter: { provider?: string; from?: string; to?: string; limit: number }): Promise<RunRecord[]> {
      const where = [sql`1 = 1`];
      if (filter.provider !== undefined) where.push(sql`provider = ${filter.provider}`);
      if (filter.from !== undefined) where.push(sql`day >= ${filter.from}`);
      if (filter.to !== undefined) where.push(sql`day <= ${filter.to}`);
      const rows = await db.all<RunRow>(sql`
        SELECT * FROM reconciliation_runs WHERE ${sql.join(where, sql` AND `)}
        ORDER BY day DESC, id DESC LIMIT ${filter.limit}`);
      return rows.map(toRun);
    },

    /** Whether a day of a provider has a run that read its bill (matched or with differences). */
    async hasRead(provider: string, day: string): Promise<boolean> {
      const row = await db.get<{ n: number }>(sql`
        SELECT 1 AS n FROM reconciliation_runs WHERE provider = ${provider} AND day = ${day} AND status <> 'failed'
        LIMIT 1`);
      return row !== undefined;
    },

    // ---- differences -------------------------------------------------------------------------------------

    /**
     * The differences a run found for its provider's day: the open ones of that day replaced by these; a
     * handled one found again keeps its handling (and its note), one no longer found is kept, marked so.
     */
    async replaceDifferences(
      run: { id: number; provider: string; day: string; at: number },
      found: readonly DifferenceInput[],
    ): Promise<void> {
      const { provider, day } = run;
      await db.run(sql`
        DELETE FROM reconciliation_differences
        WHERE provider = ${provider} AND day = ${day} AND handled_at IS NULL`);
      await db.run(sql`
        UPDATE reconciliation_differences SET still_found = 0 WHERE provider = ${provider} AND day = ${day}`);
      for (const d of found) {
        const ours = d.ours === null ? null : JSON.stringify(d.ours);
        const theirs = d.theirs === null ? null : JSON.stringify(d.theirs);
        await db.run(sql`
          INSERT INTO reconciliation_differences (provider, day, diff_key, kind, payment_id, refund_no, order_no,
            race_id, ours_fen, theirs_fen, ours_json, theirs_json, run_id, found_at, still_found)
          VALUES (${provider}, ${day}, ${d.key}, ${d.kind}, ${d.paymentId}, ${d.refundNo}, ${d.orderNo}, ${d.raceId},
            ${d.oursFen}, ${d.theirsFen}, ${ours}, ${theirs}, ${run.id}, ${run.at}, 1)
          ON CONFLICT (provider, day, diff_key) DO UPDATE SET
            ours_fen = excluded.ours_fen, theirs_fen = excluded.theirs_fen, ours_json = excluded.ours_json,
            theirs_json = excluded.theirs_json, order_no = excluded.order_no, race_id = excluded.race_id,
            run_id = excluded.run_id, still_found = 1`);
      }
    },

    async differences(filter: DifferenceFilter): Promise<DifferenceRecord[]> {
      const where = [sql`1 = 1`];
      if (filter.provider !== undefined) where.push(sql`provider = ${filter.provider}`);
      if (filter.from !== undefined) where.push(sql`day >= ${filter.from}`);
      if (filter.to !== undefined) where.push(sql`day <= ${filter.to}`);
      if (filter.kind !== undefined) where.push(sql`kind = ${filter.kind}`);
      if (filter.state === 'open') where.push(sql`handled_at IS NULL`);
      if (filter.state === 'handled') where.push(sql`handled_at IS NOT NULL`);
      const rows = await db.all<DifferenceRow>(sql`
        SELECT * FROM reconciliation_differences WHERE ${sql.join(where, sql` AND `)}
        ORDER BY day DESC, id LIMIT ${filter.limit}`);
      return rows.map(toDifference);
    },

    async findDifference(id: number): Promise<DifferenceRecord | undefined> {
      const row = await db.get<DifferenceRow>(sql`SELECT * FROM reconciliation_differences WHERE id = ${id}`);
      return row ? toDifference(row) : undefined;
    },

    /** Marks an open difference handled (who, when, note); false when it was handled already or is gone. */
    async handle(id: number, by: string, note: string, at: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE reconciliation_differences SET handled_at = ${at}, handled_by = ${by}, note = ${note}
          WHERE id = ${id} AND handled_at IS NULL`)) > 0
      );
    },
  };
}

export type ReconciliationRepository = ReturnType<typeof createReconciliationRepository>;
