/**
 * The organiser's side of sign-up (issue 14 §6, the CLI's entry commands): invitation codes issued or imported,
 * bibs given to paid entries, the entry list and export, and the figures of a race (migration 13). The runner's
 * side (submission, orders, payment, the draw) writes these tables through its own repositories.
 *
 * Certificate numbers and phones of entries are kept encrypted (lib/personal-data.ts); `decrypt` gives them
 * back whole for the export only.
 */
import { personalCipher } from '../lib/personal-data.ts';
import { sql, type Db } from './engine.ts';

/** One invitation code to store: named (one person, by the keyed hash of the certificate) or multi-use. */
export interface NewInvitationCode {
  raceId: string;
  code: string;
  itemCode: string;
  kind: 'named' | 'multi';
  namedName: string | null;
  namedCertHash: string | null;
  maxUses: number;
  expiresAt: number | null;
  note: string;
  createdAt: number;
}

export interface InvitationCodeRow {
  code: string;
  itemCode: string;
  kind: 'named' | 'multi';
  namedName: string | null;
  maxUses: number;
  used: number;
  expiresAt: number | null;
  note: string;
  createdAt: number;
  /** When the organiser revoked it (refused at sign-up), or null. */
  revokedAt: number | null;
}

/** A stored code and whom it is for (a named code: the keyed hash of the person's certificate). */
export interface StoredCodeOwner {
  code: string;
  itemCode: string;
  namedCertHash: string | null;
}

/** One entry as the organiser's list and export read it (the latest order of the entry joined). */
export interface AdminEntryRow {
  id: number;
  entryNo: string;
  itemCode: string;
  channel: string;
  status: number;
  name: string;
  gender: number;
  birthday: string;
  certType: number;
  certEnc: string;
  phoneEnc: string;
  /** The form's answers, JSON, encrypted (decryptValues). */
  valuesEnc: string;
  feeFen: number;
  bib: string | null;
  createdAt: number;
  teamCode: string | null;
  teamName: string | null;
  orderNo: string | null;
  orderStatus: number | null;
  /** The entry's line of its latest order once that order was paid, else 0. */
  paidFen: number;
  paidAt: number | null;
}

/** Figures of one item's pool ('charity' entries count in the charity pool, every other channel in main). */
export interface PoolFigures {
  itemCode: string;
  pool: 'main' | 'charity';
  capacity: number | null;
  taken: number | null;
  /** Entries by status (0-5). */
  entries: Record<number, number>;
  /** Orders holding an entry of this pool, by order status. */
  orders: Record<number, number>;
  paidFen: number;
  refundedFen: number;
}

export interface RaceOrderTotals {
  orders: Record<number, number>;
  paidFen: number;
  refundedFen: number;
}

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * An entry with its team and its latest order, as AdminEntryRow reads it: the columns and the joins (`e` the
 * entry, `t` its team, `l` its line of its latest order, `o` that order). The CLI's list and the console's
 * export read entries through these.
 */
export const ADMIN_ENTRY_COLUMNS = sql`e.id, e.entry_no, e.item_code, e.channel, e.status, e.name, e.gender,
  e.birthday, e.cert_type, e.cert_enc, e.phone_enc, e.values_enc, e.fee_fen, e.bib, e.created_at, t.team_code,
  t.name AS team_name, o.order_no, o.status AS order_status, o.paid_at,
  CASE WHEN o.paid_at IS NOT NULL THEN l.amount_fen ELSE 0 END AS paid_fen`;
export const ADMIN_ENTRY_JOINS = sql`entries e
  LEFT JOIN teams t ON t.id = e.team_id
  LEFT JOIN order_lines l ON l.entry_id = e.id
    AND l.order_id = (SELECT max(l2.order_id) FROM order_lines l2 WHERE l2.entry_id = e.id)
  LEFT JOIN orders o ON o.id = l.order_id`;

