/**
 * Sign-up registrations (issue 14, migration 13): the places of each item's pools (entry_places), the entries
 * with their timeline (entries, entry_events), teams, invitation codes and the stored answers of idempotency
 * keys (submissions). All SQL on these tables lives here.
 *
 * Places are taken by one conditional UPDATE (`taken + n <= capacity`), never read then written, so parallel
 * submissions never oversell; every status change is guarded on the previous status, so a repeat changes
 * nothing. Certificate number, phone and the form's values are kept encrypted (lib/personal-data.ts) under the
 * ID-number key; cert_hash is the keyed hash of lib/race-center.ts (one live entry per person and race:
 * the entries_person index).
 */
import { randomInt } from 'node:crypto';
import {
  LIVE_ENTRY_STATUSES,
  type EntryChannel,
  type EntrySettings,
  type EntryStatus,
  type TimelineStep,
} from '#contract/entry';
import { personalCipher } from '../lib/personal-data.ts';
import { advisoryLockNumber, sql, type Db } from './engine.ts';

export type PlacePool = 'main' | 'charity';

/** The pool an entry of a channel counts in. */
export const poolOf = (channel: EntryChannel): PlacePool => (channel === 'charity' ? 'charity' : 'main');

const LIVE = sql.raw(`(${LIVE_ENTRY_STATUSES.join(', ')})`);

interface EntryRow {
  id: number;
  entry_no: string;
  race_id: string;
  item_code: string;
  channel: EntryChannel;
  user_id: number;
  team_id: number | null;
  code_id: number | null;
  status: number;
  holds_place: number;
  name: string;
  gender: number;
  birthday: string;
  cert_type: number;
  cert_hash: string;
  cert_enc: string;
  phone_enc: string;
  values_enc: string;
  fee_fen: number;
  bib: string | null;
  wait_rank: number | null;
  created_at: number;
  updated_at: number;
}

