/**
 * Registrations, results (with splits) and photos of the race centre. All SQL of these lookups lives here.
 * Rows hold the certificate number only as a keyed hash (lookups) and a masked form (answers).
 *
 * A registration is either imported (the registrations table, from the organiser's CSV) or an entry made on
 * the site (the entries table, numbers kept encrypted): the registration lookup reads both in one statement
 * (`registration`), and one bib belongs to one runner across both (`bibLock`, `saveRegistrations`).
 */
import type { EntryStatus } from '#contract/entry';
import { personalCipher } from '../lib/personal-data.ts';
import { sql, type Db } from './engine.ts';
import { ageGroupLabel, ageOn, certDigest, keyedCertHash } from '../lib/race-center.ts';

export interface OrderRow {
  orderNo: string;
  subOrderNo: string;
  createTime: string;
  serialNo: string;
  payTime: string;
  amountPaid: number;
  orderAmount: number;
  coupon: string;
  discount: number;
}

export interface RegistrationRow {
  race_id: string;
  bib: string | null;
  name: string;
  gender: number;
  birthday: string;
  cert_type: number;
  cert_hash: string;
  phone_masked: string;
  emergency_name: string;
  emergency_phone_masked: string;
  item: string;
  status: number;
  orders_json: string;
  /** 2 third-party, 3 web, 5 app (the spec's query-type numbers). */
  channel: number;
  /** The third-party platform (zh, en); null for web and app. */
  channel_name: string | null;
  channel_name_en: string | null;
}

/** An order line of an entry made on the site, as the registration lookup reads it (times epoch ms). */
export interface OnlineOrderLine {
  orderNo: string;
  subOrderNo: string;
  /** contract/entry.ts ORDER_STATUSES. */
  status: number;
  createdAt: number;
  paidAt: number | null;
  serialNo: string | null;
  amountFen: number;
}

/** An entry made on the site, as the registration lookup reads it: personal numbers decrypted ('' unreadable). */
export interface OnlineRegistration {
  entryNo: string;
  raceId: string;
  itemCode: string;
  status: EntryStatus;
  bib: string | null;
  name: string;
  gender: number;
  birthday: string;
  certType: number;
  certNumber: string;
  phone: string;
  /** The form's values ({} when unreadable): the emergency contact is among them. */
  values: Record<string, unknown>;
  /** Its orders, oldest first (none for a free entry). */
  orders: OnlineOrderLine[];
}

/** What the registration lookup found: an imported registration or an entry made on the site. */
export type FoundRegistration =
  { source: 'imported'; row: RegistrationRow } | { source: 'online'; entry: OnlineRegistration };

/** A registration that holds a bib (registrationsHoldingBibs). */
export interface BibHolder {
  bib: string;
  certHash: string;
  /** The entry's number. */
  entryNo: string;
}

/**
 * The lock that orders every giving of a race's bibs: entries' bibs (services/entry/bibs.ts) and imported
 * registrations' (saveRegistrations), so one bib never goes to two runners.
 */
export const bibLock = (raceId: string) => `entry-bibs:${raceId}`;

export interface SplitRow {
  checkpoint: string;
  distanceKm: number;
  chipMs: number;
}

export interface ResultRow {
  race_id: string;
  bib: string;
  name: string;
  gender: number;
  cert_hash: string;
  item: string;
  gun_ms: number;
  chip_ms: number;
  rank_overall: number;
  rank_gender: number;
  rank_age_group: number;
  age_group: string;
  finishers: number;
  splits_json: string;
}

export interface PhotoRow {
  race_id: string;
  bib: string;
  url: string;
  taken_at: string;
}

/**
 * A result row as an import or the demo seed makes it: the runner's age group on the race day, the splits as
 * JSON, and no ranks yet (saveResults recomputes them for the whole race).
 */
