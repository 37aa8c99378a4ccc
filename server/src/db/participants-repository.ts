/**
 * Saved participants (issue 15 §3, migration 14 `participants`): the people an account registers, kept for
 * its next sign-ups. The certificate number, phone and emergency phone are encrypted with the ID-number key
 * (lib/personal-data.ts); cert_hash (the keyed hash of the certificate number, as entries keep it) makes one
 * certificate once per account (UNIQUE (user_id, cert_hash)). Every query is scoped to its account: another
 * account's id reads, updates and deletes nothing.
 */
import type { CertificateType } from '#contract/enums';
import { personalCipher } from '../lib/personal-data.ts';
import { sql, type Db } from './engine.ts';

interface ParticipantRow {
  id: number;
  user_id: number;
  name: string;
  gender: number;
  cert_type: number;
  cert_hash: string;
  cert_enc: string;
  phone_enc: string;
  emergency_name: string;
  emergency_phone_enc: string;
  birthday: string;
  created_at: number;
  updated_at: number;
}

/** A saved participant with its numbers decrypted ('' when this server's key cannot read them). */
export interface ParticipantRecord {
  id: number;
  userId: number;
  name: string;
  gender: 0 | 1 | 2;
  certType: CertificateType;
  certHash: string;
  certNumber: string;
  phone: string;
  emergencyName: string;
  emergencyPhone: string;
  birthday: string;
  createdAt: number;
  updatedAt: number;
}

/** What a save writes. */
export type ParticipantWrite = Omit<ParticipantRecord, 'id' | 'createdAt' | 'updatedAt'>;

const COLUMNS = sql.raw(
  'id, user_id, name, gender, cert_type, cert_hash, cert_enc, phone_enc, emergency_name, emergency_phone_enc, birthday, created_at, updated_at',
);

/** `idNumberKey`: the ID-number secret (lib/secrets.ts), the key of the encrypted columns. */
export function createParticipantsRepository(db: Db, idNumberKey: string) {
  const cipher = personalCipher(idNumberKey);
  const plain = (stored: string) => cipher.decrypt(stored) ?? '';
  const toRecord = (row: ParticipantRow): ParticipantRecord => ({
    id: Number(row.id),
    userId: Number(row.user_id),
    name: row.name,
    gender: Number(row.gender) as 0 | 1 | 2,
    certType: Number(row.cert_type) as CertificateType,
    certHash: row.cert_hash,
    certNumber: plain(row.cert_enc),
    phone: plain(row.phone_enc),
    emergencyName: row.emergency_name,
    emergencyPhone: plain(row.emergency_phone_enc),
    birthday: row.birthday,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });

  return {
    /** The account's saved participants, oldest first. */
    async list(userId: number): Promise<ParticipantRecord[]> {
      const rows = await db.all<ParticipantRow>(
        sql`SELECT ${COLUMNS} FROM participants WHERE user_id = ${userId} ORDER BY id`,
      );
      return rows.map(toRecord);
    },

    /** One of the account's saved participants (undefined for an unknown id or another account's). */
    async find(userId: number, id: number): Promise<ParticipantRecord | undefined> {
      const row = await db.get<ParticipantRow>(
        sql`SELECT ${COLUMNS} FROM participants WHERE id = ${id} AND user_id = ${userId}`,
      );
      return row ? toRecord(row) : undefined;
    },

    async count(userId: number): Promise<number> {
      const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM participants WHERE user_id = ${userId}`);
      return Number(row?.n ?? 0);
    },

    /** The id of the account's participant with this certificate, if any. */
    async idByCert(userId: number, certHash: string): Promise<number | undefined> {
      const row = await db.get<{ id: number }>(
        sql`SELECT id FROM participants WHERE user_id = ${userId} AND cert_hash = ${certHash}`,
      );
      return row ? Number(row.id) : undefined;
    },

    /** Inserts a participant; its id. */
    async insert(input: ParticipantWrite, now: number): Promise<number> {
      const row = await db.get<{ id: number }>(sql`
        INSERT INTO participants (user_id, name, gender, cert_type, cert_hash, cert_enc, phone_enc, emergency_name,
          emergency_phone_enc, birthday, created_at, updated_at)
        VALUES (${input.userId}, ${input.name}, ${input.gender}, ${input.certType}, ${input.certHash},
          ${cipher.encrypt(input.certNumber)}, ${cipher.encrypt(input.phone)}, ${input.emergencyName},
          ${cipher.encrypt(input.emergencyPhone)}, ${input.birthday}, ${now}, ${now})
        RETURNING id`);
      return Number(row!.id);
    },

    /** Replaces the account's participant `id`; false when it is not the account's. */
    async update(id: number, input: ParticipantWrite, now: number): Promise<boolean> {
      const changed = await db.run(sql`
        UPDATE participants SET name = ${input.name}, gender = ${input.gender}, cert_type = ${input.certType},
          cert_hash = ${input.certHash}, cert_enc = ${cipher.encrypt(input.certNumber)},
          phone_enc = ${cipher.encrypt(input.phone)}, emergency_name = ${input.emergencyName},
          emergency_phone_enc = ${cipher.encrypt(input.emergencyPhone)}, birthday = ${input.birthday},
          updated_at = ${now}
        WHERE id = ${id} AND user_id = ${input.userId}`);
      return changed > 0;
    },

    /** Deletes the account's participant `id`; false when it is not the account's. */
    async remove(userId: number, id: number): Promise<boolean> {
      return (await db.run(sql`DELETE FROM participants WHERE id = ${id} AND user_id = ${userId}`)) > 0;
    },
  };
}

export type ParticipantsRepository = ReturnType<typeof createParticipantsRepository>;
