/**
 * The ballots of the verifiable draw (issue #14 §3; migration 13 `ballots`): one row per race, item and round
 * with the commitment, the seed encrypted until it is revealed (lib/personal-data.ts, under the ID-number
 * secret, so a copy of the database before the reveal does not give the seed away), the frozen entry list and
 * the result. Also the entry queries only the draw needs: the list to draw, the wait list and its ranks, the
 * places left of an item and the contact of an entry's account for the result messages.
 *
 * Every change is guarded on the previous state (drawn_at IS NULL, seed IS NULL), so a repeat changes nothing.
 */
import type { BallotEntry } from '#contract/entry';
import { personalCipher } from '../lib/personal-data.ts';
import { sql, type Db } from './engine.ts';

export interface BallotRow {
  raceId: string;
  itemCode: string;
  round: number;
  commitment: string;
  beacon: string;
  /** The revealed seed, or null before the reveal. */
  seed: string | null;
  committedAt: number;
  places: number | null;
  entries: BallotEntry[] | null;
  result: StoredBallotResult | null;
  drawnAt: number | null;
}

/** What result_json holds: the draw's winners and wait list (entry numbers, draw order). */
export interface StoredBallotResult {
  winners: string[];
  waitList: string[];
}

interface Row {
  race_id: string;
  item_code: string;
  round: number;
  commitment: string;
  beacon: string;
  seed_enc: string;
  seed: string | null;
  committed_at: number;
  places: number | null;
  entries_json: string | null;
  result_json: string | null;
  drawn_at: number | null;
}

const toBallot = (r: Row): BallotRow => ({
  raceId: r.race_id,
  itemCode: r.item_code,
  round: Number(r.round),
  commitment: r.commitment,
  beacon: r.beacon,
  seed: r.seed,
  committedAt: Number(r.committed_at),
  places: r.places === null ? null : Number(r.places),
  entries: r.entries_json === null ? null : (JSON.parse(r.entries_json) as BallotEntry[]),
  result: r.result_json === null ? null : (JSON.parse(r.result_json) as StoredBallotResult),
  drawnAt: r.drawn_at === null ? null : Number(r.drawn_at),
});

/** An entry the draw may take: its number, masked-name source, unit and the account it belongs to. */
export interface DrawCandidate {
  id: number;
  entryNo: string;
  name: string;
  userId: number;
  feeFen: number;
  status: number;
  waitRank: number | null;
  holdsPlace: boolean;
  /** The team's public id, or null for a single runner. */
  unit: string | null;
  /** The team's smallest size (a team below it at the draw is drawn as single runners), or null. */
  teamMinSize: number | null;
  /**
   * On the wait list: whether the same person (certificate) holds another live entry of the race, taken
   * since the draw (one live entry per person: they cannot be given this place while they hold that one).
   */
  hasOtherLiveEntry?: boolean;
}

interface CandidateRow {
  id: number;
  entry_no: string;
  name: string;
  user_id: number;
  fee_fen: number;
  status: number;
  wait_rank: number | null;
  holds_place: number;
  public_id: string | null;
  min_size: number | null;
}

/** The draw's candidates: entries with their team's public id, as CandidateRow reads them. */
const CANDIDATES = sql`
  SELECT e.id, e.entry_no, e.name, e.user_id, e.fee_fen, e.status, e.wait_rank, e.holds_place, t.public_id,
    t.min_size
  FROM entries e LEFT JOIN teams t ON t.id = e.team_id`;

const toCandidate = (r: CandidateRow): DrawCandidate => ({
  id: Number(r.id),
  entryNo: r.entry_no,
  name: r.name,
  userId: Number(r.user_id),
  feeFen: Number(r.fee_fen),
  status: Number(r.status),
  waitRank: r.wait_rank === null ? null : Number(r.wait_rank),
  holdsPlace: Number(r.holds_place) === 1,
  unit: r.public_id,
  teamMinSize: r.min_size === null ? null : Number(r.min_size),
});

