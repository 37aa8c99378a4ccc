/**
 * Refund and deferral requests (issue 15 §4, migration 14): refund_requests (a runner's request and the
 * organiser's decision; one in review per entry, backed by the partial unique index refund_requests_open) and
 * deferrals (an approved deferral and the named code issued for the next race). All SQL on these tables lives
 * here. Every decision is guarded on the status it leaves (UPDATE … WHERE status = 'review'), so a repeat
 * changes nothing.
 */
import type { RefundRequestKind, RefundRequestStatus } from '#contract/after-entry';
import { sql, type Db } from './engine.ts';

interface RequestRow {
  id: number;
  race_id: string;
  entry_id: number;
  user_id: number;
  kind: RefundRequestKind;
  status: RefundRequestStatus;
  reason: string;
  amount_fen: number;
  reject_reason: string | null;
  created_at: number;
  decided_at: number | null;
}

export interface RefundRequestRecord {
  id: number;
  raceId: string;
  entryId: number;
  userId: number;
  kind: RefundRequestKind;
  status: RefundRequestStatus;
  reason: string;
  amountFen: number;
  rejectReason: string | null;
  createdAt: number;
  decidedAt: number | null;
}

/** A request as the organiser's list shows it: with its entry's number, name and item. */
export type RefundRequestListed = RefundRequestRecord & { entryNo: string; name: string; itemCode: string };

export interface DeferralRecord {
  id: number;
  raceId: string;
  entryId: number;
  certHash: string;
  itemCode: string;
  toRaceId: string | null;
  codeId: number | null;
  createdAt: number;
  issuedAt: number | null;
}

const COLUMNS = sql.raw(
  'id, race_id, entry_id, user_id, kind, status, reason, amount_fen, reject_reason, created_at, decided_at',
);
const R_COLUMNS = sql.raw(
  'r.id, r.race_id, r.entry_id, r.user_id, r.kind, r.status, r.reason, r.amount_fen, r.reject_reason, ' +
    'r.created_at, r.decided_at',
);
const DEFERRAL_COLUMNS = sql.raw(
  'id, race_id, entry_id, cert_hash, item_code, to_race_id, code_id, created_at, issued_at',
);

const num = (v: number | null) => (v === null ? null : Number(v));

const toRequest = (row: RequestRow): RefundRequestRecord => ({
  id: Number(row.id),
  raceId: row.race_id,
  entryId: Number(row.entry_id),
  userId: Number(row.user_id),
  kind: row.kind,
  status: row.status,
  reason: row.reason,
  amountFen: Number(row.amount_fen),
  rejectReason: row.reject_reason,
  createdAt: Number(row.created_at),
  decidedAt: num(row.decided_at),
});

interface DeferralRow {
  id: number;
  race_id: string;
  entry_id: number;
  cert_hash: string;
  item_code: string;
  to_race_id: string | null;
  code_id: number | null;
  created_at: number;
  issued_at: number | null;
}

const toDeferral = (row: DeferralRow): DeferralRecord => ({
  id: Number(row.id),
  raceId: row.race_id,
  entryId: Number(row.entry_id),
  certHash: row.cert_hash,
  itemCode: row.item_code,
  toRaceId: row.to_race_id,
  codeId: num(row.code_id),
  createdAt: Number(row.created_at),
  issuedAt: num(row.issued_at),
});

