/**
 * What a runner records on the registration screens besides the direct-pass application (issue 13 §4,
 * migration 11): the confirmation of a registration (/confirm), the race-pack mailing choice (/post) and the
 * documents handed in (/upload). One row per runner and race each. The mailing phone is kept encrypted with
 * the ID-number key (lib/personal-data.ts): the organiser's export needs it whole for the courier.
 */
import type { RegionCodes } from '#contract/region';
import type { MailingMethod } from '#contract/registration-screens';
import { personalCipher } from '../lib/personal-data.ts';
import { sql, type Db } from './engine.ts';

export interface MailingRecord {
  raceId: string;
  userId: number;
  method: MailingMethod;
  name: string;
  /** Whole ('' for a pick-up, or when it cannot be read with this server's key). */
  phone: string;
  region: RegionCodes | [];
  address: string;
  updatedAt: number;
  /** The parcel once the organiser imported its tracking number (issue 15 §5); read only, never saved from here. */
  shipment?: Shipment | null;
}

/** A shipped parcel: the carrier and tracking number imported by the organiser (`mailing-import`). */
export interface Shipment {
  carrier: string;
  trackingNo: string;
  shippedAt: number;
}

interface MailingRow {
  race_id: string;
  user_id: number;
  method: string;
  name: string;
  phone_enc: string;
  region_json: string;
  address: string;
  updated_at: number;
  carrier: string | null;
  tracking_no: string | null;
  shipped_at: number | null;
}

/** `idNumberKey`: the ID-number secret (lib/secrets.ts), the key of the encrypted phone. */
export function createRunnerChoicesRepository(db: Db, idNumberKey: string) {
  const cipher = personalCipher(idNumberKey);
  const toMailing = (row: MailingRow): MailingRecord => ({
    raceId: row.race_id,
    userId: Number(row.user_id),
    method: row.method as MailingMethod,
    name: row.name,
    phone: row.phone_enc === '' ? '' : (cipher.decrypt(row.phone_enc) ?? ''),
    region: JSON.parse(row.region_json) as RegionCodes | [],
    address: row.address,
    updatedAt: Number(row.updated_at),
    shipment:
      row.shipped_at === null || row.carrier === null || row.tracking_no === null
        ? null
        : { carrier: row.carrier, trackingNo: row.tracking_no, shippedAt: Number(row.shipped_at) },
  });
  const MAILING_COLUMNS = sql.raw('race_id, user_id, method, name, phone_enc, region_json, address, updated_at');
  const READ_COLUMNS = sql.raw(
    'race_id, user_id, method, name, phone_enc, region_json, address, updated_at, carrier, tracking_no, shipped_at',
  );

  return {
    /** A search that found the registration (after the slider): the runner may now confirm it. */
    async recordSearch(raceId: string, certHash: string, userId: number, now: number): Promise<void> {
      await db.run(sql`
        INSERT INTO registration_confirmations (race_id, cert_hash, user_id, searched_at) VALUES (${raceId}, ${certHash}, ${userId}, ${now})
        ON CONFLICT (race_id, cert_hash, user_id) DO UPDATE SET searched_at = excluded.searched_at`);
    },
    /** When this runner last found the registration by a search, if ever. */
    async searchedAt(raceId: string, certHash: string, userId: number): Promise<number | undefined> {
      const row = await db.get<{ searched_at: number }>(sql`
        SELECT searched_at FROM registration_confirmations
        WHERE race_id = ${raceId} AND cert_hash = ${certHash} AND user_id = ${userId}`);
      return row ? Number(row.searched_at) : undefined;
    },
    /** Records the confirmation (the first one's time stays). */
    async confirm(raceId: string, certHash: string, userId: number, now: number): Promise<void> {
      await db.run(sql`
        UPDATE registration_confirmations SET confirmed_at = ${now}
        WHERE race_id = ${raceId} AND cert_hash = ${certHash} AND user_id = ${userId} AND confirmed_at IS NULL`);
    },
    /** When the registration was first confirmed (by anyone), if it was. */
    async confirmedAt(raceId: string, certHash: string): Promise<number | undefined> {
      const row = await db.get<{ at: number | null }>(sql`
        SELECT min(confirmed_at) AS at FROM registration_confirmations WHERE race_id = ${raceId} AND cert_hash = ${certHash}`);
      return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
    },

    async mailing(raceId: string, userId: number): Promise<MailingRecord | undefined> {
      const row = await db.get<MailingRow>(
        sql`SELECT ${READ_COLUMNS} FROM mailing_choices WHERE race_id = ${raceId} AND user_id = ${userId}`,
      );
      return row ? toMailing(row) : undefined;
    },
    /** A race's mailing choices (the organiser's export), oldest change first. */
    async mailingList(raceId: string): Promise<MailingRecord[]> {
      const rows = await db.all<MailingRow>(
        sql`SELECT ${READ_COLUMNS} FROM mailing_choices WHERE race_id = ${raceId} ORDER BY updated_at, user_id`,
      );
      return rows.map(toMailing);
    },
    /** Saves the choice; false (nothing changed) once the parcel has been shipped. */
    async saveMailing(record: MailingRecord): Promise<boolean> {
      const phoneEnc = record.phone === '' ? '' : cipher.encrypt(record.phone);
      const changed = await db.run(sql`
        INSERT INTO mailing_choices (${MAILING_COLUMNS})
        VALUES (${record.raceId}, ${record.userId}, ${record.method}, ${record.name}, ${phoneEnc},
          ${JSON.stringify(record.region)}, ${record.address}, ${record.updatedAt})
        ON CONFLICT (race_id, user_id) DO UPDATE SET method = excluded.method, name = excluded.name,
          phone_enc = excluded.phone_enc, region_json = excluded.region_json, address = excluded.address,
          updated_at = excluded.updated_at
        WHERE mailing_choices.shipped_at IS NULL`);
      return changed > 0;
    },
    /**
     * Marks a runner's parcel shipped with its carrier and tracking number (the organiser's import). Only a
     * 'mail' choice; the same carrier and number again change nothing (false), a corrected one replaces them and
     * keeps the first shipping time.
     */
    async ship(raceId: string, userId: number, carrier: string, trackingNo: string, now: number): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE mailing_choices SET carrier = ${carrier}, tracking_no = ${trackingNo},
          shipped_at = COALESCE(shipped_at, ${now})
        WHERE race_id = ${raceId} AND user_id = ${userId} AND method = 'mail'
          AND (carrier IS NULL OR tracking_no IS NULL OR shipped_at IS NULL OR carrier <> ${carrier}
            OR tracking_no <> ${trackingNo})`);
      return changed > 0;
    },

    async documents(raceId: string, userId: number): Promise<{ files: string; updatedAt: number } | undefined> {
      const row = await db.get<{ files: string; updated_at: number }>(
        sql`SELECT files, updated_at FROM race_documents WHERE race_id = ${raceId} AND user_id = ${userId}`,
      );
      return row ? { files: row.files, updatedAt: Number(row.updated_at) } : undefined;
    },
    async saveDocuments(raceId: string, userId: number, files: string, now: number): Promise<void> {
      await db.run(sql`
        INSERT INTO race_documents (race_id, user_id, files, updated_at) VALUES (${raceId}, ${userId}, ${files}, ${now})
        ON CONFLICT (race_id, user_id) DO UPDATE SET files = excluded.files, updated_at = excluded.updated_at`);
    },
  };
}

export type RunnerChoicesRepository = ReturnType<typeof createRunnerChoicesRepository>;