export function unrankedResult(input: {
  raceId: string;
  bib: string;
  name: string;
  gender: number;
  certHash: string;
  item: string;
  gunMs: number;
  chipMs: number;
  birthday: string;
  raceDate: string;
  splits: SplitRow[];
}): ResultRow {
  return {
    race_id: input.raceId,
    bib: input.bib,
    name: input.name,
    gender: input.gender,
    cert_hash: input.certHash,
    item: input.item,
    gun_ms: input.gunMs,
    chip_ms: input.chipMs,
    rank_overall: 0,
    rank_gender: 0,
    rank_age_group: 0,
    age_group: ageGroupLabel(input.gender, ageOn(input.birthday, input.raceDate)),
    finishers: 0,
    splits_json: JSON.stringify(input.splits),
  };
}

const REG_COLUMNS = [
  'race_id',
  'bib',
  'name',
  'gender',
  'birthday',
  'cert_type',
  'cert_hash',
  'phone_masked',
  'emergency_name',
  'emergency_phone_masked',
  'item',
  'status',
  'orders_json',
  'channel',
  'channel_name',
  'channel_name_en',
] as const satisfies readonly (keyof RegistrationRow)[];
const RES_COLUMNS = [
  'race_id',
  'bib',
  'name',
  'gender',
  'cert_hash',
  'item',
  'gun_ms',
  'chip_ms',
  'rank_overall',
  'rank_gender',
  'rank_age_group',
  'age_group',
  'finishers',
  'splits_json',
] as const satisfies readonly (keyof ResultRow)[];
const PHOTO_COLUMNS = ['race_id', 'bib', 'url', 'taken_at'] as const satisfies readonly (keyof PhotoRow)[];

const REG_COLS = sql.raw(REG_COLUMNS.join(', '));
const RES_COLS = sql.raw(RES_COLUMNS.join(', '));

/** Rows per multi-row INSERT (17 columns × 500 stays far below both engines' parameter limits). */
const BATCH = 500;

/** `VALUES (…), (…)` of rows, in the order of `columns`. */
function values<Row>(rows: readonly Row[], columns: readonly (keyof Row)[]) {
  return sql.join(rows.map((row) => sql`(${sql.join(columns.map((column) => row[column]))})`));
}

function batches<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(rows.slice(i, i + BATCH));
  return out;
}

const UPSERT_RESULT = sql`
  ON CONFLICT (race_id, bib) DO UPDATE SET name = excluded.name, gender = excluded.gender,
    cert_hash = excluded.cert_hash, item = excluded.item, gun_ms = excluded.gun_ms, chip_ms = excluded.chip_ms,
    age_group = excluded.age_group, splits_json = excluded.splits_json`;
const UPSERT_REGISTRATION = sql`
  ON CONFLICT (race_id, cert_hash) DO UPDATE SET bib = excluded.bib, name = excluded.name,
    gender = excluded.gender, birthday = excluded.birthday, cert_type = excluded.cert_type,
    phone_masked = excluded.phone_masked,
    emergency_name = excluded.emergency_name, emergency_phone_masked = excluded.emergency_phone_masked,
    item = excluded.item, status = excluded.status, orders_json = excluded.orders_json,
    channel = excluded.channel, channel_name = excluded.channel_name, channel_name_en = excluded.channel_name_en`;

/** One row of the registration lookup's statement: an imported registration, or an entry with one order line. */
interface LookupRow extends RegistrationRow {
  /** -1 a live entry, 0 an imported registration, 1 an entry no longer live: the lowest answers. */
  rank: number;
  entry_no: string | null;
  cert_enc: string | null;
  phone_enc: string | null;
  values_enc: string | null;
  order_no: string | null;
  sub_order_no: string | null;
  order_status: number | null;
  order_created_at: number | null;
  paid_at: number | null;
  serial_no: string | null;
  line_fen: number | null;
}

/**
 * `certKey`: the secret of the stored certificate-number hashes (lib/secrets.ts), which is also the key of the
 * entries' encrypted numbers (lib/personal-data.ts).
 */
