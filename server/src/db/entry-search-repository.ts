/**
 * The console's entry search (issue 30 §5): a race's entries found by name (its beginning), phone (through
 * its keyed hash), certificate
 * number (through the keyed hash: the number is never stored in clear), entry number, order or sub-order
 * number, or bib; filtered by item, status and channel; newest first, a page at a time, with the total.
 * Certificate numbers and phones come back masked: a whole number is read only when one entry is opened.
 */
import { certDigest, keyedCertHash, keyedPhoneHash, maskCertNo, maskMobile } from '../lib/race-center.ts';
import { personalCipher } from '../lib/personal-data.ts';
import { sql, type Db } from './engine.ts';
import { ADMIN_ENTRY_COLUMNS, ADMIN_ENTRY_JOINS, adminEntryRow, type AdminEntryRow } from './entry-admin-repository.ts';

/** The entries a search or an export is about: the race, the search text and the filters. */
export interface EntryFilter {
  raceId: string;
  /** Name (its beginning), certificate number, entry number, order number, sub-order number or bib. */
  q?: string;
  itemCode?: string;
  status?: number;
  channel?: string;
}

export interface EntrySearch extends EntryFilter {
  page: number;
  pageSize: number;
}

/** An entry as the export writes it (numbers and answers still encrypted: the export decides what shows). */
export interface EntryExportRow extends AdminEntryRow {
  /** Refunds of this entry confirmed by the provider. */
  refundedFen: number;
}

export interface EntrySearchRow {
  entryNo: string;
  itemCode: string;
  channel: string;
  status: number;
  name: string;
  gender: number;
  certType: number;
  certMasked: string;
  phoneMasked: string;
  bib: string | null;
  feeFen: number;
  holdsPlace: boolean;
  waitRank: number | null;
  createdAt: number;
  /** The latest order of the entry: its number and status, or null. */
  orderNo: string | null;
  orderStatus: number | null;
}

const num = (value: unknown) => Number(value ?? 0);

