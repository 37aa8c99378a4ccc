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
export interface EntryExportRow {
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
  valuesEnc: string;
  feeFen: number;
  bib: string | null;
  createdAt: number;
  teamCode: string | null;
  teamName: string | null;
  orderNo: string | null;
  orderStatus: number | null;
  paidFen: number;
  paidAt: number | null;
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
  /** The WHERE of a search: the race, the filters, and the search text matched as the list does. */
  function where(input: EntryFilter) {
    const parts = [sql`e.race_id = ${input.raceId}`];
    if (input.itemCode) parts.push(sql`e.item_code = ${input.itemCode}`);
    if (input.status !== undefined) parts.push(sql`e.status = ${input.status}`);
    if (input.channel) parts.push(sql`e.channel = ${input.channel}`);
    const q = input.q?.trim() ?? '';
    if (q !== '') {
      const upper = q.toUpperCase();
      // LIKE's own characters in a name are taken literally; letters match in either case (on both engines).
      const prefix = `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      parts.push(sql`(
          e.entry_no = ${upper} OR e.bib = ${upper} OR lower(e.name) LIKE ${prefix.toLowerCase()} ESCAPE '\\'
          OR e.cert_hash = ${keyedCertHash(idNumberKey, certDigest(q))}
          OR e.phone_hash = ${/\d{5}/.test(q.replace(/\D/g, '')) ? keyedPhoneHash(idNumberKey, q) : ''}
          OR e.id IN (
            SELECT l.entry_id FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE o.order_no = ${upper} OR l.sub_order_no = ${upper}
          )
        )`);
    }
    return sql.join(parts, sql` AND `);
  }

  return {
    async search(input: EntrySearch): Promise<{ total: number; rows: EntrySearchRow[] }> {
      const condition = where(input);
      const total = await db.get<{ n: unknown }>(sql`SELECT count(*) AS n FROM entries e WHERE ${condition}`);
      const rows = await db.all<Record<string, unknown>>(sql`
        SELECT e.entry_no, e.item_code, e.channel, e.status, e.name, e.gender, e.cert_type, e.cert_enc, e.phone_enc,
          e.bib, e.fee_fen, e.holds_place, e.wait_rank, e.created_at,
          (SELECT o.order_no FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE l.entry_id = e.id ORDER BY o.id DESC LIMIT 1) AS order_no,
          (SELECT o.status FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE l.entry_id = e.id ORDER BY o.id DESC LIMIT 1) AS order_status
        FROM entries e WHERE ${condition}
        ORDER BY e.created_at DESC, e.id DESC
        LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize}
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
      const rows = await db.all<{ id: unknown }>(sql`SELECT e.id FROM entries e WHERE ${where(input)} ORDER BY e.id`);
      return rows.map((r) => num(r.id));
    },

    /** The export's rows of these entries (ids in order), with their team, latest order, payment and refunds. */
    async exportRows(ids: readonly number[]): Promise<EntryExportRow[]> {
      if (ids.length === 0) return [];
      const rows = await db.all<Record<string, unknown>>(sql`
        SELECT e.id, e.entry_no, e.item_code, e.channel, e.status, e.name, e.gender, e.birthday, e.cert_type,
          e.cert_enc, e.phone_enc, e.values_enc, e.fee_fen, e.bib, e.created_at, t.team_code, t.name AS team_name,
          o.order_no, o.status AS order_status, o.paid_at,
          CASE WHEN o.paid_at IS NOT NULL THEN l.amount_fen ELSE 0 END AS paid_fen,
          (SELECT sum(r.amount_fen) FROM refunds r WHERE r.entry_id = e.id AND r.status = 'done') AS refunded_fen
        FROM entries e
        LEFT JOIN teams t ON t.id = e.team_id
        LEFT JOIN order_lines l ON l.entry_id = e.id
          AND l.order_id = (SELECT max(l2.order_id) FROM order_lines l2 WHERE l2.entry_id = e.id)
        LEFT JOIN orders o ON o.id = l.order_id
        WHERE e.id IN (${sql.join([...ids])})
        ORDER BY e.id`);
      return rows.map((r) => ({
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
        bib: r.bib === null ? null : String(r.bib),
        createdAt: num(r.created_at),
        teamCode: r.team_code === null ? null : String(r.team_code),
        teamName: r.team_name === null ? null : String(r.team_name),
        orderNo: r.order_no === null ? null : String(r.order_no),
        orderStatus: r.order_status === null ? null : num(r.order_status),
        paidFen: num(r.paid_fen),
        paidAt: r.paid_at === null ? null : num(r.paid_at),
        refundedFen: num(r.refunded_fen),
      }));
    },
  };
}

export type EntrySearchRepository = ReturnType<typeof createEntrySearchRepository>;