export interface EntryRecord {
  id: number;
  entryNo: string;
  raceId: string;
  itemCode: string;
  channel: EntryChannel;
  userId: number;
  teamId: number | null;
  codeId: number | null;
  status: EntryStatus;
  holdsPlace: boolean;
  name: string;
  gender: 0 | 1 | 2;
  birthday: string;
  certType: 1 | 2 | 3 | 4;
  certHash: string;
  /** Decrypted ('' when this server's key cannot read it). */
  certNumber: string;
  phone: string;
  feeFen: number;
  bib: string | null;
  waitRank: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface EntryEvent {
  step: TimelineStep;
  at: number;
  note: string;
}

/** A new entry: its record's own fields (the rest are made on insert), the form's values and the time. */
export type EntryInsert = Omit<
  EntryRecord,
  'id' | 'entryNo' | 'teamId' | 'codeId' | 'bib' | 'waitRank' | 'createdAt' | 'updatedAt'
> & {
  teamId?: number | null;
  codeId?: number | null;
  /** The form's cleaned values (kept encrypted). */
  values: Record<string, unknown>;
  now: number;
};

/** An entry's fields that are its person's own. */
type PersonField = 'name' | 'gender' | 'birthday' | 'certType' | 'certHash' | 'certNumber' | 'phone' | 'values';

/**
 * A whole submission's writes on PostgreSQL (EntriesRepository.writeSubmission): its entries (numbers chosen by
 * the caller, newEntryNo), their first timeline steps, the order with one line per entry, the idempotency key's
 * answer, the code's uses and the item's places.
 */
export interface SubmissionWrite {
  userId: number;
  idempotencyKey: string;
  answerJson: string;
  now: number;
  /** Every entry's fields but its person's and its number: the same for all people of a submission. */
  entry: Omit<EntryInsert, PersonField | 'now'>;
  people: (Pick<EntryInsert, PersonField> & { entryNo: string })[];
  steps: readonly TimelineStep[];
  /** The order to create (each line entry's fee), or none. */
  order?: { orderNo: string; subOrderNos: string[]; amountFen: number; deadlineAt: number };
  /** Use the entry's code (entry.codeId) once per person. */
  usesCode: boolean;
  /** Take one place of this pool per person. */
  takesPlaces?: PlacePool;
  /**
   * The account's rule (contract/entry.ts peoplePerAccount): with the lock of this key held (the one the
   * step-by-step write takes), its live entries in the race and these people together at most `limit`.
   */
  account: { lock: string; limit: number };
}

/** What writeSubmission did; anything but 'written' wrote nothing. */
export type SubmissionWritten =
  /**
   * The key has an answer, a person a live entry, or the account its most live entries, already (the caller
   * asks submitChecks which).
   */
  | 'checksFailed'
  /** An entry or order number was taken meanwhile: try again with new ones. */
  | 'numberClash'
  | 'codeUsedUp'
  | 'noPlaces'
  | 'written';

const REFUSED_WRITES = new Set<SubmissionWritten>(['checksFailed', 'numberClash', 'codeUsedUp', 'noPlaces']);

/** A new entry number: 'E' + 8 random letters or digits (unique by the entries' index; retried on a clash). */
export const newEntryNo = () => `E${randomText(8)}`;

export interface PlaceRow {
  itemCode: string;
  pool: PlacePool;
  capacity: number;
  taken: number;
}

interface TeamRow {
  id: number;
  race_id: string;
  item_code: string;
  team_code: string;
  public_id: string;
  name: string;
  captain_user_id: number;
  min_size: number;
  max_size: number;
  created_at: number;
}

export interface TeamRecord {
  id: number;
  raceId: string;
  itemCode: string;
  teamCode: string;
  publicId: string;
  name: string;
  captainUserId: number;
  minSize: number;
  maxSize: number;
  createdAt: number;
}

interface CodeRow {
  id: number;
  race_id: string;
  code: string;
  item_code: string;
  kind: 'named' | 'multi';
  named_name: string | null;
  named_cert_hash: string | null;
  max_uses: number;
  used: number;
  expires_at: number | null;
  note: string;
  created_at: number;
}

export interface InvitationCodeRecord {
  id: number;
  raceId: string;
  code: string;
  itemCode: string;
  kind: 'named' | 'multi';
  namedName: string | null;
  namedCertHash: string | null;
  maxUses: number;
  used: number;
  expiresAt: number | null;
  note: string;
  createdAt: number;
}

export interface InvitationCodeInsert {
  raceId: string;
  /** Stored as given: pass normalizeCode(code) (contract/entry.ts). */
  code: string;
  itemCode: string;
  kind: 'named' | 'multi';
  namedName?: string | null;
  namedCertHash?: string | null;
  maxUses: number;
  expiresAt?: number | null;
  note?: string;
  now: number;
}

const ENTRY_COLUMN_NAMES = [
  'id',
  'entry_no',
  'race_id',
  'item_code',
  'channel',
  'user_id',
  'team_id',
  'code_id',
  'status',
  'holds_place',
  'name',
  'gender',
  'birthday',
  'cert_type',
  'cert_hash',
  'cert_enc',
  'phone_enc',
  'values_enc',
  'fee_fen',
  'bib',
  'wait_rank',
  'created_at',
  'updated_at',
];
const ENTRY_COLUMNS = sql.raw(ENTRY_COLUMN_NAMES.join(', '));
/** The same columns of the entries table aliased `e`. */
const E_COLUMNS = sql.raw(ENTRY_COLUMN_NAMES.map((c) => `e.${c}`).join(', '));
const TEAM_COLUMNS = sql.raw(
  'id, race_id, item_code, team_code, public_id, name, captain_user_id, min_size, max_size, created_at',
);
const CODE_COLUMNS = sql.raw(
  'id, race_id, code, item_code, kind, named_name, named_cert_hash, max_uses, used, expires_at, note, created_at',
);

/** Letters and digits without the look-alikes (0/O, 1/I/L). */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const randomText = (length: number, alphabet = ALPHABET) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

const num = (v: number | null) => (v === null ? null : Number(v));

const toTeam = (row: TeamRow): TeamRecord => ({
  id: Number(row.id),
  raceId: row.race_id,
  itemCode: row.item_code,
  teamCode: row.team_code,
  publicId: row.public_id,
  name: row.name,
  captainUserId: Number(row.captain_user_id),
  minSize: Number(row.min_size),
  maxSize: Number(row.max_size),
  createdAt: Number(row.created_at),
});

const toCode = (row: CodeRow): InvitationCodeRecord => ({
  id: Number(row.id),
  raceId: row.race_id,
  code: row.code,
  itemCode: row.item_code,
  kind: row.kind,
  namedName: row.named_name,
  namedCertHash: row.named_cert_hash,
  maxUses: Number(row.max_uses),
  used: Number(row.used),
  expiresAt: num(row.expires_at),
  note: row.note,
  createdAt: Number(row.created_at),
});

/** The pools an item's settings define, with their capacities. */
function poolsOf(settings: EntrySettings | undefined): PlaceRow[] {
  const rows: PlaceRow[] = [];
  for (const item of settings?.items ?? []) {
    rows.push({ itemCode: item.code, pool: 'main', capacity: item.capacity, taken: 0 });
    if (item.charity) rows.push({ itemCode: item.code, pool: 'charity', capacity: item.charity.capacity, taken: 0 });
  }
  return rows;
}

/** `idNumberKey`: the ID-number secret (lib/secrets.ts), the key of the encrypted columns. */
export function createEntriesRepository(db: Db, idNumberKey: string) {
  const cipher = personalCipher(idNumberKey);
  /** What an entry keeps of its person encrypted: the certificate number, the phone and the form's values. */
  const sealed = (person: Pick<EntryInsert, 'certNumber' | 'phone' | 'values'>) => ({
    certEnc: cipher.encrypt(person.certNumber),
    phoneEnc: cipher.encrypt(person.phone),
    valuesEnc: cipher.encrypt(JSON.stringify(person.values)),
  });
  const toEntry = (row: EntryRow): EntryRecord => ({
    id: Number(row.id),
    entryNo: row.entry_no,
    raceId: row.race_id,
    itemCode: row.item_code,
    channel: row.channel,
    userId: Number(row.user_id),
    teamId: num(row.team_id),
    codeId: num(row.code_id),
    status: Number(row.status) as EntryStatus,
    holdsPlace: Number(row.holds_place) === 1,
    name: row.name,
    gender: Number(row.gender) as 0 | 1 | 2,
    birthday: row.birthday,
    certType: Number(row.cert_type) as 1 | 2 | 3 | 4,
    certHash: row.cert_hash,
    certNumber: cipher.decrypt(row.cert_enc) ?? '',
    phone: cipher.decrypt(row.phone_enc) ?? '',
    feeFen: Number(row.fee_fen),
    bib: row.bib,
    waitRank: num(row.wait_rank),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
  const oneEntry = async (query: Parameters<Db['get']>[0]) => {
    const row = await db.get<EntryRow>(query);
    return row ? toEntry(row) : undefined;
  };
  const manyEntries = async (query: Parameters<Db['all']>[0]) => (await db.all<EntryRow>(query)).map(toEntry);

  const takePlace = async (raceId: string, itemCode: string, pool: PlacePool, n: number): Promise<boolean> =>
    (await db.run(sql`
      UPDATE entry_places SET taken = taken + ${n}
      WHERE race_id = ${raceId} AND item_code = ${itemCode} AND pool = ${pool} AND taken + ${n} <= capacity`)) > 0;

  const addEvent = async (entryId: number, step: TimelineStep, at: number, note = '') => {
    await db.run(sql`INSERT INTO entry_events (entry_id, step, at, note) VALUES (${entryId}, ${step}, ${at}, ${note})`);
  };

  const events = async (entryIds: number[]): Promise<Map<number, EntryEvent[]>> => {
    const map = new Map<number, EntryEvent[]>();
    if (entryIds.length === 0) return map;
    const rows = await db.all<{ entry_id: number; step: TimelineStep; at: number; note: string }>(sql`
      SELECT entry_id, step, at, note FROM entry_events WHERE entry_id IN (${sql.join(entryIds)}) ORDER BY at, id`);
    for (const row of rows) {
      const id = Number(row.entry_id);
      const list = map.get(id) ?? [];
      list.push({ step: row.step, at: Number(row.at), note: row.note });
      map.set(id, list);
    }
    return map;
  };

  return {
    // ---- places ------------------------------------------------------------------------------------------

    /**
     * Sets the places of a race's pools from its settings (a race saved by the seed or `site add-race`): the
     * capacity follows the settings, taken is kept. Refused (nothing changed by the caller's transaction:
     * call it inside one) when a capacity would fall below the places already taken.
     */
    async syncPlaces(
      raceId: string,
      settings: EntrySettings | undefined,
    ): Promise<{ ok: true } | { ok: false; problem: string }> {
      for (const pool of poolsOf(settings)) {
        await db.run(sql`
          INSERT INTO entry_places (race_id, item_code, pool, capacity, taken)
          VALUES (${raceId}, ${pool.itemCode}, ${pool.pool}, ${pool.capacity}, 0)
          ON CONFLICT (race_id, item_code, pool) DO NOTHING`);
        const changed = await db.run(sql`
          UPDATE entry_places SET capacity = ${pool.capacity}
          WHERE race_id = ${raceId} AND item_code = ${pool.itemCode} AND pool = ${pool.pool} AND taken <= ${pool.capacity}`);
        if (changed === 0) {
          const row = await db.get<{ taken: number }>(sql`
            SELECT taken FROM entry_places WHERE race_id = ${raceId} AND item_code = ${pool.itemCode} AND pool = ${pool.pool}`);
          return {
            ok: false,
            problem:
              `entry item ${pool.itemCode}${pool.pool === 'charity' ? ' (charity places)' : ''}: capacity ` +
              `${pool.capacity} is below the ${Number(row?.taken ?? 0)} places already taken`,
          };
        }
      }
      return { ok: true };
    },

    /** Adds the pools of the settings that have no row yet (a race saved before sign-up existed); keeps the rest. */
    async ensurePlaces(raceId: string, settings: EntrySettings | undefined): Promise<void> {
      for (const pool of poolsOf(settings)) {
        await db.run(sql`
          INSERT INTO entry_places (race_id, item_code, pool, capacity, taken)
          VALUES (${raceId}, ${pool.itemCode}, ${pool.pool}, ${pool.capacity}, 0)
          ON CONFLICT (race_id, item_code, pool) DO NOTHING`);
      }
    },

    /** The pools of a race. */
    async places(raceId: string): Promise<PlaceRow[]> {
      const rows = await db.all<{ item_code: string; pool: PlacePool; capacity: number; taken: number }>(sql`
        SELECT item_code, pool, capacity, taken FROM entry_places WHERE race_id = ${raceId} ORDER BY item_code, pool`);
      return rows.map((r) => ({
        itemCode: r.item_code,
        pool: r.pool,
        capacity: Number(r.capacity),
        taken: Number(r.taken),
      }));
    },

    /** Takes n places of a pool when that many are left (one conditional UPDATE); false otherwise. */
    takePlace,

    /**
     * The entry gives its place back: holds_place 1 → 0 and the pool's taken − 1, together (call inside a
     * transaction). False (nothing changed) when the entry holds no place.
     */
    async releasePlace(entryId: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const entry = await tx.get<{ race_id: string; item_code: string; channel: EntryChannel }>(
          sql`SELECT race_id, item_code, channel FROM entries WHERE id = ${entryId}`,
        );
        if (!entry) return false;
        const released = await tx.run(
          sql`UPDATE entries SET holds_place = 0 WHERE id = ${entryId} AND holds_place = 1`,
        );
        if (released === 0) return false;
        await tx.run(sql`
          UPDATE entry_places SET taken = taken - 1
          WHERE race_id = ${entry.race_id} AND item_code = ${entry.item_code} AND pool = ${poolOf(entry.channel)}
            AND taken > 0`);
        return true;
      });
    },

    /**
     * The entry takes a place now (a ballot winner, a wait-listed entry promoted): holds_place 0 → 1 and the
     * pool's taken + 1 when one is left. False (nothing changed) when it already holds one or none is left.
     */
    async holdPlace(entryId: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const entry = await tx.get<{ race_id: string; item_code: string; channel: EntryChannel }>(
          sql`SELECT race_id, item_code, channel FROM entries WHERE id = ${entryId} AND holds_place = 0`,
        );
        if (!entry) return false;
        const taken = await tx.run(sql`
          UPDATE entry_places SET taken = taken + 1
          WHERE race_id = ${entry.race_id} AND item_code = ${entry.item_code} AND pool = ${poolOf(entry.channel)}
            AND taken + 1 <= capacity`);
        if (taken === 0) return false;
        const held = await tx.run(sql`UPDATE entries SET holds_place = 1 WHERE id = ${entryId} AND holds_place = 0`);
        if (held === 0) {
          await tx.run(sql`
            UPDATE entry_places SET taken = taken - 1
            WHERE race_id = ${entry.race_id} AND item_code = ${entry.item_code} AND pool = ${poolOf(entry.channel)}`);
          return false;
        }
        return true;
      });
    },