export function createRaceCenterRepository(db: Db, certKey: string) {
  const cipher = personalCipher(certKey);
  /** What in-process listeners hear after a write commits (the data version poll tells other instances). */
  const changeListeners = new Set<() => void>();
  const changed = () => {
    for (const listener of changeListeners) listener();
  };
  /**
   * Raises the data version of each race of `rows` (race_data_versions), inside the write's transaction.
   * A race's version changes whenever its results, photos or registrations do.
   */
  const bumpVersions = async (tx: Db, rows: readonly { race_id: string }[]) => {
    for (const raceId of new Set(rows.map((row) => row.race_id))) {
      await tx.run(sql`
        INSERT INTO race_data_versions (race_id, version) VALUES (${raceId}, 1)
        ON CONFLICT (race_id) DO UPDATE SET version = race_data_versions.version + 1`);
    }
  };
  /** Runs a write (and its version raise) in one transaction, then tells the listeners. */
  const write = async (work: (tx: Db) => Promise<void>) => {
    await db.transaction(work);
    changed();
  };
  const upsertResults = async (tx: Db, rows: readonly ResultRow[]) => {
    for (const batch of batches(rows)) {
      await tx.run(sql`INSERT INTO results (${RES_COLS}) VALUES ${values(batch, RES_COLUMNS)} ${UPSERT_RESULT}`);
    }
    await bumpVersions(tx, rows);
  };
  const upsertRegistrations = async (tx: Db, rows: readonly RegistrationRow[]) => {
    for (const batch of batches(rows)) {
      await tx.run(
        sql`INSERT INTO registrations (${REG_COLS}) VALUES ${values(batch, REG_COLUMNS)} ${UPSERT_REGISTRATION}`,
      );
    }
    await bumpVersions(tx, rows);
  };
  const insertPhotos = async (tx: Db, rows: readonly PhotoRow[]) => {
    for (const batch of batches(rows)) {
      await tx.run(
        sql`INSERT INTO photos (${sql.raw(PHOTO_COLUMNS.join(', '))}) VALUES ${values(batch, PHOTO_COLUMNS)}`,
      );
    }
    await bumpVersions(tx, rows);
  };

  /** Overall, gender and age-group ranks and finisher counts per item, by chip time (one statement). */
  const recomputeRanks = async (raceId: string, tx: Db = db): Promise<void> => {
    await tx.run(sql`
      UPDATE results SET rank_overall = r.ro, rank_gender = r.rg, rank_age_group = r.ra, finishers = r.f
      FROM (
        SELECT id,
          row_number() OVER (PARTITION BY item ORDER BY chip_ms, bib) AS ro,
          row_number() OVER (PARTITION BY item, gender ORDER BY chip_ms, bib) AS rg,
          row_number() OVER (PARTITION BY item, age_group ORDER BY chip_ms, bib) AS ra,
          count(*) OVER (PARTITION BY item) AS f
        FROM results WHERE race_id = ${raceId}
      ) AS r
      WHERE results.id = r.id
    `);
  };

  return {
    /** What the database keeps of a certificate number (lib/race-center.ts keyedCertHash). */
    certHash: (certNo: string) => keyedCertHash(certKey, certDigest(certNo)),
    /**
     * The registration of a person (certificate hash and name) in a race, imported or made on the site, in one
     * statement over two indexed reads (registrations_cert, entries_race_cert). A person with several answers
     * this one: their live entry (submitted, won, refund under review), else their imported registration,
     * else their latest entry no longer live (not won, cancelled, refunded).
     */
    async registration(raceId: string, certHash: string, name: string): Promise<FoundRegistration | undefined> {
      const rows = await db.all<LookupRow>(sql`
        SELECT 0 AS rank, ${REG_COLS}, NULL AS entry_no, NULL AS cert_enc, NULL AS phone_enc, NULL AS values_enc,
          NULL AS order_no, NULL AS sub_order_no, NULL AS order_status, NULL AS order_created_at, NULL AS paid_at,
          NULL AS serial_no, NULL AS line_fen, 0 AS entry_id
        FROM registrations WHERE race_id = ${raceId} AND cert_hash = ${certHash} AND name = ${name}
        UNION ALL
        SELECT CASE WHEN e.status IN (0, 1, 4) THEN -1 ELSE 1 END AS rank, e.race_id, e.bib, e.name, e.gender,
          e.birthday, e.cert_type, e.cert_hash, '' AS phone_masked, '' AS emergency_name,
          '' AS emergency_phone_masked, e.item_code AS item, e.status, '[]' AS orders_json, 3 AS channel,
          NULL AS channel_name, NULL AS channel_name_en, e.entry_no, e.cert_enc, e.phone_enc, e.values_enc,
          o.order_no, l.sub_order_no, o.status AS order_status, o.created_at AS order_created_at, o.paid_at,
          o.serial_no, l.amount_fen AS line_fen, e.id AS entry_id
        FROM entries e
          LEFT JOIN order_lines l ON l.entry_id = e.id
          LEFT JOIN orders o ON o.id = l.order_id
        WHERE e.race_id = ${raceId} AND e.cert_hash = ${certHash} AND e.name = ${name}
        ORDER BY rank, entry_id DESC, order_created_at, order_no`);
      const first = rows[0];
      if (!first) return undefined;
      if (first.entry_no === null) {
        const row = Object.fromEntries(REG_COLUMNS.map((c) => [c, first[c]])) as unknown as RegistrationRow;
        return { source: 'imported', row };
      }
      const values = (() => {
        try {
          return JSON.parse(cipher.decrypt(first.values_enc ?? '') ?? '{}') as Record<string, unknown>;
        } catch {
          return {};
        }
      })();
      const orders = rows
        .filter((r) => r.entry_no === first.entry_no && r.order_no !== null)
        .map((r): OnlineOrderLine => ({
          orderNo: r.order_no ?? '',
          subOrderNo: r.sub_order_no ?? '',
          status: Number(r.order_status),
          createdAt: Number(r.order_created_at),
          paidAt: r.paid_at === null ? null : Number(r.paid_at),
          serialNo: r.serial_no,
          amountFen: Number(r.line_fen),
        }));
      return {
        source: 'online',
        entry: {
          entryNo: first.entry_no,
          raceId: first.race_id,
          itemCode: first.item,
          status: Number(first.status) as EntryStatus,
          bib: first.bib,
          name: first.name,
          gender: Number(first.gender),
          birthday: first.birthday,
          certType: Number(first.cert_type),
          certNumber: cipher.decrypt(first.cert_enc ?? '') ?? '',
          phone: cipher.decrypt(first.phone_enc ?? '') ?? '',
          values,
          orders,
        },
      };
    },
    resultByBib: (raceId: string, bib: string) =>
      db.get<ResultRow>(sql`SELECT ${RES_COLS} FROM results WHERE race_id = ${raceId} AND bib = ${bib}`),
    resultsByCert: (certHash: string, name: string, raceId?: string): Promise<ResultRow[]> =>
      raceId === undefined
        ? db.all<ResultRow>(sql`SELECT ${RES_COLS} FROM results WHERE cert_hash = ${certHash} AND name = ${name}`)
        : db.all<ResultRow>(
            sql`SELECT ${RES_COLS} FROM results WHERE cert_hash = ${certHash} AND race_id = ${raceId} AND name = ${name}`,
          ),
    photos: (raceId: string, bib: string) =>
      db.all<PhotoRow>(
        sql`SELECT race_id, bib, url, taken_at FROM photos WHERE race_id = ${raceId} AND bib = ${bib} ORDER BY taken_at, id`,
      ),
    resultsForExport: (raceId: string, item: string | undefined, limit: number): Promise<ResultRow[]> =>
      item === undefined
        ? db.all<ResultRow>(
            sql`SELECT ${RES_COLS} FROM results WHERE race_id = ${raceId} ORDER BY item, chip_ms, bib LIMIT ${limit}`,
          )
        : db.all<ResultRow>(
            sql`SELECT ${RES_COLS} FROM results WHERE race_id = ${raceId} AND item = ${item} ORDER BY chip_ms, bib LIMIT ${limit}`,
          ),
    resultCount: async () => (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM results`))?.n ?? 0,
    /** How many results each race has (races without results are absent). */
    resultCountsByRace: async (): Promise<Map<string, number>> =>
      new Map(
        (
          await db.all<{ race_id: string; n: number }>(sql`SELECT race_id, count(*) AS n FROM results GROUP BY race_id`)
        ).map((r) => [r.race_id, r.n]),
      ),

    insertRegistration: (row: RegistrationRow) =>
      write(async (tx) => {
        await tx.run(sql`INSERT INTO registrations (${REG_COLS}) VALUES ${values([row], REG_COLUMNS)}`);
        await bumpVersions(tx, [row]);
      }),
    upsertRegistration: (row: RegistrationRow) => write((tx) => upsertRegistrations(tx, [row])),
    /** Ranks are recomputed by recomputeRanks after a batch. */
    upsertResult: (row: ResultRow) => write((tx) => upsertResults(tx, [row])),
    insertPhoto: (row: PhotoRow) => write((tx) => insertPhotos(tx, [row])),

    /** An imported file's results, in one transaction; the race's ranks are recomputed. */
    saveResults: (raceId: string, rows: readonly ResultRow[]): Promise<void> =>
      write(async (tx) => {
        await upsertResults(tx, rows);
        await recomputeRanks(raceId, tx);
        await bumpVersions(tx, [{ race_id: raceId }]);
      }),
    /**
     * An imported file's registrations, in one transaction, unless one of their bibs is held by another
     * runner's entry made on the site (under bibLock, as bibs are given to entries): then nothing is written
     * and the answer is those entries (empty: written).
     */
    async saveRegistrations(rows: readonly RegistrationRow[]): Promise<BibHolder[]> {
      const clashes = await db.transaction(async (tx) => {
        const taken: BibHolder[] = [];
        for (const raceId of new Set(rows.map((row) => row.race_id))) {
          const ofRace = rows.filter((row) => row.race_id === raceId && row.bib !== null);
          if (ofRace.length === 0) continue;
          await tx.lock(bibLock(raceId));
          const runnerOf = new Map(ofRace.map((row) => [row.bib, row.cert_hash]));
          for (const batch of batches(ofRace)) {
            const held = await tx.all<{ bib: string; cert_hash: string; entry_no: string }>(sql`
              SELECT bib, cert_hash, entry_no FROM entries
              WHERE race_id = ${raceId} AND bib IN (${sql.join(batch.map((row) => row.bib))})`);
            for (const h of held) {
              if (runnerOf.get(h.bib) !== h.cert_hash)
                taken.push({ bib: h.bib, certHash: h.cert_hash, entryNo: h.entry_no });
            }
          }
        }
        if (taken.length === 0) await upsertRegistrations(tx, rows);
        return taken;
      });
      if (clashes.length === 0) changed();
      return clashes;
    },
    /** The bibs the race's results hold (what an import replaces). */
    resultBibs: async (raceId: string): Promise<Set<string>> =>
      new Set(
        (await db.all<{ bib: string }>(sql`SELECT bib FROM results WHERE race_id = ${raceId}`)).map((row) => row.bib),
      ),
    /** The bibs the race's imported registrations hold. */
    registrationBibs: async (raceId: string): Promise<Set<string>> =>
      new Set(
        (
          await db.all<{ bib: string }>(
            sql`SELECT bib FROM registrations WHERE race_id = ${raceId} AND bib IS NOT NULL`,
          )
        ).map((row) => row.bib),
      ),
    /** An imported file's photos, in one transaction. */
    savePhotos: (rows: readonly PhotoRow[]): Promise<void> => write((tx) => insertPhotos(tx, rows)),

    /** Overall, gender and age-group ranks and finisher counts per item, by chip time. */
    recomputeRanks: (raceId: string) =>
      write(async (tx) => {
        await recomputeRanks(raceId, tx);
        await bumpVersions(tx, [{ race_id: raceId }]);
      }),

    /**
     * One text that changes whenever any race's results, photos, registrations (race_data_versions) or
     * information (races.updated_at) change: what a server instance compares to keep or drop its cached
     * public lookups.
     */
    dataVersions: async (): Promise<string> =>
      (
        await db.all<{ k: string; v: number }>(sql`
          SELECT 'd:' || race_id AS k, version AS v FROM race_data_versions
          UNION ALL SELECT 'r:' || race_id AS k, updated_at AS v FROM races
          ORDER BY k`)
      )
        .map((row) => `${row.k}=${row.v}`)
        .join(' '),
    /** Calls `listener` after every write of this repository commits; returns the unsubscribe. */
    onChange: (listener: () => void): (() => void) => {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
  };
}

export type RaceCenterRepository = ReturnType<typeof createRaceCenterRepository>;