/** One entry of a race's ballot items as the "am I in?" cache holds it. */
export interface CheckRow {
  entryNo: string;
  itemCode: string;
  status: number;
  waitRank: number | null;
}

const COLUMNS = sql`race_id, item_code, round, commitment, beacon, seed_enc, seed, committed_at, places, entries_json,
  result_json, drawn_at`;

/** Where an account's messages go: its phone, else its e-mail, else nowhere. */
export function contactFrom(
  account: { phone: string | null; email: string | null } | undefined,
): { channel: 'sms' | 'email'; destination: string } | undefined {
  if (account?.phone) return { channel: 'sms', destination: account.phone };
  if (account?.email) return { channel: 'email', destination: account.email };
  return undefined;
}

export function createBallotsRepository(db: Db, idNumberSecret: string) {
  const cipher = personalCipher(idNumberSecret);
  return {
    /** Stores a new round's commitment with its seed encrypted; false when that round exists already. */
    async commit(input: {
      raceId: string;
      itemCode: string;
      round: number;
      commitment: string;
      seed: string;
      beacon: string;
      at: number;
    }): Promise<boolean> {
      const changed = await db.run(sql`
        INSERT INTO ballots (race_id, item_code, round, commitment, beacon, seed_enc, committed_at)
        VALUES (${input.raceId}, ${input.itemCode}, ${input.round}, ${input.commitment}, ${input.beacon},
          ${cipher.encrypt(input.seed)}, ${input.at})
        ON CONFLICT (race_id, item_code, round) DO NOTHING
      `);
      return changed === 1;
    },

    async find(raceId: string, itemCode: string, round: number): Promise<BallotRow | undefined> {
      const row = await db.get<Row>(sql`
        SELECT ${COLUMNS} FROM ballots WHERE race_id = ${raceId} AND item_code = ${itemCode} AND round = ${round}
      `);
      return row && toBallot(row);
    },

    /** The latest round of an item, or undefined when nothing was committed. */
    async latest(raceId: string, itemCode: string): Promise<BallotRow | undefined> {
      const row = await db.get<Row>(sql`
        SELECT ${COLUMNS} FROM ballots WHERE race_id = ${raceId} AND item_code = ${itemCode}
        ORDER BY round DESC LIMIT 1
      `);
      return row && toBallot(row);
    },

    /** Every ballot of a race, by item and round. */
    async list(raceId: string): Promise<BallotRow[]> {
      const rows = await db.all<Row>(sql`
        SELECT ${COLUMNS} FROM ballots WHERE race_id = ${raceId} ORDER BY item_code, round
      `);
      return rows.map(toBallot);
    },

    /** The secret seed of a round (decrypted; only the draw and the reveal read it). */
    async secretSeed(raceId: string, itemCode: string, round: number): Promise<string | undefined> {
      const row = await db.get<{ seed_enc: string }>(sql`
        SELECT seed_enc FROM ballots WHERE race_id = ${raceId} AND item_code = ${itemCode} AND round = ${round}
      `);
      return row ? cipher.decrypt(row.seed_enc) : undefined;
    },

    /** Records a round's draw once: false when it was drawn already. */
    async markDrawn(input: {
      raceId: string;
      itemCode: string;
      round: number;
      beacon: string;
      places: number;
      entries: BallotEntry[];
      result: StoredBallotResult;
      at: number;
    }): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE ballots SET beacon = ${input.beacon}, places = ${input.places},
          entries_json = ${JSON.stringify(input.entries)}, result_json = ${JSON.stringify(input.result)},
          drawn_at = ${input.at}
        WHERE race_id = ${input.raceId} AND item_code = ${input.itemCode} AND round = ${input.round}
          AND drawn_at IS NULL
      `);
      return changed === 1;
    },

    /** Publishes a drawn round's seed once: false when not drawn or revealed already. */
    async reveal(raceId: string, itemCode: string, round: number, seed: string): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE ballots SET seed = ${seed}
        WHERE race_id = ${raceId} AND item_code = ${itemCode} AND round = ${round}
          AND drawn_at IS NOT NULL AND seed IS NULL
      `);
      return changed === 1;
    },

    /**
     * What the "am I in?" cache of a race is built from changes with: the ballots' draw and reveal states and
     * the latest change of an entry of a ballot item. One short row.
     */
    async checkVersion(raceId: string): Promise<string> {
      const row = await db.get<{ ballots: number; drawn: number | null; revealed: number; updated: number | null }>(sql`
        SELECT COUNT(*) AS ballots, SUM(drawn_at) AS drawn,
          SUM(CASE WHEN seed IS NULL THEN 0 ELSE 1 END) AS revealed,
          (SELECT MAX(e.updated_at) FROM entries e
            WHERE e.race_id = ${raceId} AND e.item_code IN (SELECT item_code FROM ballots WHERE race_id = ${raceId})
          ) AS updated
        FROM ballots WHERE race_id = ${raceId}
      `);
      return row
        ? `${Number(row.ballots)}|${Number(row.drawn ?? 0)}|${Number(row.revealed)}|${Number(row.updated ?? 0)}`
        : '0';
    },

    /** The public and team entries of a race's ballot items (the "am I in?" cache). */
    async checkRows(raceId: string): Promise<CheckRow[]> {
      const rows = await db.all<{ entry_no: string; item_code: string; status: number; wait_rank: number | null }>(sql`
        SELECT entry_no, item_code, status, wait_rank FROM entries
        WHERE race_id = ${raceId} AND channel IN ('public', 'team')
          AND item_code IN (SELECT item_code FROM ballots WHERE race_id = ${raceId})
      `);
      return rows.map((r) => ({
        entryNo: r.entry_no,
        itemCode: r.item_code,
        status: Number(r.status),
        waitRank: r.wait_rank === null ? null : Number(r.wait_rank),
      }));
    },

    /**
     * The entries a first draw takes, in entry-number order: live (status 0) public and team entries of the
     * item; with `paidOnly` (pay first, then draw) only those whose order is paid.
     */
    async firstRoundCandidates(raceId: string, itemCode: string, paidOnly: boolean): Promise<DrawCandidate[]> {
      const paid = paidOnly
        ? sql`AND EXISTS (SELECT 1 FROM order_lines ol JOIN orders o ON o.id = ol.order_id
            WHERE ol.entry_id = e.id AND o.status = 3)`
        : sql``;
      const rows = await db.all<CandidateRow>(sql`
        ${CANDIDATES}
        WHERE e.race_id = ${raceId} AND e.item_code = ${itemCode} AND e.status = 0
          AND e.channel IN ('public', 'team') ${paid}
        ORDER BY e.entry_no
      `);
      return rows.map(toCandidate);
    },

    /** The entries a later round takes: the item's public and team entries that did not win (status 2). */
    async laterRoundCandidates(raceId: string, itemCode: string): Promise<DrawCandidate[]> {
      const rows = await db.all<CandidateRow>(sql`
        ${CANDIDATES}
        WHERE e.race_id = ${raceId} AND e.item_code = ${itemCode} AND e.status = 2
          AND e.channel IN ('public', 'team')
        ORDER BY e.entry_no
      `);
      return rows.map(toCandidate);
    },

    /** The item's wait list (status 2 with a rank), by rank then entry number. */
    async waitList(raceId: string, itemCode: string): Promise<DrawCandidate[]> {
      const rows = await db.all<CandidateRow & { other_live: number }>(sql`
        SELECT c.*, CASE WHEN EXISTS (
            SELECT 1 FROM entries o WHERE o.race_id = c.race_id AND o.cert_hash = c.cert_hash AND o.status IN (0, 1, 4)
          ) THEN 1 ELSE 0 END AS other_live
        FROM (
          SELECT e.id, e.entry_no, e.name, e.user_id, e.fee_fen, e.status, e.wait_rank, e.holds_place, t.public_id,
            t.min_size, e.race_id, e.cert_hash
          FROM entries e LEFT JOIN teams t ON t.id = e.team_id
          WHERE e.race_id = ${raceId} AND e.item_code = ${itemCode} AND e.status = 2 AND e.wait_rank IS NOT NULL
        ) c
        ORDER BY c.wait_rank, c.entry_no
      `);
      return rows.map((r) => ({ ...toCandidate(r), hasOtherLiveEntry: Number(r.other_live) === 1 }));
    },

    /** The paid order of each entry (pay first, then draw): entry id → order id. */
    async paidOrders(entryIds: number[]): Promise<Map<number, number>> {
      const map = new Map<number, number>();
      if (entryIds.length === 0) return map;
      const rows = await db.all<{ entry_id: number; order_id: number }>(sql`
        SELECT ol.entry_id, ol.order_id FROM order_lines ol JOIN orders o ON o.id = ol.order_id
        WHERE o.status = 3 AND ol.entry_id IN (${sql.join(entryIds)})
        ORDER BY o.id
      `);
      for (const row of rows) map.set(Number(row.entry_id), Number(row.order_id));
      return map;
    },

    /**
     * The orders awaiting payment of an item's live (status 0) public and team entries (pay first, then draw:
     * the entries the draw did not take, since only paid ones are drawn), oldest first.
     */
    async unpaidOrders(raceId: string, itemCode: string): Promise<number[]> {
      const rows = await db.all<{ order_id: number }>(sql`
        SELECT DISTINCT ol.order_id FROM order_lines ol JOIN orders o ON o.id = ol.order_id
          JOIN entries e ON e.id = ol.entry_id
        WHERE o.status = 1 AND e.race_id = ${raceId} AND e.item_code = ${itemCode} AND e.status = 0
          AND e.channel IN ('public', 'team')
        ORDER BY ol.order_id
      `);
      return rows.map((r) => Number(r.order_id));
    },

    /** The wait-list steps ('waitListed', 'promoted') of an item's entries, in the order they happened. */
    async waitListSteps(
      raceId: string,
      itemCode: string,
    ): Promise<{ entryNo: string; name: string; status: number; step: string; at: number; note: string }[]> {
      const rows = await db.all<{
        entry_no: string;
        name: string;
        status: number;
        step: string;
        at: number;
        note: string;
      }>(sql`
        SELECT e.entry_no, e.name, e.status, ev.step, ev.at, ev.note
        FROM entry_events ev JOIN entries e ON e.id = ev.entry_id
        WHERE e.race_id = ${raceId} AND e.item_code = ${itemCode} AND ev.step IN ('waitListed', 'promoted')
        ORDER BY ev.at, ev.id
      `);
      return rows.map((r) => ({
        entryNo: r.entry_no,
        name: r.name,
        status: Number(r.status),
        step: r.step,
        at: Number(r.at),
        note: r.note,
      }));
    },

    /** The item of an entry number of a race, or undefined. */
    async entryItem(raceId: string, entryNo: string): Promise<string | undefined> {
      const row = await db.get<{ item_code: string }>(sql`
        SELECT item_code FROM entries WHERE race_id = ${raceId} AND entry_no = ${entryNo}
      `);
      return row?.item_code;
    },

    /** Where an account's messages go: its phone (SMS) or else its e-mail address. */
    async contactOf(userId: number): Promise<{ channel: 'sms' | 'email'; destination: string } | undefined> {
      const row = await db.get<{ phone: string | null; email: string | null }>(sql`
        SELECT phone, email FROM users WHERE id = ${userId}
      `);
      return contactFrom(row);
    },
  };
}

export type BallotsRepository = ReturnType<typeof createBallotsRepository>;