    // ---- entries -----------------------------------------------------------------------------------------

    /**
     * Inserts an entry with a new entry number ('E' + 8 random letters or digits, retried on a clash) and its
     * 'submitted' event. A second live entry of the same person and race fails on the entries_person index.
     */
    async insertEntry(
      input: EntryInsert,
      /** The timeline's first steps, all at input.now ('submitted', then e.g. 'orderCreated' in the same transaction). */
      steps: readonly TimelineStep[] = ['submitted'],
      /** Draws the entry numbers tried (tests give their own to force a clash). */
      drawEntryNo: () => string = newEntryNo,
    ): Promise<{ id: number; entryNo: string }> {
      const { certEnc, phoneEnc, valuesEnc } = sealed(input);
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const entryNo = drawEntryNo();
        const insert = sql`
          INSERT INTO entries (entry_no, race_id, item_code, channel, user_id, team_id, code_id, status, holds_place,
            name, gender, birthday, cert_type, cert_hash, cert_enc, phone_enc, values_enc, fee_fen, created_at, updated_at)
          VALUES (${entryNo}, ${input.raceId}, ${input.itemCode}, ${input.channel}, ${input.userId},
            ${input.teamId ?? null}, ${input.codeId ?? null}, ${input.status}, ${input.holdsPlace ? 1 : 0},
            ${input.name}, ${input.gender}, ${input.birthday}, ${input.certType}, ${input.certHash}, ${certEnc},
            ${phoneEnc}, ${valuesEnc}, ${input.feeFen}, ${input.now}, ${input.now})
          ON CONFLICT (entry_no) DO NOTHING
          RETURNING id`;
        if (db.engine === 'postgres') {
          // The entry and its steps in one round trip (nothing is inserted on an entry-number clash).
          const row = await db.get<{ entry_id: number }>(sql`
            WITH e AS (${insert})
            INSERT INTO entry_events (entry_id, step, at, note)
            SELECT e.id, s.step, CAST(${input.now} AS BIGINT), ''
            FROM e CROSS JOIN unnest(CAST(${[...steps]} AS TEXT[])) WITH ORDINALITY AS s (step, k)
            ORDER BY s.k
            RETURNING entry_id`);
          if (row) return { id: Number(row.entry_id), entryNo };
          continue;
        }
        const row = await db.get<{ id: number }>(insert);
        if (row) {
          const id = Number(row.id);
          if (steps.length > 0) {
            await db.run(sql`
              INSERT INTO entry_events (entry_id, step, at, note)
              VALUES ${sql.join(steps.map((step) => sql`(${id}, ${step}, ${input.now}, '')`))}`);
          }
          return { id, entryNo };
        }
      }
      throw new Error('no free entry number after 8 attempts');
    },

    /**
     * Moves an entry from one of `from` to `to` and adds the timeline step; false (nothing changed) when its
     * status is not one of `from`.
     */
    async setStatus(
      entryId: number,
      from: readonly EntryStatus[],
      to: EntryStatus,
      step: TimelineStep,
      at: number,
      note = '',
    ): Promise<boolean> {
      if (from.length === 0) return false;
      const changed = await db.run(sql`
        UPDATE entries SET status = ${to}, updated_at = ${at}
        WHERE id = ${entryId} AND status IN (${sql.join([...from])})`);
      if (changed === 0) return false;
      await addEvent(entryId, step, at, note);
      return true;
    },

    /** Adds a timeline step. */
    addEvent,
    /** The timelines of entries, oldest step first. */
    events,

    /** The entry's decrypted form values ({} when this server's key cannot read them). */
    async valuesOf(entryId: number): Promise<Record<string, unknown>> {
      const row = await db.get<{ values_enc: string }>(sql`SELECT values_enc FROM entries WHERE id = ${entryId}`);
      const plain = row ? cipher.decrypt(row.values_enc) : undefined;
      try {
        return plain === undefined ? {} : (JSON.parse(plain) as Record<string, unknown>);
      } catch {
        return {};
      }
    },

    findById: (id: number) => oneEntry(sql`SELECT ${ENTRY_COLUMNS} FROM entries WHERE id = ${id}`),
    findByNo: (entryNo: string) => oneEntry(sql`SELECT ${ENTRY_COLUMNS} FROM entries WHERE entry_no = ${entryNo}`),

    /** The account's entries, newest first, each with its timeline. */
    async listForUser(userId: number): Promise<(EntryRecord & { events: EntryEvent[] })[]> {
      const list = await manyEntries(
        sql`SELECT ${ENTRY_COLUMNS} FROM entries WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`,
      );
      const timeline = await events(list.map((e) => e.id));
      return list.map((e) => ({ ...e, events: timeline.get(e.id) ?? [] }));
    },

    /** The entries an order pays for (its lines), in line order. */
    ofOrder: (orderId: number) =>
      manyEntries(sql`
        SELECT ${E_COLUMNS}
        FROM order_lines l JOIN entries e ON e.id = l.entry_id
        WHERE l.order_id = ${orderId} ORDER BY l.sub_order_no`),

    /** The person's live entry (submitted, won or refund under review) of a race, if any. */
    liveByCert: (raceId: string, certHash: string) =>
      oneEntry(sql`
        SELECT ${ENTRY_COLUMNS} FROM entries WHERE race_id = ${raceId} AND cert_hash = ${certHash} AND status IN ${LIVE}`),

    /** A race's entries of an item, oldest first; only these statuses when given. */
    listForItem: (raceId: string, itemCode: string, statuses?: readonly EntryStatus[]) =>
      statuses === undefined
        ? manyEntries(sql`
            SELECT ${ENTRY_COLUMNS} FROM entries WHERE race_id = ${raceId} AND item_code = ${itemCode} ORDER BY id`)
        : manyEntries(sql`
            SELECT ${ENTRY_COLUMNS} FROM entries WHERE race_id = ${raceId} AND item_code = ${itemCode}
              AND status IN (${sql.join(statuses.length > 0 ? [...statuses] : [-1])}) ORDER BY id`),

    /** A race's entries, oldest first. */
    listForRace: (raceId: string) =>
      manyEntries(sql`SELECT ${ENTRY_COLUMNS} FROM entries WHERE race_id = ${raceId} ORDER BY id`),

    /** Sets (or clears) an entry's wait-list position. */
    async setWaitRank(entryId: number, rank: number | null, at: number): Promise<void> {
      await db.run(sql`UPDATE entries SET wait_rank = ${rank}, updated_at = ${at} WHERE id = ${entryId}`);
    },

    // ---- teams -------------------------------------------------------------------------------------------

    /** A new team with a random team code (8 characters) and public id, retried on a clash. */
    async createTeam(input: {
      raceId: string;
      itemCode: string;
      name: string;
      captainUserId: number;
      minSize: number;
      maxSize: number;
      now: number;
    }): Promise<TeamRecord> {
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const row = await db.get<TeamRow>(sql`
          INSERT INTO teams (race_id, item_code, team_code, public_id, name, captain_user_id, min_size, max_size, created_at)
          VALUES (${input.raceId}, ${input.itemCode}, ${`T${randomText(7)}`}, ${`U${randomText(7)}`}, ${input.name},
            ${input.captainUserId}, ${input.minSize}, ${input.maxSize}, ${input.now})
          ON CONFLICT DO NOTHING
          RETURNING ${TEAM_COLUMNS}`);
        if (row) return toTeam(row);
      }
      throw new Error('no free team code after 8 attempts');
    },

    async findTeamByCode(raceId: string, teamCode: string): Promise<TeamRecord | undefined> {
      const row = await db.get<TeamRow>(
        sql`SELECT ${TEAM_COLUMNS} FROM teams WHERE race_id = ${raceId} AND team_code = ${teamCode}`,
      );
      return row ? toTeam(row) : undefined;
    },

    async findTeamById(id: number): Promise<TeamRecord | undefined> {
      const row = await db.get<TeamRow>(sql`SELECT ${TEAM_COLUMNS} FROM teams WHERE id = ${id}`);
      return row ? toTeam(row) : undefined;
    },

    /** The team's live members, oldest first. */
    teamMembers: (teamId: number) =>
      manyEntries(
        sql`SELECT ${ENTRY_COLUMNS} FROM entries WHERE team_id = ${teamId} AND status IN ${LIVE} ORDER BY id`,
      ),

    /** How many live members the team has. */
    async teamSize(teamId: number): Promise<number> {
      const row = await db.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM entries WHERE team_id = ${teamId} AND status IN ${LIVE}`,
      );
      return Number(row?.n ?? 0);
    },

    // ---- invitation codes --------------------------------------------------------------------------------

    /** Adds a code; false when the race already has it. */
    async insertCode(input: InvitationCodeInsert): Promise<boolean> {
      const changed = await db.run(sql`
        INSERT INTO invitation_codes (race_id, code, item_code, kind, named_name, named_cert_hash, max_uses, expires_at,
          note, created_at)
        VALUES (${input.raceId}, ${input.code}, ${input.itemCode}, ${input.kind}, ${input.namedName ?? null},
          ${input.namedCertHash ?? null}, ${input.maxUses}, ${input.expiresAt ?? null}, ${input.note ?? ''}, ${input.now})
        ON CONFLICT (race_id, code) DO NOTHING`);
      return changed > 0;
    },

    /** The code of a race (pass normalizeCode(code)). */
    async findCode(raceId: string, code: string): Promise<InvitationCodeRecord | undefined> {
      const row = await db.get<CodeRow>(
        sql`SELECT ${CODE_COLUMNS} FROM invitation_codes WHERE race_id = ${raceId} AND code = ${code}`,
      );
      return row ? toCode(row) : undefined;
    },

    async listCodes(raceId: string): Promise<InvitationCodeRecord[]> {
      const rows = await db.all<CodeRow>(
        sql`SELECT ${CODE_COLUMNS} FROM invitation_codes WHERE race_id = ${raceId} ORDER BY id`,
      );
      return rows.map(toCode);
    },

    /** Uses a code n times when that many uses are left and it has not expired at `now` (one conditional UPDATE). */
    async useCode(codeId: number, n: number, now: number): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE invitation_codes SET used = used + ${n}
        WHERE id = ${codeId} AND used + ${n} <= max_uses AND (expires_at IS NULL OR expires_at > ${now})`);
      return changed > 0;
    },

    // ---- idempotency -------------------------------------------------------------------------------------

    /**
     * What a submission reads before its checks, in one query: the stored answer of its idempotency key (JSON
     * text), the race's version (races.version; null when there is no such race) with its information only
     * when it is not the version the caller has (`knownRaceVersion`), the version of the race's published
     * form of `channel` (null when none, or no channel given) and how many live entries the account has in
     * the race (read again under the account's lock before writing: submitChecks, writeSubmission).
     */
    async submissionStart(
      userId: number,
      idempotencyKey: string,
      raceId: string,
      channel: string | null,
      knownRaceVersion: number | null,
    ): Promise<{
      answer: string | null;
      raceVersion: number | null;
      raceJson: string | null;
      formVersion: number | null;
      accountLive: number;
    }> {
      const row = await db.get<{
        answer: string | null;
        race_version: number | null;
        race_json: string | null;
        form_version: number | null;
        account_live: number | null;
      }>(sql`
        SELECT
          (SELECT answer_json FROM submissions WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}) AS answer,
          r.version AS race_version,
          CASE WHEN r.version = ${knownRaceVersion} THEN NULL ELSE r.info_json END AS race_json,
          (SELECT max(version) FROM registration_forms WHERE race_id = ${raceId} AND channel = ${channel}) AS form_version,
          (SELECT count(*) FROM entries WHERE user_id = ${userId} AND race_id = ${raceId} AND status IN ${LIVE}) AS account_live
        FROM (SELECT 1 AS one) AS start LEFT JOIN races AS r ON r.race_id = ${raceId}`);
      return {
        answer: row?.answer ?? null,
        raceVersion: row?.race_version ?? null,
        raceJson: row?.race_json ?? null,
        formVersion: row?.form_version ?? null,
        accountLive: Number(row?.account_live ?? 0),
      };
    },

    async submissionAnswer(userId: number, idempotencyKey: string): Promise<string | undefined> {
      const row = await db.get<{ answer_json: string }>(sql`
        SELECT answer_json FROM submissions WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}`);
      return row?.answer_json;
    },

    /**
     * The checks a submission makes under its locks, in one query: the stored answer of its idempotency key
     * (JSON text), which of these people already have a live entry in the race, and how many live entries the
     * account has in the race (`accountLive`).
     */
    async submitChecks(
      userId: number,
      idempotencyKey: string,
      raceId: string,
      certHashes: readonly string[],
    ): Promise<{ answer: string | undefined; live: Set<string>; accountLive: number }> {
      const rows = await db.all<{ answer_json: string | null; cert_hash: string | null; n: number | null }>(sql`
        SELECT answer_json, NULL AS cert_hash, CAST(NULL AS BIGINT) AS n FROM submissions
        WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}
        UNION ALL
        SELECT NULL AS answer_json, cert_hash, CAST(NULL AS BIGINT) AS n FROM entries
        WHERE race_id = ${raceId} AND cert_hash IN (${sql.join(certHashes.length > 0 ? [...certHashes] : [''])})
          AND status IN ${LIVE}
        UNION ALL
        SELECT NULL AS answer_json, NULL AS cert_hash, count(*) AS n FROM entries
        WHERE user_id = ${userId} AND race_id = ${raceId} AND status IN ${LIVE}`);
      const answer = rows.find((row) => row.answer_json !== null)?.answer_json ?? undefined;
      return {
        answer,
        live: new Set(rows.flatMap((row) => (row.cert_hash === null ? [] : [row.cert_hash]))),
        accountLive: Number(rows.find((row) => row.n !== null)?.n ?? 0),
      };
    },

    /**
     * Keeps the answer of an idempotency key and takes n places of a pool when that many are left (one
     * conditional UPDATE, in the same round trip on PostgreSQL); false when no places were taken (the caller
     * rolls back). The places' row is updated last, so its lock is held only until the caller's commit.
     */
    async saveSubmissionTakingPlaces(
      submission: { userId: number; idempotencyKey: string; answerJson: string; now: number },
      take: { raceId: string; itemCode: string; pool: PlacePool; n: number },
    ): Promise<boolean> {
      const save = sql`
        INSERT INTO submissions (user_id, idempotency_key, answer_json, created_at)
        VALUES (${submission.userId}, ${submission.idempotencyKey}, ${submission.answerJson}, ${submission.now})
        ON CONFLICT (user_id, idempotency_key) DO NOTHING`;
      if (db.engine !== 'postgres') {
        await db.run(save);
        return takePlace(take.raceId, take.itemCode, take.pool, take.n);
      }
      const row = await db.get<{ took: number }>(sql`
        WITH s AS (${save} RETURNING 1), t AS (
          UPDATE entry_places SET taken = taken + ${take.n}
          WHERE race_id = ${take.raceId} AND item_code = ${take.itemCode} AND pool = ${take.pool}
            AND taken + ${take.n} <= capacity
          RETURNING 1)
        SELECT (SELECT count(*) FROM t) AS took, (SELECT count(*) FROM s) AS saved`);
      return Number(row?.took ?? 0) > 0;
    },

    /**
     * PostgreSQL only: every write of a submission in one statement, outside any transaction (SubmissionWrite):
     * one round trip, and PostgreSQL commits it by itself, so the contended rows (the code's uses, the item's
     * places, updated last) stay locked only until that commit, never while an answer travels. The checks of
     * submitChecks gate every insert, the account's count read under the account's lock (held until the
     * statement commits: race_site_account_entries, migration 19); when they fail, or a count comes short, the statement raises
     * (race_site_refuse, migration 15) and nothing of it is kept. A unique index meeting a submission of the
     * same person or key running at the same time does the same: the caller asks submitChecks then.
     */
    async writeSubmission(input: SubmissionWrite): Promise<SubmissionWritten> {
      if (db.engine !== 'postgres') throw new Error('writeSubmission is for PostgreSQL');
      const { entry, people, order, now } = input;
      const n = people.length;
      const column = <K extends keyof SubmissionWrite['people'][number]>(key: K) => people.map((p) => p[key]);
      const entryNos = column('entryNo');
      const kept = people.map(sealed);
      const ordered = order !== undefined;
      const statement = sql`
        WITH chk AS (
          SELECT NOT EXISTS (
              SELECT 1 FROM submissions WHERE user_id = ${input.userId} AND idempotency_key = ${input.idempotencyKey})
            AND NOT EXISTS (
              SELECT 1 FROM entries WHERE race_id = ${entry.raceId} AND cert_hash IN (${sql.join(column('certHash'))})
                AND status IN ${LIVE})
            AND race_site_account_entries(CAST(${advisoryLockNumber(input.account.lock)} AS BIGINT), ${entry.raceId},
              CAST(${input.userId} AS BIGINT), CAST(${[...LIVE_ENTRY_STATUSES]} AS BIGINT[])) + ${n} <= ${input.account.limit}
            AS ok
        ), p AS (
          SELECT * FROM unnest(CAST(${entryNos} AS TEXT[]), CAST(${column('name')} AS TEXT[]),
            CAST(${column('gender')} AS BIGINT[]), CAST(${column('birthday')} AS TEXT[]),
            CAST(${column('certType')} AS BIGINT[]), CAST(${column('certHash')} AS TEXT[]),
            CAST(${kept.map((k) => k.certEnc)} AS TEXT[]), CAST(${kept.map((k) => k.phoneEnc)} AS TEXT[]),
            CAST(${kept.map((k) => k.valuesEnc)} AS TEXT[]))
            WITH ORDINALITY AS p (entry_no, name, gender, birthday, cert_type, cert_hash, cert_enc, phone_enc, values_enc, k)
        ), e AS (
          INSERT INTO entries (entry_no, race_id, item_code, channel, user_id, team_id, code_id, status, holds_place,
            name, gender, birthday, cert_type, cert_hash, cert_enc, phone_enc, values_enc, fee_fen, created_at, updated_at)
          SELECT p.entry_no, ${entry.raceId}, ${entry.itemCode}, ${entry.channel}, CAST(${entry.userId} AS BIGINT),
            CAST(${entry.teamId ?? null} AS BIGINT), CAST(${entry.codeId ?? null} AS BIGINT), CAST(${entry.status} AS BIGINT),
            CAST(${entry.holdsPlace ? 1 : 0} AS BIGINT), p.name, p.gender, p.birthday, p.cert_type, p.cert_hash,
            p.cert_enc, p.phone_enc, p.values_enc, CAST(${entry.feeFen} AS BIGINT), CAST(${now} AS BIGINT),
            CAST(${now} AS BIGINT)
          FROM p WHERE (SELECT ok FROM chk)
          ORDER BY p.k
          ON CONFLICT (entry_no) DO NOTHING
          RETURNING id, entry_no
        ), ev AS (
          INSERT INTO entry_events (entry_id, step, at, note)
          SELECT e.id, s.step, CAST(${now} AS BIGINT), ''
          FROM e JOIN p ON p.entry_no = e.entry_no
            CROSS JOIN unnest(CAST(${[...input.steps]} AS TEXT[])) WITH ORDINALITY AS s (step, k)
          ORDER BY p.k, s.k
          RETURNING 1
        ), o AS (
          INSERT INTO orders (order_no, race_id, user_id, status, amount_fen, deadline_at, created_at)
          SELECT ${order?.orderNo ?? ''}, ${entry.raceId}, CAST(${input.userId} AS BIGINT), 1,
            CAST(${order?.amountFen ?? 0} AS BIGINT), CAST(${order?.deadlineAt ?? null} AS BIGINT), CAST(${now} AS BIGINT)
          WHERE CAST(${ordered} AS BOOLEAN) AND (SELECT count(*) FROM e) = ${n}
          ON CONFLICT (order_no) DO NOTHING
          RETURNING id
        ), l AS (
          INSERT INTO order_lines (order_id, sub_order_no, entry_id, amount_fen)
          SELECT o.id, x.sub_order_no, e.id, CAST(${entry.feeFen} AS BIGINT)
          FROM o CROSS JOIN unnest(CAST(${order?.subOrderNos ?? []} AS TEXT[]), CAST(${entryNos} AS TEXT[]))
              WITH ORDINALITY AS x (sub_order_no, entry_no, k)
            JOIN e ON e.entry_no = x.entry_no
          ORDER BY x.k
          RETURNING 1
        ), s AS (
          INSERT INTO submissions (user_id, idempotency_key, answer_json, created_at)
          SELECT CAST(${input.userId} AS BIGINT), ${input.idempotencyKey}, ${input.answerJson}, CAST(${now} AS BIGINT)
          WHERE (SELECT count(*) FROM e) = ${n} AND (NOT CAST(${ordered} AS BOOLEAN) OR EXISTS (SELECT 1 FROM o))
          ON CONFLICT (user_id, idempotency_key) DO NOTHING
          RETURNING 1
        ), c AS (
          UPDATE invitation_codes SET used = used + ${n}
          WHERE CAST(${input.usesCode} AS BOOLEAN) AND id = CAST(${entry.codeId ?? null} AS BIGINT)
            AND used + ${n} <= max_uses AND (expires_at IS NULL OR expires_at > ${now}) AND EXISTS (SELECT 1 FROM s)
          RETURNING 1
        ), t AS (
          UPDATE entry_places SET taken = taken + ${n}
          WHERE CAST(${input.takesPlaces !== undefined} AS BOOLEAN) AND race_id = ${entry.raceId}
            AND item_code = ${entry.itemCode} AND pool = ${input.takesPlaces ?? 'main'}
            AND taken + ${n} <= capacity AND EXISTS (SELECT 1 FROM s)
          RETURNING 1
        )
        SELECT CASE
          WHEN NOT (SELECT ok FROM chk) THEN race_site_refuse('checksFailed')
          WHEN (SELECT count(*) FROM s) = 0 THEN race_site_refuse('numberClash')
          WHEN CAST(${input.usesCode} AS BOOLEAN) AND (SELECT count(*) FROM c) = 0 THEN race_site_refuse('codeUsedUp')
          WHEN CAST(${input.takesPlaces !== undefined} AS BOOLEAN) AND (SELECT count(*) FROM t) = 0
            THEN race_site_refuse('noPlaces')
          ELSE TRUE END AS written`;
      try {
        await db.get(statement);
        return 'written';
      } catch (error) {
        const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
        if (code === 'RS409' && typeof message === 'string' && REFUSED_WRITES.has(message as SubmissionWritten)) {
          return message as SubmissionWritten;
        }
        // A submission of the same person or key met in a unique index (it committed while this one ran), or
        // in a deadlock (two submissions of the same people in opposite orders): the checks tell which.
        if (code === '23505' || code === '40P01') return 'checksFailed';
        throw error;
      }
    },

    /** Keeps the answer of an idempotency key; false when the key already has one. */
    async saveSubmission(userId: number, idempotencyKey: string, answerJson: string, now: number): Promise<boolean> {
      const changed = await db.run(sql`
        INSERT INTO submissions (user_id, idempotency_key, answer_json, created_at)
        VALUES (${userId}, ${idempotencyKey}, ${answerJson}, ${now})
        ON CONFLICT (user_id, idempotency_key) DO NOTHING`);
      return changed > 0;
    },
  };
}

export type EntriesRepository = ReturnType<typeof createEntriesRepository>;
