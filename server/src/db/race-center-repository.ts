/**
 * Registrations, results (with splits) and photos of the race centre. All SQL of these lookups lives here.
 * Rows hold the certificate number only as a keyed hash (lookups) and a masked form (answers).
 */
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

/** `certKey`: the secret of the stored certificate-number hashes (lib/secrets.ts). */
export function createRaceCenterRepository(db: Db, certKey: string) {
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
    registration: (raceId: string, certHash: string, name: string) =>
      db.get<RegistrationRow>(
        sql`SELECT ${REG_COLS} FROM registrations WHERE race_id = ${raceId} AND cert_hash = ${certHash} AND name = ${name}`,
      ),
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
    /** An imported file's registrations, in one transaction. */
    saveRegistrations: (rows: readonly RegistrationRow[]): Promise<void> =>
      write((tx) => upsertRegistrations(tx, rows)),
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
