/**
 * The electronic commitment letter (issue 15 §1, migration 14): the text of each letter version once signed
 * (letter_versions, written once per race and hash) and the signatures (letter_signatures). Signatures are
 * append-only: rows are only ever inserted (the tables' triggers refuse UPDATE and DELETE on both engines);
 * a later signature of an entry is a new row and the newest counts. Co-signers' details are kept as JSON
 * encrypted with the ID-number key (lib/personal-data.ts).
 */
import type { Cosigner } from '#contract/after-entry';
import { personalCipher } from '../lib/personal-data.ts';
import { sql, type Db } from './engine.ts';

interface SignatureRow {
  id: number;
  race_id: string;
  entry_id: number;
  user_id: number;
  version_hash: string;
  signer_name: string;
  accepted: string;
  guardian_enc: string | null;
  relative_enc: string | null;
  ip: string;
  user_agent: string;
  signed_at: number;
}

export interface LetterSignatureRecord {
  id: number;
  raceId: string;
  entryId: number;
  userId: number;
  versionHash: string;
  signerName: string;
  accepted: number[];
  /** Decrypted (null when absent or when this server's key cannot read it). */
  guardian: Cosigner | null;
  relative: Cosigner | null;
  ip: string;
  userAgent: string;
  signedAt: number;
}

export type LetterSignatureInsert = Omit<LetterSignatureRecord, 'id'>;

const COLUMNS = sql.raw(
  'id, race_id, entry_id, user_id, version_hash, signer_name, accepted, guardian_enc, relative_enc, ip, user_agent, signed_at',
);

/** `idNumberKey`: the ID-number secret (lib/secrets.ts), the key of the encrypted co-signers. */
export function createLettersRepository(db: Db, idNumberKey: string) {
  const cipher = personalCipher(idNumberKey);
  const readCosigner = (stored: string | null): Cosigner | null => {
    if (stored === null) return null;
    const plain = cipher.decrypt(stored);
    if (plain === undefined) return null;
    try {
      return JSON.parse(plain) as Cosigner;
    } catch {
      return null;
    }
  };
  const toSignature = (row: SignatureRow): LetterSignatureRecord => ({
    id: Number(row.id),
    raceId: row.race_id,
    entryId: Number(row.entry_id),
    userId: Number(row.user_id),
    versionHash: row.version_hash,
    signerName: row.signer_name,
    accepted: JSON.parse(row.accepted) as number[],
    guardian: readCosigner(row.guardian_enc),
    relative: readCosigner(row.relative_enc),
    ip: row.ip,
    userAgent: row.user_agent,
    signedAt: Number(row.signed_at),
  });
  /** The newest signature of each entry among rows ordered newest first per entry. */
  const newestPerEntry = (rows: SignatureRow[]) => {
    const map = new Map<number, LetterSignatureRecord>();
    for (const row of rows) {
      const id = Number(row.entry_id);
      if (!map.has(id)) map.set(id, toSignature(row));
    }
    return map;
  };

  return {
    /** Keeps the text of a letter version the first time it is signed (later calls change nothing). */
    async recordVersion(raceId: string, versionHash: string, textJson: string, now: number): Promise<void> {
      await db.run(sql`
        INSERT INTO letter_versions (race_id, version_hash, text_json, first_signed_at)
        VALUES (${raceId}, ${versionHash}, ${textJson}, ${now})
        ON CONFLICT (race_id, version_hash) DO NOTHING`);
    },

    /** The stored text of a version (letterVersionText), if it was ever signed. */
    async versionText(raceId: string, versionHash: string): Promise<string | undefined> {
      const row = await db.get<{ text_json: string }>(sql`
        SELECT text_json FROM letter_versions WHERE race_id = ${raceId} AND version_hash = ${versionHash}`);
      return row?.text_json;
    },

    /** Appends a signature; its id. */
    async insertSignature(input: LetterSignatureInsert): Promise<number> {
      const enc = (c: Cosigner | null) => (c ? cipher.encrypt(JSON.stringify(c)) : null);
      const row = await db.get<{ id: number }>(sql`
        INSERT INTO letter_signatures
          (race_id, entry_id, user_id, version_hash, signer_name, accepted, guardian_enc, relative_enc, ip,
           user_agent, signed_at)
        VALUES (${input.raceId}, ${input.entryId}, ${input.userId}, ${input.versionHash}, ${input.signerName},
          ${JSON.stringify(input.accepted)}, ${enc(input.guardian)}, ${enc(input.relative)}, ${input.ip},
          ${input.userAgent}, ${input.signedAt})
        RETURNING id`);
      return Number(row!.id);
    },

    /** The newest signature of each of these entries (entries never signed are absent). */
    async newestOf(entryIds: number[]): Promise<Map<number, LetterSignatureRecord>> {
      if (entryIds.length === 0) return new Map();
      return newestPerEntry(
        await db.all<SignatureRow>(sql`
          SELECT ${COLUMNS} FROM letter_signatures WHERE entry_id IN (${sql.join(entryIds)})
          ORDER BY entry_id, signed_at DESC, id DESC`),
      );
    },

    /** The newest signature of each entry of a race. */
    async newestOfRace(raceId: string): Promise<Map<number, LetterSignatureRecord>> {
      return newestPerEntry(
        await db.all<SignatureRow>(sql`
          SELECT ${COLUMNS} FROM letter_signatures WHERE race_id = ${raceId}
          ORDER BY entry_id, signed_at DESC, id DESC`),
      );
    },

    /** Every signature of an entry, oldest first (the record). */
    async allOf(entryId: number): Promise<LetterSignatureRecord[]> {
      const rows = await db.all<SignatureRow>(sql`
        SELECT ${COLUMNS} FROM letter_signatures WHERE entry_id = ${entryId} ORDER BY signed_at, id`);
      return rows.map(toSignature);
    },
  };
}

export type LettersRepository = ReturnType<typeof createLettersRepository>;