export function createEntrySearchRepository(db: Db, idNumberKey: string) {
  const cipher = personalCipher(idNumberKey);
  /**
   * What a search reads: the race's entries under the filters and, with a search text, only those it finds
   * (`from` and `condition` go into `SELECT … FROM ${from} WHERE ${condition}`). The list and the export
   * find entries the same way.
   */
  function filtered(input: EntryFilter) {
    const where = [sql`e.race_id = ${input.raceId}`];
    if (input.itemCode) where.push(sql`e.item_code = ${input.itemCode}`);
    if (input.status !== undefined) where.push(sql`e.status = ${input.status}`);
    if (input.channel) where.push(sql`e.channel = ${input.channel}`);
    const q = input.q?.trim() ?? '';
    let matches = sql``;
    if (q !== '') {
      const upper = q.toUpperCase();
      // The name's beginning, letters in either case, as a range over lower(name) (its index, migration 24;
      // PostgreSQL compares byte-wise, COLLATE "C", as SQLite does): every name that starts with `from` lies
      // between it and `from` followed by the last code point.
      const from = q.toLowerCase();
      const byName =
        db.engine === 'postgres'
          ? sql`lower(name) COLLATE "C" >= ${from} AND lower(name) COLLATE "C" < ${`${from}\u{10FFFF}`}`
          : sql`lower(name) >= ${from} AND lower(name) < ${`${from}\u{10FFFF}`}`;
      const phoneHash = /\d{5}/.test(q.replace(/\D/g, '')) ? keyedPhoneHash(idNumberKey, q) : '';
      // Each way of finding an entry through its own index, the matches put together and read first (an OR
      // over them, or the race's entries filtered by the matches, would read every entry of the race: half a
      // second at 100,000). CROSS JOIN keeps SQLite from reordering the two; PostgreSQL plans it as a join.
      matches = sql`(
        SELECT id FROM entries WHERE race_id = ${input.raceId} AND entry_no = ${upper}
        UNION SELECT id FROM entries WHERE race_id = ${input.raceId} AND bib = ${upper}
        UNION SELECT id FROM entries WHERE race_id = ${input.raceId} AND ${byName}
        UNION SELECT id FROM entries WHERE race_id = ${input.raceId}
          AND cert_hash = ${keyedCertHash(idNumberKey, certDigest(q))}
        UNION SELECT id FROM entries WHERE race_id = ${input.raceId} AND phone_hash = ${phoneHash}
        UNION SELECT l.entry_id FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.order_no = ${upper}
        UNION SELECT entry_id FROM order_lines WHERE sub_order_no = ${upper}
      ) m CROSS JOIN `;
      where.push(sql`e.id = m.id`);
    }
    return { from: sql`${matches}entries e`, condition: sql.join(where, sql` AND `) };
  }

  return {
    async search(input: EntrySearch): Promise<{ total: number; rows: EntrySearchRow[] }> {
      const { from, condition } = filtered(input);
      const total = await db.get<{ n: unknown }>(sql`SELECT count(*) AS n FROM ${from} WHERE ${condition}`);
      // The page's entries first (through the race's index in list order, entries_race_created), then the
      // columns and the latest order of those 50 only.
      const rows = await db.all<Record<string, unknown>>(sql`
        SELECT e.entry_no, e.item_code, e.channel, e.status, e.name, e.gender, e.cert_type, e.cert_enc, e.phone_enc,
          e.bib, e.fee_fen, e.holds_place, e.wait_rank, e.created_at,
          (SELECT o.order_no FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE l.entry_id = e.id ORDER BY o.id DESC LIMIT 1) AS order_no,
          (SELECT o.status FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE l.entry_id = e.id ORDER BY o.id DESC LIMIT 1) AS order_status
        FROM entries e WHERE e.id IN (
          SELECT e.id FROM ${from} WHERE ${condition}
          ORDER BY e.created_at DESC, e.id DESC
          LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize}
        )
        ORDER BY e.created_at DESC, e.id DESC
      `);
      return {
        total: num(total?.n),
        rows: rows.map((r) => ({
          entryNo: String(r.entry_no),
          itemCode: String(r.item_code),
          channel: String(r.channel),
          status: num(r.status),
          name: String(r.name),
          gender: num(r.gender),
          certType: num(r.cert_type),
          certMasked: maskCertNo(cipher.decrypt(String(r.cert_enc)) ?? ''),
          phoneMasked: maskMobile(cipher.decrypt(String(r.phone_enc)) ?? ''),
          bib: r.bib === null ? null : String(r.bib),
          feeFen: num(r.fee_fen),
          holdsPlace: num(r.holds_place) === 1,
          waitRank: r.wait_rank === null ? null : num(r.wait_rank),
          createdAt: num(r.created_at),
          orderNo: r.order_no === null ? null : String(r.order_no),
          orderStatus: r.order_status === null ? null : num(r.order_status),
        })),
      };
    },

    /**
     * The ids of the entries the filter finds, in the order they were made: what an export holds, fixed when
     * it starts (a hundred thousand numbers are a few hundred kilobytes; their rows are read a page at a time).
     */
    async exportIds(input: EntryFilter): Promise<number[]> {
      const { from, condition } = filtered(input);
      const rows = await db.all<{ id: unknown }>(sql`SELECT e.id FROM ${from} WHERE ${condition} ORDER BY e.id`);
      return rows.map((r) => num(r.id));
    },

    /** The export's rows of these entries (ids in order), with their team, latest order, payment and refunds. */
    async exportRows(ids: readonly number[]): Promise<EntryExportRow[]> {
      if (ids.length === 0) return [];
      const rows = await db.all<Record<string, unknown>>(sql`
        SELECT ${ADMIN_ENTRY_COLUMNS},
          (SELECT sum(r.amount_fen) FROM refunds r WHERE r.entry_id = e.id AND r.status = 'done') AS refunded_fen
        FROM ${ADMIN_ENTRY_JOINS}
        WHERE e.id IN (${sql.join([...ids])})
        ORDER BY e.id`);
      return rows.map((r) => ({ ...adminEntryRow(r), refundedFen: num(r.refunded_fen) }));
    },
  };
}

export type EntrySearchRepository = ReturnType<typeof createEntrySearchRepository>;
