/**
 * Registrations, results (with splits) and photos of the race centre. All SQL of these lookups lives here.
 * Rows hold the certificate number only as a keyed hash (lookups) and a masked form (answers).
 */
import type { Database } from 'better-sqlite3';
import { certDigest, keyedCertHash } from '../lib/race-center.ts';

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
  cert_masked: string;
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

const REG_COLS =
  'race_id, bib, name, gender, birthday, cert_type, cert_hash, cert_masked, phone_masked, emergency_name, emergency_phone_masked, item, status, orders_json, channel, channel_name, channel_name_en';
const RES_COLS =
  'race_id, bib, name, gender, cert_hash, item, gun_ms, chip_ms, rank_overall, rank_gender, rank_age_group, age_group, finishers, splits_json';

const placeholders = (cols: string) =>
  cols
    .split(',')
    .map((c) => `@${c.trim()}`)
    .join(', ');

/** `certKey`: the secret of the stored certificate-number hashes (lib/secrets.ts). */
export function createRaceCenterRepository(db: Database, certKey: string) {
  const regByCert = db.prepare<[string, string, string], RegistrationRow>(
    `SELECT ${REG_COLS} FROM registrations WHERE race_id = ? AND cert_hash = ? AND name = ?`,
  );
  const resByBib = db.prepare<[string, string], ResultRow>(
    `SELECT ${RES_COLS} FROM results WHERE race_id = ? AND bib = ?`,
  );
  const resByCertInRace = db.prepare<[string, string, string], ResultRow>(
    `SELECT ${RES_COLS} FROM results WHERE cert_hash = ? AND race_id = ? AND name = ?`,
  );
  const resByCert = db.prepare<[string, string], ResultRow>(
    `SELECT ${RES_COLS} FROM results WHERE cert_hash = ? AND name = ?`,
  );
  const photosByBib = db.prepare<[string, string], PhotoRow>(
    'SELECT race_id, bib, url, taken_at FROM photos WHERE race_id = ? AND bib = ? ORDER BY taken_at, id',
  );
  const resByItem = db.prepare<[string, string, number], ResultRow>(
    `SELECT ${RES_COLS} FROM results WHERE race_id = ? AND item = ? ORDER BY chip_ms, bib LIMIT ?`,
  );
  const resByRace = db.prepare<[string, number], ResultRow>(
    `SELECT ${RES_COLS} FROM results WHERE race_id = ? ORDER BY item, chip_ms, bib LIMIT ?`,
  );
  const resForRank = db.prepare<[string], { id: number; item: string; gender: number; age_group: string }>(
    'SELECT id, item, gender, age_group FROM results WHERE race_id = ? ORDER BY item, chip_ms, bib',
  );
  const setRanks = db.prepare<[number, number, number, number, number]>(
    'UPDATE results SET rank_overall = ?, rank_gender = ?, rank_age_group = ?, finishers = ? WHERE id = ?',
  );
  const insReg = db.prepare(`INSERT INTO registrations (${REG_COLS}) VALUES (${placeholders(REG_COLS)})`);
  const upsertRes = db.prepare(
    `INSERT INTO results (${RES_COLS}) VALUES (${placeholders(RES_COLS)})
     ON CONFLICT (race_id, bib) DO UPDATE SET name = excluded.name, gender = excluded.gender,
       cert_hash = excluded.cert_hash, item = excluded.item, gun_ms = excluded.gun_ms, chip_ms = excluded.chip_ms,
       age_group = excluded.age_group, splits_json = excluded.splits_json`,
  );
  const upsertReg = db.prepare(
    `INSERT INTO registrations (${REG_COLS}) VALUES (${placeholders(REG_COLS)})
     ON CONFLICT (race_id, cert_hash) DO UPDATE SET bib = excluded.bib, name = excluded.name,
       gender = excluded.gender, birthday = excluded.birthday, cert_type = excluded.cert_type,
       cert_masked = excluded.cert_masked, phone_masked = excluded.phone_masked,
       emergency_name = excluded.emergency_name, emergency_phone_masked = excluded.emergency_phone_masked,
       item = excluded.item, status = excluded.status, orders_json = excluded.orders_json,
       channel = excluded.channel, channel_name = excluded.channel_name, channel_name_en = excluded.channel_name_en`,
  );
  const insPhoto = db.prepare(
    'INSERT INTO photos (race_id, bib, url, taken_at) VALUES (@race_id, @bib, @url, @taken_at)',
  );
  const countResults = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM results');
  const countByRace = db.prepare<[], { race_id: string; n: number }>(
    'SELECT race_id, count(*) AS n FROM results GROUP BY race_id',
  );

  /** Overall, gender and age-group ranks and finisher counts per item, by chip time. */
  function recomputeRanks(raceId: string): void {
    const rows = resForRank.all(raceId);
    const finishers = new Map<string, number>();
    for (const r of rows) finishers.set(r.item, (finishers.get(r.item) ?? 0) + 1);
    const counters = new Map<string, number>();
    const next = (key: string) => {
      const n = (counters.get(key) ?? 0) + 1;
      counters.set(key, n);
      return n;
    };
    for (const r of rows) {
      setRanks.run(
        next(r.item),
        next(`${r.item}|g${r.gender}`),
        next(`${r.item}|a${r.age_group}`),
        finishers.get(r.item) ?? 0,
        r.id,
      );
    }
  }

  return {
    /** What the database keeps of a certificate number (lib/race-center.ts keyedCertHash). */
    certHash: (certNo: string) => keyedCertHash(certKey, certDigest(certNo)),
    registration: (raceId: string, certHash: string, name: string) => regByCert.get(raceId, certHash, name),
    resultByBib: (raceId: string, bib: string) => resByBib.get(raceId, bib),
    resultsByCert: (certHash: string, name: string, raceId?: string): ResultRow[] =>
      raceId === undefined ? resByCert.all(certHash, name) : resByCertInRace.all(certHash, raceId, name),
    photos: (raceId: string, bib: string) => photosByBib.all(raceId, bib),
    resultsForExport: (raceId: string, item: string | undefined, limit: number): ResultRow[] =>
      item === undefined ? resByRace.all(raceId, limit) : resByItem.all(raceId, item, limit),
    resultCount: () => countResults.get()?.n ?? 0,
    /** How many results each race has (races without results are absent). */
    resultCountsByRace: (): Map<string, number> => new Map(countByRace.all().map((r) => [r.race_id, r.n])),

    insertRegistration: (row: RegistrationRow) => insReg.run(row),
    upsertRegistration: (row: RegistrationRow) => upsertReg.run(row),
    /** Ranks are recomputed by recomputeRanks after a batch. */
    upsertResult: (row: ResultRow) => upsertRes.run(row),
    insertPhoto: (row: PhotoRow) => insPhoto.run(row),

    /** An imported file's results, in one transaction; the race's ranks are recomputed. */
    saveResults(raceId: string, rows: ResultRow[]): void {
      db.transaction(() => {
        for (const row of rows) upsertRes.run(row);
        recomputeRanks(raceId);
      })();
    },
    /** An imported file's registrations, in one transaction. */
    saveRegistrations(rows: RegistrationRow[]): void {
      db.transaction(() => {
        for (const row of rows) upsertReg.run(row);
      })();
    },
    /** An imported file's photos, in one transaction. */
    savePhotos(rows: PhotoRow[]): void {
      db.transaction(() => {
        for (const row of rows) insPhoto.run(row);
      })();
    },

    /** Overall, gender and age-group ranks and finisher counts per item, by chip time. */
    recomputeRanks,
  };
}

export type RaceCenterRepository = ReturnType<typeof createRaceCenterRepository>;
