/**
 * The audit log (migration 21): append-only, each record carrying the hash of the one before
 * (services/staff/audit.ts computes the hashes and verifies the chain). Nothing here updates or deletes.
 */
import { sql, type Db } from './engine.ts';

export interface AuditRecord {
  seq: number;
  at: number;
  /** 'staff:<id>' or 'cli:<os user>@<host>' */
  actor: string;
  staffId: number | null;
  /** Where it came from: the console's client address, or 'cli'. */
  source: string;
  action: string;
  raceId: string | null;
  /** What it acted on (an entry number, a staff e-mail, a file…). */
  target: string;
  before: string | null;
  after: string | null;
  prevHash: string;
  hash: string;
}

interface AuditRow {
  seq: number;
  at: number;
  actor: string;
  staff_id: number | null;
  source: string;
  action: string;
  race_id: string | null;
  target: string;
  before_json: string | null;
  after_json: string | null;
  prev_hash: string;
  hash: string;
}

const toRecord = (r: AuditRow): AuditRecord => ({
  seq: Number(r.seq),
  at: Number(r.at),
  actor: r.actor,
  staffId: r.staff_id === null ? null : Number(r.staff_id),
  source: r.source,
  action: r.action,
  raceId: r.race_id,
  target: r.target,
  before: r.before_json,
  after: r.after_json,
  prevHash: r.prev_hash,
  hash: r.hash,
});

export interface AuditFilter {
  action?: string;
  /** An actor as kept ('staff:<id>', 'cli:<user>@<host>'), or 'cli' for any command line. */
  actor?: string;
  raceId?: string;
  from?: number;
  to?: number;
  /** Records before this sequence number (the next page). */
  beforeSeq?: number;
  limit: number;
}

export const AUDIT_LOCK = 'audit-log';

export function createAuditRepository(db: Db) {
  return {
    /** The last record (inside the caller's transaction, after AUDIT_LOCK), or undefined for an empty log. */
    async last(): Promise<Pick<AuditRecord, 'seq' | 'hash'> | undefined> {
      const row = await db.get<{ seq: number; hash: string }>(
        sql`SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1`,
      );
      return row && { seq: Number(row.seq), hash: row.hash };
    },

    async insert(record: AuditRecord): Promise<void> {
      await db.run(sql`
        INSERT INTO audit_log
          (seq, at, actor, staff_id, source, action, race_id, target, before_json, after_json, prev_hash, hash)
        VALUES (${record.seq}, ${record.at}, ${record.actor}, ${record.staffId}, ${record.source}, ${record.action},
          ${record.raceId}, ${record.target}, ${record.before}, ${record.after}, ${record.prevHash}, ${record.hash})
      `);
    },

    /** Records in sequence from `afterSeq` (exclusive), `limit` at a time: the chain's verification reads them all. */
    async page(afterSeq: number, limit: number): Promise<AuditRecord[]> {
      const rows = await db.all<AuditRow>(
        sql`SELECT * FROM audit_log WHERE seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`,
      );
      return rows.map(toRecord);
    },

    /** The actions the log holds, in alphabetical order (the console's filter offers them). */
    async actions(): Promise<string[]> {
      const rows = await db.all<{ action: string }>(sql`SELECT DISTINCT action FROM audit_log ORDER BY action`);
      return rows.map((r) => r.action);
    },

    /** The newest records that match, newest first. */
    async find(filter: AuditFilter): Promise<AuditRecord[]> {
      const where = [sql`1 = 1`];
      if (filter.action) where.push(sql`action = ${filter.action}`);
      if (filter.actor === 'cli') where.push(sql`staff_id IS NULL`);
      else if (filter.actor) where.push(sql`actor = ${filter.actor}`);
      if (filter.raceId) where.push(sql`race_id = ${filter.raceId}`);
      if (filter.from !== undefined) where.push(sql`at >= ${filter.from}`);
      if (filter.to !== undefined) where.push(sql`at < ${filter.to}`);
      if (filter.beforeSeq !== undefined) where.push(sql`seq < ${filter.beforeSeq}`);
      const rows = await db.all<AuditRow>(
        sql`SELECT * FROM audit_log WHERE ${sql.join(where, sql` AND `)} ORDER BY seq DESC LIMIT ${filter.limit}`,
      );
      return rows.map(toRecord);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