/** A row of ADMIN_ENTRY_COLUMNS as an AdminEntryRow. */
export function adminEntryRow(r: Record<string, unknown>): AdminEntryRow {
  return {
    id: num(r.id),
    entryNo: String(r.entry_no),
    itemCode: String(r.item_code),
    channel: String(r.channel),
    status: num(r.status),
    name: String(r.name),
    gender: num(r.gender),
    birthday: String(r.birthday),
    certType: num(r.cert_type),
    certEnc: String(r.cert_enc),
    phoneEnc: String(r.phone_enc),
    valuesEnc: String(r.values_enc),
    feeFen: num(r.fee_fen),
    bib: (r.bib as string | null) ?? null,
    createdAt: num(r.created_at),
    teamCode: (r.team_code as string | null) ?? null,
    teamName: (r.team_name as string | null) ?? null,
    orderNo: (r.order_no as string | null) ?? null,
    orderStatus: numOrNull(r.order_status),
    paidFen: num(r.paid_fen ?? 0),
    paidAt: numOrNull(r.paid_at),
  };
}

/** The pool of an entry's channel. */
const POOL = sql.raw(`CASE WHEN e.channel = 'charity' THEN 'charity' ELSE 'main' END`);

/** `idNumberKey`: the ID-number secret (lib/secrets.ts), the key of the encrypted personal numbers. */
export function createEntryAdminRepository(db: Db, idNumberKey: string) {
  const cipher = personalCipher(idNumberKey);

  return {
    /** The whole text of an encrypted personal number ('' when this server's key cannot read it). */
    decrypt: (stored: string): string => cipher.decrypt(stored) ?? '',

    /** An entry's form answers (undefined when this server's key cannot read them). */
    decryptValues(stored: string): Record<string, unknown> | undefined {
      const plain = cipher.decrypt(stored);
      if (plain === undefined) return undefined;
      try {
        const parsed = JSON.parse(plain) as unknown;
        return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    },

    /**
     * Raises the race's data version (race_data_versions, as the race-center writes do): every server instance
     * drops the public answers it cached from the race's data at its next poll, even when the race's
     * updated_at did not move (two edits in one millisecond).
     */
    async bumpRaceVersion(raceId: string): Promise<void> {
      await db.run(sql`
        INSERT INTO race_data_versions (race_id, version) VALUES (${raceId}, 1)
        ON CONFLICT (race_id) DO UPDATE SET version = race_data_versions.version + 1`);
    },

    /** The item codes that have places (entry_places) in the race. */
    async placeItems(raceId: string): Promise<string[]> {
      const rows = await db.all<{ item_code: string }>(
        sql`SELECT DISTINCT item_code FROM entry_places WHERE race_id = ${raceId} ORDER BY item_code`,
      );
      return rows.map((r) => r.item_code);
    },

    /** Which of `codes` the race already has. */
    async existingCodes(raceId: string, codes: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (let i = 0; i < codes.length; i += 500) {
        const batch = codes.slice(i, i + 500);
        if (batch.length === 0) continue;
        const rows = await db.all<{ code: string }>(
          sql`SELECT code FROM invitation_codes WHERE race_id = ${raceId} AND code IN (${sql.join(batch)})`,
        );
        for (const row of rows) found.add(row.code);
      }
      return found;
    },

    /** The race's codes among `codes`, with the item and the person (keyed certificate hash) they are for. */
    async codesByValue(raceId: string, codes: readonly string[]): Promise<Map<string, StoredCodeOwner>> {
      const found = new Map<string, StoredCodeOwner>();
      for (let i = 0; i < codes.length; i += 500) {
        const batch = codes.slice(i, i + 500);
        if (batch.length === 0) continue;
        const rows = await db.all<{ code: string; item_code: string; named_cert_hash: string | null }>(sql`
          SELECT code, item_code, named_cert_hash FROM invitation_codes
          WHERE race_id = ${raceId} AND code IN (${sql.join(batch)})`);
        for (const row of rows) {
          found.set(row.code, { code: row.code, itemCode: row.item_code, namedCertHash: row.named_cert_hash });
        }
      }
      return found;
    },

    /** The race's named codes (one read: the certificate hashes are not indexed), oldest first. */
    async namedCodes(raceId: string): Promise<StoredCodeOwner[]> {
      const rows = await db.all<{ code: string; item_code: string; named_cert_hash: string | null }>(sql`
        SELECT code, item_code, named_cert_hash FROM invitation_codes
        WHERE race_id = ${raceId} AND kind = 'named' ORDER BY id`);
      return rows.map((row) => ({ code: row.code, itemCode: row.item_code, namedCertHash: row.named_cert_hash }));
    },

    /** Inserts the codes; a code the race already has is left as it is. Answers how many were inserted. */
    async insertCodes(codes: readonly NewInvitationCode[]): Promise<number> {
      let inserted = 0;
      // 500 rows a statement (11 parameters each: 5,500, within SQLite's 32,766 and PostgreSQL's 65,535).
      for (let i = 0; i < codes.length; i += 500) {
        const rows = codes
          .slice(i, i + 500)
          .map(
            (c) =>
              sql`(${c.raceId}, ${c.code}, ${c.itemCode}, ${c.kind}, ${c.namedName}, ${c.namedCertHash}, ${c.maxUses}, 0, ${c.expiresAt}, ${c.note}, ${c.createdAt})`,
          );
        inserted += await db.run(sql`
          INSERT INTO invitation_codes
            (race_id, code, item_code, kind, named_name, named_cert_hash, max_uses, used, expires_at, note, created_at)
          VALUES ${sql.join(rows)}
          ON CONFLICT (race_id, code) DO NOTHING`);
      }
      return inserted;
    },

    async listCodes(raceId: string): Promise<InvitationCodeRow[]> {
      const rows = await db.all<Record<string, unknown>>(sql`
        SELECT code, item_code, kind, named_name, max_uses, used, expires_at, note, created_at, revoked_at
        FROM invitation_codes WHERE race_id = ${raceId} ORDER BY item_code, created_at, id`);
      return rows.map((r) => ({
        code: String(r.code),
        itemCode: String(r.item_code),
        kind: r.kind as 'named' | 'multi',
        namedName: (r.named_name as string | null) ?? null,
        maxUses: num(r.max_uses),
        used: num(r.used),
        expiresAt: numOrNull(r.expires_at),
        note: String(r.note ?? ''),
        createdAt: num(r.created_at),
        revokedAt: numOrNull(r.revoked_at),
      }));
    },

    /**
     * Entries of the item that may get a bib, in creation order: won / registered (status 1), no bib yet, and
     * paid (an order of the entry is paid) or free (fee 0).
     */
    async entriesAwaitingBib(raceId: string, itemCode: string): Promise<{ id: number; entryNo: string }[]> {
      const rows = await db.all<{ id: unknown; entry_no: string }>(sql`
        SELECT e.id, e.entry_no FROM entries e
        WHERE e.race_id = ${raceId} AND e.item_code = ${itemCode} AND e.status = 1 AND e.bib IS NULL
          AND (e.fee_fen = 0 OR EXISTS (
            SELECT 1 FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.entry_id = e.id AND o.status = 3))
        ORDER BY e.created_at, e.id`);
      return rows.map((r) => ({ id: num(r.id), entryNo: r.entry_no }));
    },

    /** Every bib of the race with the item of its entry. */
    async bibs(raceId: string): Promise<Map<string, string>> {
      const rows = await db.all<{ bib: string; item_code: string }>(
        sql`SELECT bib, item_code FROM entries WHERE race_id = ${raceId} AND bib IS NOT NULL`,
      );
      return new Map(rows.map((r) => [r.bib, r.item_code]));
    },

    /** Gives the entry its bib when it has none (and is still status 1), with the timeline's 'bibAssigned' step. */
    async assignBib(entryId: number, bib: string, now: number): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE entries SET bib = ${bib}, updated_at = ${now} WHERE id = ${entryId} AND bib IS NULL AND status = 1`);
      if (changed === 0) return false;
      await db.run(
        sql`INSERT INTO entry_events (entry_id, step, at, note) VALUES (${entryId}, 'bibAssigned', ${now}, ${bib})`,
      );
      return true;
    },

    /** The race's entries (optionally of one item and one status), in creation order. */
    async listEntries(raceId: string, filter: { itemCode?: string; status?: number } = {}): Promise<AdminEntryRow[]> {
      const byItem = filter.itemCode === undefined ? sql`` : sql`AND e.item_code = ${filter.itemCode}`;
      const byStatus = filter.status === undefined ? sql`` : sql`AND e.status = ${filter.status}`;
      const rows = await db.all<Record<string, unknown>>(sql`
        SELECT ${ADMIN_ENTRY_COLUMNS} FROM ${ADMIN_ENTRY_JOINS}
        WHERE e.race_id = ${raceId} ${byItem} ${byStatus}
        ORDER BY e.created_at, e.id`);
      return rows.map(adminEntryRow);
    },

    /** Places, entries, orders and money per item and pool of the race. */
    async poolFigures(raceId: string): Promise<PoolFigures[]> {
      const figures = new Map<string, PoolFigures>();
      const at = (itemCode: string, pool: string): PoolFigures => {
        const key = `${itemCode}\u0000${pool}`;
        let f = figures.get(key);
        if (!f) {
          f = {
            itemCode,
            pool: pool === 'charity' ? 'charity' : 'main',
            capacity: null,
            taken: null,
            entries: {},
            orders: {},
            paidFen: 0,
            refundedFen: 0,
          };
          figures.set(key, f);
        }
        return f;
      };
      const places = await db.all<{ item_code: string; pool: string; capacity: unknown; taken: unknown }>(
        sql`SELECT item_code, pool, capacity, taken FROM entry_places WHERE race_id = ${raceId}`,
      );
      for (const p of places) {
        const f = at(p.item_code, p.pool);
        f.capacity = num(p.capacity);
        f.taken = num(p.taken);
      }
      const entries = await db.all<{ item_code: string; pool: string; status: unknown; n: unknown }>(sql`
        SELECT e.item_code, ${POOL} AS pool, e.status, count(*) AS n FROM entries e
        WHERE e.race_id = ${raceId} GROUP BY e.item_code, ${POOL}, e.status`);
      for (const r of entries) at(r.item_code, r.pool).entries[num(r.status)] = num(r.n);
      const orders = await db.all<{ item_code: string; pool: string; status: unknown; n: unknown; paid: unknown }>(sql`
        SELECT e.item_code, ${POOL} AS pool, o.status, count(DISTINCT o.id) AS n,
          sum(CASE WHEN o.paid_at IS NOT NULL THEN l.amount_fen ELSE 0 END) AS paid
        FROM entries e JOIN order_lines l ON l.entry_id = e.id JOIN orders o ON o.id = l.order_id
        WHERE e.race_id = ${raceId} GROUP BY e.item_code, ${POOL}, o.status`);
      for (const r of orders) {
        const f = at(r.item_code, r.pool);
        f.orders[num(r.status)] = num(r.n);
        f.paidFen += num(r.paid ?? 0);
      }
      const refunds = await db.all<{ item_code: string; pool: string; amount: unknown }>(sql`
        SELECT e.item_code, ${POOL} AS pool, sum(r.amount_fen) AS amount
        FROM refunds r JOIN entries e ON e.id = r.entry_id
        WHERE e.race_id = ${raceId} AND r.status = 'done' GROUP BY e.item_code, ${POOL}`);
      for (const r of refunds) at(r.item_code, r.pool).refundedFen += num(r.amount ?? 0);
      return [...figures.values()].sort((a, b) =>
        a.itemCode === b.itemCode ? a.pool.localeCompare(b.pool) : a.itemCode.localeCompare(b.itemCode),
      );
    },

    /** The race's orders by status, and the money paid and refunded over all of them. */
    async orderTotals(raceId: string): Promise<RaceOrderTotals> {
      const rows = await db.all<{ status: unknown; n: unknown; paid: unknown; refunded: unknown }>(sql`
        SELECT status, count(*) AS n, sum(paid_fen) AS paid, sum(refunded_fen) AS refunded
        FROM orders WHERE race_id = ${raceId} GROUP BY status`);
      const totals: RaceOrderTotals = { orders: {}, paidFen: 0, refundedFen: 0 };
      for (const r of rows) {
        totals.orders[num(r.status)] = num(r.n);
        totals.paidFen += num(r.paid ?? 0);
        totals.refundedFen += num(r.refunded ?? 0);
      }
      return totals;
    },
  };
}

export type EntryAdminRepository = ReturnType<typeof createEntryAdminRepository>;
