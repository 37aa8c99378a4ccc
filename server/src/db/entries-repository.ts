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
import { keyedPhoneHash } from '../lib/race-center.ts';
import type { SmsContent } from '../lib/sms/kinds.ts';
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
  /**
   * Who took the step when the organiser did (migration 23): 'staff:<id>' or 'cli:<user>@<host>'; null for the
   * runner's own steps and the server's (services/console/entry-detail.ts tells them apart by the step).
   */
  actor?: string | null;
}

/** The person of an entry as edit and transfer replace it (the fields a form fills; see replacePerson). */
export type EntryPerson = Pick<EntryInsert, PersonField>;

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
 * A whole submission's writes (EntriesRepository.writeSubmission), every value decided by the caller
 * (services/entry/submit/plan.ts): its entries (numbers chosen by the caller, newEntryNo), their first timeline
 * steps, the order with one line per entry, the idempotency key's answer, the runner's message, the code's uses
 * and the item's places, each write guarded as `SUBMISSION_GUARDS` lists.
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
  /**
   * The order to create (each line the entry's fee), or none. `paidAt`: an order of 0 fen, paid (3) at once at
   * that time; null: awaiting payment (1).
   */
  order?: { orderNo: string; subOrderNos: string[]; amountFen: number; deadlineAt: number; paidAt: number | null };
  /** Use the entry's code (entry.codeId) once per person. */
  usesCode: boolean;
  /** Take one place of this pool per person. */
  takesPlaces?: PlacePool;
  /**
   * The account's rule (contract/entry.ts peoplePerAccount): with the lock of this key held, its live entries in
   * the race and these people together at most `limit`.
   */
  account: { lock: string; limit: number };
  /** The team's rule (entry.teamId): with the lock of this key held, its live members and these people at most `maxSize`. */
  team?: { lock: string; maxSize: number };
  /** The runner's message, queued with the entries (once per dedupeKey). */
  message?: {
    channel: 'sms' | 'email';
    destination: string;
    subject: string;
    body: string;
    dedupeKey: string;
    /** The SMS template's kind and variables (lib/sms/kinds.ts). */
    sms?: SmsContent;
  };
}

/**
 * The guards of writeSubmission, in the order they are checked: the first that fails is its answer and nothing is
 * kept. The first four are read under the account's (and team's) lock before any write; the rest are the writes'
 * own conditions (a number's or key's unique index, a conditional UPDATE, never read then written).
 */
export const SUBMISSION_GUARDS = [
  /** The idempotency key has an answer already (the caller reads it: submissionAnswer). */
  'answered',
  /** A person has a live entry in the race already (one live entry per person and race). */
  'personLive',
  /** The account's live entries and these people would pass account.limit. */
  'accountFull',
  /** The team's live members and these people would pass team.maxSize. */
  'teamFull',
  /** An entry or order number (or the key, by a submission met meanwhile) was taken: try again with new numbers. */
  'numberClash',
  /** The code has fewer uses left than people, or has expired. */
  'codeUsedUp',
  /** The pool has fewer places left than people (or no row: a race saved before sign-up existed). */
  'noPlaces',
] as const;

/** What writeSubmission did; anything but 'written' wrote nothing. */
export type SubmissionWritten =
  | (typeof SUBMISSION_GUARDS)[number]
  /**
   * A unique index (a person's live entry, the key) or a deadlock met a submission running at the same time: the
   * caller reads submitChecks to tell which.
   */
  | 'met'
  | 'written';

const REFUSED_WRITES = new Set<string>(SUBMISSION_GUARDS);

/** Thrown inside writeSubmission's transaction to roll back what it wrote: the guard that failed. */
class Unwritten extends Error {
  constructor(readonly reason: (typeof SUBMISSION_GUARDS)[number]) {
    super(reason);
  }
}

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
  revoked_at: number | null;
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
  /** When the organiser revoked it (refused at sign-up), or null. */
  revokedAt: number | null;
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
  'id, race_id, code, item_code, kind, named_name, named_cert_hash, max_uses, used, expires_at, note, created_at, revoked_at',
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
  revokedAt: num(row.revoked_at),
});