export function createRefundsRepository(db: Db) {
  return {
    /**
     * A new request in review; undefined (nothing added) when the entry already has one in review (the
     * partial unique index refund_requests_open).
     */
    async insertRequest(input: {
      raceId: string;
      entryId: number;
      userId: number;
      kind: RefundRequestKind;
      reason: string;
      amountFen: number;
      now: number;
    }): Promise<RefundRequestRecord | undefined> {
      const row = await db.get<RequestRow>(sql`
        INSERT INTO refund_requests (race_id, entry_id, user_id, kind, status, reason, amount_fen, created_at)
        VALUES (${input.raceId}, ${input.entryId}, ${input.userId}, ${input.kind}, 'review', ${input.reason},
          ${input.amountFen}, ${input.now})
        ON CONFLICT DO NOTHING
        RETURNING ${COLUMNS}`);
      return row ? toRequest(row) : undefined;
    },

    async findById(id: number): Promise<RefundRequestRecord | undefined> {
      const row = await db.get<RequestRow>(sql`SELECT ${COLUMNS} FROM refund_requests WHERE id = ${id}`);
      return row ? toRequest(row) : undefined;
    },

    /** The entry's requests, newest first. */
    async ofEntry(entryId: number): Promise<RefundRequestRecord[]> {
      const rows = await db.all<RequestRow>(
        sql`SELECT ${COLUMNS} FROM refund_requests WHERE entry_id = ${entryId} ORDER BY created_at DESC, id DESC`,
      );
      return rows.map(toRequest);
    },

    /** The requests of these entries, newest first per entry. */
    async ofEntries(entryIds: number[]): Promise<Map<number, RefundRequestRecord[]>> {
      const map = new Map<number, RefundRequestRecord[]>();
      if (entryIds.length === 0) return map;
      const rows = await db.all<RequestRow>(sql`
        SELECT ${COLUMNS} FROM refund_requests WHERE entry_id IN (${sql.join(entryIds)})
        ORDER BY created_at DESC, id DESC`);
      for (const request of rows.map(toRequest)) {
        const list = map.get(request.entryId) ?? [];
        list.push(request);
        map.set(request.entryId, list);
      }
      return map;
    },

    /** A race's requests with their entries, oldest first; only this status when given. */
    async listForRace(raceId: string, status?: RefundRequestStatus): Promise<RefundRequestListed[]> {
      const rows = await db.all<RequestRow & { entry_no: string; name: string; item_code: string }>(sql`
        SELECT ${R_COLUMNS}, e.entry_no, e.name, e.item_code
        FROM refund_requests r JOIN entries e ON e.id = r.entry_id
        WHERE r.race_id = ${raceId} ${status === undefined ? sql`` : sql`AND r.status = ${status}`}
        ORDER BY r.created_at, r.id`);
      return rows.map((row) => ({ ...toRequest(row), entryNo: row.entry_no, name: row.name, itemCode: row.item_code }));
    },

    /** review → approved or rejected (with the reason shown to the runner); false when it was not in review. */
    async decide(id: number, to: 'approved' | 'rejected', rejectReason: string | null, at: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE refund_requests SET status = ${to}, reject_reason = ${rejectReason}, decided_at = ${at}
          WHERE id = ${id} AND status = 'review'`)) > 0
      );
    },

    // ---- deferrals ---------------------------------------------------------------------------------------

    /** The deferral of an entry (one per entry ever); false when it already has one. */
    async insertDeferral(input: {
      raceId: string;
      entryId: number;
      certHash: string;
      itemCode: string;
      now: number;
    }): Promise<boolean> {
      return (
        (await db.run(sql`
          INSERT INTO deferrals (race_id, entry_id, cert_hash, item_code, created_at)
          VALUES (${input.raceId}, ${input.entryId}, ${input.certHash}, ${input.itemCode}, ${input.now})
          ON CONFLICT (entry_id) DO NOTHING`)) > 0
      );
    },

    async deferralOf(entryId: number): Promise<DeferralRecord | undefined> {
      const row = await db.get<DeferralRow>(sql`SELECT ${DEFERRAL_COLUMNS} FROM deferrals WHERE entry_id = ${entryId}`);
      return row ? toDeferral(row) : undefined;
    },

    /** The deferrals of a race that have no code yet, oldest first. */
    async unissued(raceId: string): Promise<DeferralRecord[]> {
      const rows = await db.all<DeferralRow>(sql`
        SELECT ${DEFERRAL_COLUMNS} FROM deferrals WHERE race_id = ${raceId} AND issued_at IS NULL ORDER BY id`);
      return rows.map(toDeferral);
    },

    /** Notes the code issued for a deferral; false when it already has one (a parallel run issued it). */
    async markIssued(id: number, toRaceId: string, codeId: number, at: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE deferrals SET to_race_id = ${toRaceId}, code_id = ${codeId}, issued_at = ${at}
          WHERE id = ${id} AND issued_at IS NULL`)) > 0
      );
    },
  };
}

export type RefundsRepository = ReturnType<typeof createRefundsRepository>;
