/**
 * Direct-pass qualification applications (issue 13 §4 /direct, migration 11): one per account and race; once
 * submitted also one per certificate number and race (cert_hash, the keyed hash of lib/race-center.ts, set on
 * submission). The form's values are kept as JSON encrypted with the ID-number key (lib/personal-data.ts); the
 * applicant's name stays readable for the organiser's list. The clothing sizes of an application are kept
 * beside it (direct_application_sizes) so that a size's stock is counted in SQL.
 */
import type { DirectStatus } from '#contract/registration-screens';
import { personalCipher } from '../lib/personal-data.ts';
import { sql, type Db } from './engine.ts';

interface ApplicationRow {
  id: number;
  race_id: string;
  user_id: number;
  status: number;
  name: string;
  cert_hash: string | null;
  values_enc: string;
  created_at: number;
  updated_at: number;
  submitted_at: number | null;
  reviewed_at: number | null;
  reject_reason: string | null;
}

export interface DirectApplicationRecord {
  id: number;
  raceId: string;
  userId: number;
  status: DirectStatus;
  name: string;
  certHash: string | null;
  /** The decrypted values ({} when they cannot be read with this server's key). */
  values: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  submittedAt: number | null;
  reviewedAt: number | null;
  rejectReason: string | null;
}

/** What a save writes: the values, and on submission the certificate hash and the sizes. */
export interface DirectApplicationWrite {
  raceId: string;
  userId: number;
  status: DirectStatus;
  name: string;
  certHash: string | null;
  values: Record<string, unknown>;
  /** field key → size code (counted against the stock while the application is submitted or approved). */
  sizes: Record<string, string>;
  submittedAt: number | null;
  now: number;
}

const COLUMNS = sql.raw(
  'id, race_id, user_id, status, name, cert_hash, values_enc, created_at, updated_at, submitted_at, reviewed_at, reject_reason',
);

/** The statuses whose sizes count against the stock. */
const HOLDING_STOCK = [1, 2] as const;

/** `idNumberKey`: the ID-number secret (lib/secrets.ts), the key of the encrypted values. */
export function createDirectApplicationsRepository(db: Db, idNumberKey: string) {
  const cipher = personalCipher(idNumberKey);
  const toRecord = (row: ApplicationRow): DirectApplicationRecord => {
    const plain = cipher.decrypt(row.values_enc);
    let values: Record<string, unknown> = {};
    try {
      values = plain === undefined ? {} : (JSON.parse(plain) as Record<string, unknown>);
    } catch {
      values = {};
    }
    return {
      id: Number(row.id),
      raceId: row.race_id,
      userId: Number(row.user_id),
      status: Number(row.status) as DirectStatus,
      name: row.name,
      certHash: row.cert_hash,
      values,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      submittedAt: row.submitted_at === null ? null : Number(row.submitted_at),
      reviewedAt: row.reviewed_at === null ? null : Number(row.reviewed_at),
      rejectReason: row.reject_reason,
    };
  };
  const one = async (query: Parameters<Db['get']>[0]) => {
    const row = await db.get<ApplicationRow>(query);
    return row ? toRecord(row) : undefined;
  };

  return {
    findById: (id: number) => one(sql`SELECT ${COLUMNS} FROM direct_applications WHERE id = ${id}`),
    findForUser: (raceId: string, userId: number) =>
      one(sql`SELECT ${COLUMNS} FROM direct_applications WHERE race_id = ${raceId} AND user_id = ${userId}`),
    /** The application that holds a certificate number in a race (submitted once), if any. */
    findByCert: (raceId: string, certHash: string) =>
      one(sql`SELECT ${COLUMNS} FROM direct_applications WHERE race_id = ${raceId} AND cert_hash = ${certHash}`),

    /** A race's applications, oldest first; one status only when given. */
    async list(raceId: string, status?: DirectStatus): Promise<DirectApplicationRecord[]> {
      const rows =
        status === undefined
          ? await db.all<ApplicationRow>(
              sql`SELECT ${COLUMNS} FROM direct_applications WHERE race_id = ${raceId} ORDER BY id`,
            )
          : await db.all<ApplicationRow>(
              sql`SELECT ${COLUMNS} FROM direct_applications WHERE race_id = ${raceId} AND status = ${status} ORDER BY id`,
            );
      return rows.map(toRecord);
    },

    /** Pieces of each size taken in a race: `${fieldKey}\u0000${sizeCode}` → count (submitted and approved). */
    async sizesTaken(raceId: string): Promise<Map<string, number>> {
      const rows = await db.all<{ field_key: string; size_code: string; n: number }>(sql`
        SELECT s.field_key, s.size_code, count(*) AS n
        FROM direct_application_sizes s JOIN direct_applications a ON a.id = s.application_id
        WHERE a.race_id = ${raceId} AND a.status IN (${sql.join([...HOLDING_STOCK])})
        GROUP BY s.field_key, s.size_code`);
      return new Map(rows.map((r) => [sizeKey(r.field_key, r.size_code), Number(r.n)]));
    },

    /** Inserts or replaces the account's application of a race (call inside a transaction holding the race's lock). */
    async save(input: DirectApplicationWrite): Promise<number> {
      const valuesEnc = cipher.encrypt(JSON.stringify(input.values));
      const existing = await db.get<{ id: number }>(
        sql`SELECT id FROM direct_applications WHERE race_id = ${input.raceId} AND user_id = ${input.userId}`,
      );
      let id: number;
      if (existing) {
        id = Number(existing.id);
        // A submission starts a new review: the last one's time and reason go.
        const review = input.status === 1 ? sql`, reviewed_at = NULL, reject_reason = NULL` : sql``;
        await db.run(sql`
          UPDATE direct_applications SET status = ${input.status}, name = ${input.name}, cert_hash = ${input.certHash},
            values_enc = ${valuesEnc}, updated_at = ${input.now}, submitted_at = ${input.submittedAt}${review}
          WHERE id = ${id}`);
      } else {
        const row = await db.get<{ id: number }>(sql`
          INSERT INTO direct_applications (race_id, user_id, status, name, cert_hash, values_enc, created_at, updated_at, submitted_at)
          VALUES (${input.raceId}, ${input.userId}, ${input.status}, ${input.name}, ${input.certHash}, ${valuesEnc},
            ${input.now}, ${input.now}, ${input.submittedAt})
          RETURNING id`);
        id = Number(row!.id);
      }
      await db.run(sql`DELETE FROM direct_application_sizes WHERE application_id = ${id}`);
      for (const [fieldKey, sizeCode] of Object.entries(input.sizes)) {
        await db.run(
          sql`INSERT INTO direct_application_sizes (application_id, field_key, size_code) VALUES (${id}, ${fieldKey}, ${sizeCode})`,
        );
      }
      return id;
    },

    /**
     * The organiser's review of a submitted application: approved (2) or rejected (3) with a reason. False when
     * the application is not awaiting review (status 1).
     */
    async review(id: number, outcome: { status: 2 } | { status: 3; reason: string }, now: number): Promise<boolean> {
      const reason = outcome.status === 3 ? outcome.reason : null;
      const changed = await db.run(sql`
        UPDATE direct_applications SET status = ${outcome.status}, reviewed_at = ${now}, reject_reason = ${reason},
          updated_at = ${now}
        WHERE id = ${id} AND status = 1`);
      return changed > 0;
    },
  };
}

export const sizeKey = (fieldKey: string, sizeCode: string) => `${fieldKey}\u0000${sizeCode}`;

export type DirectApplicationsRepository = ReturnType<typeof createDirectApplicationsRepository>;