/** The pools an item's settings define, with their capacities. */
/** Why syncPlaces refused: the pool, and its capacity in the settings (null: the pool is no longer there). */
export interface PlacesRefusal {
  itemCode: string;
  pool: PlacePool;
  capacity: number | null;
  taken: number;
}

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
    phoneHash: keyedPhoneHash(idNumberKey, person.phone),
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

  const takePlaceOn = async (on: Db, raceId: string, itemCode: string, pool: PlacePool, n: number) =>
    (await on.run(sql`
      UPDATE entry_places SET taken = taken + ${n}
      WHERE race_id = ${raceId} AND item_code = ${itemCode} AND pool = ${pool} AND taken + ${n} <= capacity`)) > 0;
  const takePlace = (raceId: string, itemCode: string, pool: PlacePool, n: number): Promise<boolean> =>
    takePlaceOn(db, raceId, itemCode, pool, n);

  const addEvent = async (entryId: number, step: TimelineStep, at: number, note = '', actor: string | null = null) => {
    await db.run(sql`
      INSERT INTO entry_events (entry_id, step, at, note, actor) VALUES (${entryId}, ${step}, ${at}, ${note}, ${actor})`);
  };

  const events = async (entryIds: number[]): Promise<Map<number, EntryEvent[]>> => {
    const map = new Map<number, EntryEvent[]>();
    if (entryIds.length === 0) return map;
    const rows = await db.all<{
      entry_id: number;
      step: TimelineStep;
      at: number;
      note: string;
      actor: string | null;
    }>(sql`
      SELECT entry_id, step, at, note, actor FROM entry_events WHERE entry_id IN (${sql.join(entryIds)}) ORDER BY at, id`);
    for (const row of rows) {
      const id = Number(row.entry_id);
      const list = map.get(id) ?? [];
      list.push({ step: row.step, at: Number(row.at), note: row.note, actor: row.actor ?? null });
      map.set(id, list);
    }
    return map;
  };

  /** The guards read before any write, under the account's (and team's) lock, in SUBMISSION_GUARDS order. */
  const guardsRead = (input: SubmissionWrite) => {
    const n = input.people.length;
    const hashes = input.people.map((p) => p.certHash);
    return {
      keyFree: sql`NOT EXISTS (
        SELECT 1 FROM submissions WHERE user_id = ${input.userId} AND idempotency_key = ${input.idempotencyKey})`,
      peopleFree: sql`NOT EXISTS (
        SELECT 1 FROM entries WHERE race_id = ${input.entry.raceId} AND cert_hash IN (${sql.join(hashes)})
          AND status IN ${LIVE})`,
      teamRoom: sql`(CAST(${input.team ? (input.entry.teamId ?? null) : null} AS BIGINT) IS NULL OR (
        SELECT count(*) FROM entries WHERE team_id = ${input.entry.teamId ?? null} AND status IN ${LIVE}) + ${n}
          <= ${input.team?.maxSize ?? 0})`,
    };
  };

  /** The statement of writeSubmission on PostgreSQL (see there). */
  const oneStatement = (input: SubmissionWrite) => {
    const { entry, people, order, now, message } = input;
    const n = people.length;
    const column = <K extends keyof SubmissionWrite['people'][number]>(key: K) => people.map((p) => p[key]);
    const entryNos = column('entryNo');
    const kept = people.map(sealed);
    const ordered = order !== undefined;
    const guards = guardsRead(input);
    return sql`
      WITH chk AS (
        SELECT ${guards.keyFree} AS key_free, ${guards.peopleFree} AS people_free,
          race_site_account_entries(CAST(${advisoryLockNumber(input.account.lock)} AS BIGINT), ${entry.raceId},
            CAST(${input.userId} AS BIGINT), CAST(${[...LIVE_ENTRY_STATUSES]} AS BIGINT[])) + ${n} <= ${input.account.limit}
            AS account_room,
          ${guards.teamRoom} AS team_room
      ), ok AS (
        SELECT key_free AND people_free AND account_room AND team_room AS ok FROM chk
      ), p AS (
        SELECT * FROM unnest(CAST(${entryNos} AS TEXT[]), CAST(${column('name')} AS TEXT[]),
          CAST(${column('gender')} AS BIGINT[]), CAST(${column('birthday')} AS TEXT[]),
          CAST(${column('certType')} AS BIGINT[]), CAST(${column('certHash')} AS TEXT[]),
          CAST(${kept.map((k) => k.certEnc)} AS TEXT[]), CAST(${kept.map((k) => k.phoneEnc)} AS TEXT[]),
          CAST(${kept.map((k) => k.valuesEnc)} AS TEXT[]), CAST(${kept.map((k) => k.phoneHash)} AS TEXT[]))
          WITH ORDINALITY AS p (entry_no, name, gender, birthday, cert_type, cert_hash, cert_enc, phone_enc, values_enc,
            phone_hash, k)
      ), e AS (
        INSERT INTO entries (entry_no, race_id, item_code, channel, user_id, team_id, code_id, status, holds_place,
          name, gender, birthday, cert_type, cert_hash, cert_enc, phone_enc, phone_hash, values_enc, fee_fen, created_at,
          updated_at)
        SELECT p.entry_no, ${entry.raceId}, ${entry.itemCode}, ${entry.channel}, CAST(${entry.userId} AS BIGINT),
          CAST(${entry.teamId ?? null} AS BIGINT), CAST(${entry.codeId ?? null} AS BIGINT), CAST(${entry.status} AS BIGINT),
          CAST(${entry.holdsPlace ? 1 : 0} AS BIGINT), p.name, p.gender, p.birthday, p.cert_type, p.cert_hash,
          p.cert_enc, p.phone_enc, p.phone_hash, p.values_enc, CAST(${entry.feeFen} AS BIGINT), CAST(${now} AS BIGINT),
          CAST(${now} AS BIGINT)
        FROM p WHERE (SELECT ok FROM ok)
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
        INSERT INTO orders (order_no, race_id, user_id, status, amount_fen, deadline_at, created_at, paid_at, settled_at)
        SELECT ${order?.orderNo ?? ''}, ${entry.raceId}, CAST(${input.userId} AS BIGINT),
          CAST(${order?.paidAt == null ? 1 : 3} AS BIGINT), CAST(${order?.amountFen ?? 0} AS BIGINT),
          CAST(${order?.deadlineAt ?? null} AS BIGINT), CAST(${now} AS BIGINT), CAST(${order?.paidAt ?? null} AS BIGINT),
          CAST(${order?.paidAt ?? null} AS BIGINT)
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
      ), m AS (
        INSERT INTO outbox (channel, destination, subject, body, created_at, dedupe_key, kind, params)
        SELECT ${message?.channel ?? 'sms'}, ${message?.destination ?? ''}, ${message?.subject ?? ''},
          ${message?.body ?? ''}, CAST(${now} AS BIGINT), ${message?.dedupeKey ?? null}, ${message?.sms?.kind ?? null},
          ${message?.sms ? JSON.stringify(message.sms.params) : null}
        WHERE CAST(${message !== undefined} AS BOOLEAN) AND EXISTS (SELECT 1 FROM s)
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING 1
      ), c AS (
        UPDATE invitation_codes SET used = used + ${n}
        WHERE CAST(${input.usesCode} AS BOOLEAN) AND id = CAST(${entry.codeId ?? null} AS BIGINT)
          AND used + ${n} <= max_uses AND (expires_at IS NULL OR expires_at > ${now}) AND revoked_at IS NULL AND EXISTS (SELECT 1 FROM s)
        RETURNING 1
      ), t AS (
        UPDATE entry_places SET taken = taken + ${n}
        WHERE CAST(${input.takesPlaces !== undefined} AS BOOLEAN) AND race_id = ${entry.raceId}
          AND item_code = ${entry.itemCode} AND pool = ${input.takesPlaces ?? 'main'}
          AND taken + ${n} <= capacity AND EXISTS (SELECT 1 FROM s)
        RETURNING 1
      )
      -- The rows of ev, l and m counted first, so that those inserts run before the places' row is updated.
      SELECT (SELECT count(*) FROM ev) + (SELECT count(*) FROM l) + (SELECT count(*) FROM m) AS rows, CASE
        WHEN NOT (SELECT key_free FROM chk) THEN race_site_refuse('answered')
        WHEN NOT (SELECT people_free FROM chk) THEN race_site_refuse('personLive')
        WHEN NOT (SELECT account_room FROM chk) THEN race_site_refuse('accountFull')
        WHEN NOT (SELECT team_room FROM chk) THEN race_site_refuse('teamFull')
        WHEN (SELECT count(*) FROM s) = 0 THEN race_site_refuse('numberClash')
        WHEN CAST(${input.usesCode} AS BOOLEAN) AND (SELECT count(*) FROM c) = 0 THEN race_site_refuse('codeUsedUp')
        WHEN CAST(${input.takesPlaces !== undefined} AS BOOLEAN) AND (SELECT count(*) FROM t) = 0
          THEN race_site_refuse('noPlaces')
        ELSE TRUE END AS written`;
  };

  /** writeSubmission one statement per table, inside `tx` (a transaction holding the account's lock; see there). */
  const writeInSteps = async (tx: Db, input: SubmissionWrite): Promise<void> => {
    const { entry, people, order, now, message } = input;
    const n = people.length;
    const guards = guardsRead(input);
    const read = await tx.get<{
      key_free: unknown;
      people_free: unknown;
      account_live: number;
      team_room: unknown;
    }>(sql`
      SELECT ${guards.keyFree} AS key_free, ${guards.peopleFree} AS people_free,
        (SELECT count(*) FROM entries WHERE user_id = ${input.userId} AND race_id = ${entry.raceId} AND status IN ${LIVE})
          AS account_live,
        ${guards.teamRoom} AS team_room`);
    const yes = (value: unknown) => value === true || Number(value) === 1;
    if (!yes(read?.key_free)) throw new Unwritten('answered');
    if (!yes(read?.people_free)) throw new Unwritten('personLive');
    if (Number(read?.account_live ?? 0) + n > input.account.limit) throw new Unwritten('accountFull');
    if (!yes(read?.team_room)) throw new Unwritten('teamFull');
    const ids: number[] = [];
    for (const person of people) {
      const { certEnc, phoneEnc, phoneHash, valuesEnc } = sealed(person);
      const row = await tx.get<{ id: number }>(sql`
        INSERT INTO entries (entry_no, race_id, item_code, channel, user_id, team_id, code_id, status, holds_place,
          name, gender, birthday, cert_type, cert_hash, cert_enc, phone_enc, phone_hash, values_enc, fee_fen, created_at,
          updated_at)
        VALUES (${person.entryNo}, ${entry.raceId}, ${entry.itemCode}, ${entry.channel}, ${entry.userId},
          ${entry.teamId ?? null}, ${entry.codeId ?? null}, ${entry.status}, ${entry.holdsPlace ? 1 : 0},
          ${person.name}, ${person.gender}, ${person.birthday}, ${person.certType}, ${person.certHash}, ${certEnc},
          ${phoneEnc}, ${phoneHash}, ${valuesEnc}, ${entry.feeFen}, ${now}, ${now})
        ON CONFLICT (entry_no) DO NOTHING
        RETURNING id`);
      if (!row) throw new Unwritten('numberClash');
      ids.push(Number(row.id));
    }
    if (input.steps.length > 0) {
      await tx.run(sql`
        INSERT INTO entry_events (entry_id, step, at, note)
        VALUES ${sql.join(ids.flatMap((id) => input.steps.map((step) => sql`(${id}, ${step}, ${now}, '')`)))}`);
    }
    if (order) {
      const made = await tx.get<{ id: number }>(sql`
        INSERT INTO orders (order_no, race_id, user_id, status, amount_fen, deadline_at, created_at, paid_at, settled_at)
        VALUES (${order.orderNo}, ${entry.raceId}, ${input.userId}, ${order.paidAt === null ? 1 : 3}, ${order.amountFen},
          ${order.deadlineAt}, ${now}, ${order.paidAt}, ${order.paidAt})
        ON CONFLICT (order_no) DO NOTHING
        RETURNING id`);
      if (!made) throw new Unwritten('numberClash');
      const orderId = Number(made.id);
      await tx.run(sql`
        INSERT INTO order_lines (order_id, sub_order_no, entry_id, amount_fen)
        VALUES ${sql.join(ids.map((id, k) => sql`(${orderId}, ${order.subOrderNos[k]}, ${id}, ${entry.feeFen})`))}`);
    }
    const saved = await tx.run(sql`
      INSERT INTO submissions (user_id, idempotency_key, answer_json, created_at)
      VALUES (${input.userId}, ${input.idempotencyKey}, ${input.answerJson}, ${now})
      ON CONFLICT (user_id, idempotency_key) DO NOTHING`);
    if (saved === 0) throw new Unwritten('numberClash');
    if (message) {
      await tx.run(sql`
        INSERT INTO outbox (channel, destination, subject, body, created_at, dedupe_key, kind, params)
        VALUES (${message.channel}, ${message.destination}, ${message.subject}, ${message.body}, ${now}, ${message.dedupeKey},
          ${message.sms?.kind ?? null}, ${message.sms ? JSON.stringify(message.sms.params) : null})
        ON CONFLICT (dedupe_key) DO NOTHING`);
    }
    if (input.usesCode) {
      const used = await tx.run(sql`
        UPDATE invitation_codes SET used = used + ${n}
        WHERE id = ${entry.codeId ?? null} AND used + ${n} <= max_uses AND (expires_at IS NULL OR expires_at > ${now}) AND revoked_at IS NULL`);
      if (used === 0) throw new Unwritten('codeUsedUp');
    }
    if (
      input.takesPlaces !== undefined &&
      !(await takePlaceOn(tx, entry.raceId, entry.itemCode, input.takesPlaces, n))
    ) {
      throw new Unwritten('noPlaces');
    }
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
    ): Promise<{ ok: true } | ({ ok: false; problem: string } & PlacesRefusal)> {
      const wanted = poolsOf(settings);
      for (const pool of wanted) {
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
          const taken = Number(row?.taken ?? 0);
          return {
            ok: false,
            problem:
              `entry item ${pool.itemCode}${pool.pool === 'charity' ? ' (charity places)' : ''}: capacity ` +
              `${pool.capacity} is below the ${taken} places already taken`,
            itemCode: pool.itemCode,
            pool: pool.pool,
            capacity: pool.capacity,
            taken,
          };
        }
      }
      // A pool no longer in the settings (an item removed, its charity places dropped) goes when nobody holds
      // a place in it: a sign-up taking one meanwhile makes this refuse rather than leave a place nowhere.
      const keep = new Set(wanted.map((p) => `${p.itemCode}\u0000${p.pool}`));
      const rows = await db.all<{ item_code: string; pool: PlacePool; taken: number }>(sql`
        SELECT item_code, pool, taken FROM entry_places WHERE race_id = ${raceId} ORDER BY item_code, pool`);
      for (const row of rows) {
        if (keep.has(`${row.item_code}\u0000${row.pool}`)) continue;
        const deleted = await db.run(sql`
          DELETE FROM entry_places WHERE race_id = ${raceId} AND item_code = ${row.item_code} AND pool = ${row.pool}
            AND taken = 0`);
        if (deleted === 0) {
          return {
            ok: false,
            problem: `entry item ${row.item_code}${row.pool === 'charity' ? ' (charity places)' : ''} is no longer in the race but ${Number(row.taken)} places are taken in it`,
            itemCode: row.item_code,
            pool: row.pool,
            capacity: null,
            taken: Number(row.taken),
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
     * A bare row for tests' fixtures: an entry a runner or the organiser makes is written by writeSubmission,
     * as services/entry/submit/plan.ts plans it (its place, order, timeline and the account's rules).
     */
    async insertEntry(
      input: EntryInsert,
      /** The timeline's first steps, all at input.now ('submitted', then e.g. 'orderCreated' in the same transaction). */
      steps: readonly TimelineStep[] = ['submitted'],
      /** Draws the entry numbers tried (tests give their own to force a clash). */
      drawEntryNo: () => string = newEntryNo,
    ): Promise<{ id: number; entryNo: string }> {
      const { certEnc, phoneEnc, phoneHash, valuesEnc } = sealed(input);
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const entryNo = drawEntryNo();
        const insert = sql`
          INSERT INTO entries (entry_no, race_id, item_code, channel, user_id, team_id, code_id, status, holds_place,
            name, gender, birthday, cert_type, cert_hash, cert_enc, phone_enc, phone_hash, values_enc, fee_fen,
            created_at, updated_at)
          VALUES (${entryNo}, ${input.raceId}, ${input.itemCode}, ${input.channel}, ${input.userId},
            ${input.teamId ?? null}, ${input.codeId ?? null}, ${input.status}, ${input.holdsPlace ? 1 : 0},
            ${input.name}, ${input.gender}, ${input.birthday}, ${input.certType}, ${input.certHash}, ${certEnc},
            ${phoneEnc}, ${phoneHash}, ${valuesEnc}, ${input.feeFen}, ${input.now}, ${input.now})
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
      /** Who, when the organiser did it (EntryEvent.actor). */
      actor: string | null = null,
    ): Promise<boolean> {
      if (from.length === 0) return false;
      const changed = await db.run(sql`
        UPDATE entries SET status = ${to}, updated_at = ${at}
        WHERE id = ${entryId} AND status IN (${sql.join([...from])})`);
      if (changed === 0) return false;
      await addEvent(entryId, step, at, note, actor);
      return true;
    },

    /**
     * Replaces the person of an entry (the organiser's edit of the form's answers, or a transfer to another
     * person: services/console/entry-actions.ts), every value already checked by the form's rules. Guarded on
     * the entry's update time as read (`seenAt`): false (nothing changed) when the entry changed meanwhile. A
     * person who has another live entry in the race fails on the entries_person index (the caller checks first).
     */
    async replacePerson(entryId: number, person: EntryPerson, seenAt: number, at: number): Promise<boolean> {
      const { certEnc, phoneEnc, phoneHash, valuesEnc } = sealed(person);
      return (
        (await db.run(sql`
          UPDATE entries SET name = ${person.name}, gender = ${person.gender}, birthday = ${person.birthday},
            cert_type = ${person.certType}, cert_hash = ${person.certHash}, cert_enc = ${certEnc},
            phone_enc = ${phoneEnc}, phone_hash = ${phoneHash}, values_enc = ${valuesEnc}, updated_at = ${at}
          WHERE id = ${entryId} AND updated_at = ${seenAt}`)) > 0
      );
    },

    /**
     * Gives a registered (status 1) entry its bib, or another one (the organiser's choice, under the race's bib
     * lock: services/console/entry-actions.ts); false when the entry is not registered. A bib another entry of
     * the race holds fails on the entries_bib index (the caller checks first).
     */
    async setBib(entryId: number, bib: string, at: number): Promise<boolean> {
      return (
        (await db.run(sql`UPDATE entries SET bib = ${bib}, updated_at = ${at} WHERE id = ${entryId} AND status = 1`)) >
        0
      );
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
    /**
     * Fills the phone hash of entries written before migration 22, `batch` at a time; returns how many. Safe to
     * run from several instances at once (each row is set to the same value).
     */
    async fillPhoneHashes(batch = 500): Promise<number> {
      let filled = 0;
      for (;;) {
        const rows = await db.all<{ id: number; phone_enc: string }>(
          sql`SELECT id, phone_enc FROM entries WHERE phone_hash IS NULL ORDER BY id LIMIT ${batch}`,
        );
        if (rows.length === 0) return filled;
        await db.transaction(async (tx) => {
          for (const row of rows) {
            const phone = cipher.decrypt(row.phone_enc) ?? '';
            await tx.run(
              sql`UPDATE entries SET phone_hash = ${keyedPhoneHash(idNumberKey, phone)} WHERE id = ${row.id}`,
            );
          }
        });
        filled += rows.length;
      }
    },

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
        WHERE id = ${codeId} AND used + ${n} <= max_uses AND (expires_at IS NULL OR expires_at > ${now}) AND revoked_at IS NULL`);
      return changed > 0;
    },

    // ---- idempotency -------------------------------------------------------------------------------------

    /**
     * What a submission reads before its checks, in one query: the stored answer of its idempotency key (JSON
     * text), the race's version (races.version; null when there is no such race) with its information only
     * when it is not the version the caller has (`knownRaceVersion`), the version of the race's published
     * form of `channel` (null when none, or no channel given), how many live entries the account has in the
     * race (read again under the account's lock before writing: writeSubmission) and the account's contact.
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
      /** The account's phone and e-mail (its messages go to the phone, else the e-mail). */
      contact: { phone: string | null; email: string | null };
    }> {
      const row = await db.get<{
        answer: string | null;
        race_version: number | null;
        race_json: string | null;
        form_version: number | null;
        account_live: number | null;
        phone: string | null;
        email: string | null;
      }>(sql`
        SELECT
          (SELECT answer_json FROM submissions WHERE user_id = ${userId} AND idempotency_key = ${idempotencyKey}) AS answer,
          r.version AS race_version,
          CASE WHEN r.version = ${knownRaceVersion} THEN NULL ELSE r.info_json END AS race_json,
          (SELECT max(version) FROM registration_forms WHERE race_id = ${raceId} AND channel = ${channel}) AS form_version,
          (SELECT count(*) FROM entries WHERE user_id = ${userId} AND race_id = ${raceId} AND status IN ${LIVE}) AS account_live,
          (SELECT phone FROM users WHERE id = ${userId}) AS phone,
          (SELECT email FROM users WHERE id = ${userId}) AS email
        FROM (SELECT 1 AS one) AS start LEFT JOIN races AS r ON r.race_id = ${raceId}`);
      return {
        answer: row?.answer ?? null,
        raceVersion: row?.race_version ?? null,
        raceJson: row?.race_json ?? null,
        formVersion: row?.form_version ?? null,
        accountLive: Number(row?.account_live ?? 0),
        contact: { phone: row?.phone ?? null, email: row?.email ?? null },
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
     * Every write of a submission (SubmissionWrite), all kept or none, guarded as SUBMISSION_GUARDS lists: the
     * one way entries are made, on both engines. Where the engines differ is only how the same writes travel:
     *
     * - PostgreSQL: one statement that commits by itself (a team's, inside a transaction holding the team's
     *   lock), so the contended rows (the code's uses, the item's places, updated last) stay locked only until
     *   that commit, never while an answer travels to this process and back. The account's count is read under
     *   the account's lock by race_site_account_entries (migration 19), which the statement holds until it
     *   commits; a failed guard raises (race_site_refuse, migration 15) so nothing of it is kept.
     * - SQLite (or `inSteps`): a transaction (BEGIN IMMEDIATE: one writer at a time; on PostgreSQL the team's and
     *   account's advisory locks) of one statement per table, rolled back by the first guard that fails.
     *
     * A unique index met by a submission of the same person or key running at the same time (or a deadlock)
     * answers 'met': the caller asks submitChecks what it met. test/entry-submit.test.ts runs every guard
     * through both ways on PostgreSQL and the steps on SQLite, and expects the same answers and rows.
     */
    async writeSubmission(input: SubmissionWrite, options: { inSteps?: boolean } = {}): Promise<SubmissionWritten> {
      try {
        if (db.engine === 'postgres' && !options.inSteps) {
          const team = input.team;
          await (team
            ? db.transaction((tx) => tx.get(oneStatement(input)), { locks: [team.lock] })
            : db.get(oneStatement(input)));
        } else {
          await db.transaction((tx) => writeInSteps(tx, input), {
            locks: [...(input.team ? [input.team.lock] : []), input.account.lock],
          });
        }
        return 'written';
      } catch (error) {
        if (error instanceof Unwritten) return error.reason;
        const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
        if (code === 'RS409' && typeof message === 'string' && REFUSED_WRITES.has(message)) {
          return message as SubmissionWritten;
        }
        if (code === '23505' || code === '40P01' || code === 'SQLITE_CONSTRAINT_UNIQUE') return 'met';
        throw error;
      }
    },
  };
}

export type EntriesRepository = ReturnType<typeof createEntriesRepository>;
