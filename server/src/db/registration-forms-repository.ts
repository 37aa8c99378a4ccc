import type { PublishedForm, RegistrationForm } from '#contract/registration-form';
import { sql, type Db } from './engine.ts';

interface FormRow {
  race_id: string;
  channel: string;
  version: number;
  document_json: string;
  md5: string;
  published_at: number;
}

export type { PublishedForm };

const toRecord = (row: FormRow): PublishedForm => ({
  raceId: row.race_id,
  channel: row.channel,
  version: row.version,
  md5: row.md5,
  publishedAt: row.published_at,
  form: JSON.parse(row.document_json) as RegistrationForm,
});

/**
 * Publications of registration-form documents (contract/registration-form.ts), per race and channel. The
 * highest version of a race and channel is its published form. The documents are checked before they get
 * here (db/registration-form-publisher.ts).
 */
export function createRegistrationFormsRepository(db: Db) {
  return {
    async latest(raceId: string, channel: string): Promise<PublishedForm | undefined> {
      const row = await db.get<FormRow>(sql`
        SELECT race_id, channel, version, document_json, md5, published_at FROM registration_forms
        WHERE race_id = ${raceId} AND channel = ${channel} ORDER BY version DESC LIMIT 1
      `);
      return row ? toRecord(row) : undefined;
    },

    /** Every publication of a race and channel, oldest first (an entry was filled on the one of its time). */
    async versions(raceId: string, channel: string): Promise<PublishedForm[]> {
      const rows = await db.all<FormRow>(sql`
        SELECT race_id, channel, version, document_json, md5, published_at FROM registration_forms
        WHERE race_id = ${raceId} AND channel = ${channel} ORDER BY version
      `);
      return rows.map(toRecord);
    },

    /** The published form of every race and channel, by race and channel. */
    async listLatest(): Promise<Omit<PublishedForm, 'form'>[]> {
      const rows = await db.all<Omit<FormRow, 'document_json'>>(sql`
        SELECT race_id, channel, version, md5, published_at FROM registration_forms AS f
        WHERE f.version = (
          SELECT max(version) FROM registration_forms WHERE race_id = f.race_id AND channel = f.channel
        )
        ORDER BY race_id, channel
      `);
      return rows.map((row) => ({
        raceId: row.race_id,
        channel: row.channel,
        version: row.version,
        md5: row.md5,
        publishedAt: row.published_at,
      }));
    },

    async count(): Promise<number> {
      return (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM registration_forms`))?.n ?? 0;
    },

    /**
     * Records a publication with the next version of its race and channel; the same document as the published
     * one (same md5) is not recorded again. Two publications at once get different versions.
     */
    async publish(entry: {
      raceId: string;
      channel: string;
      documentJson: string;
      md5: string;
      now: number;
    }): Promise<{ version: number; unchanged: boolean }> {
      return db.transaction(async (tx) => {
        await tx.lock(`registration-form\n${entry.raceId}\n${entry.channel}`);
        const last = await tx.get<{ version: number; md5: string }>(sql`
          SELECT version, md5 FROM registration_forms
          WHERE race_id = ${entry.raceId} AND channel = ${entry.channel} ORDER BY version DESC LIMIT 1
        `);
        if (last?.md5 === entry.md5) return { version: last.version, unchanged: true };
        const version = (last?.version ?? 0) + 1;
        await tx.run(sql`
          INSERT INTO registration_forms (race_id, channel, version, document_json, md5, published_at)
          VALUES (${entry.raceId}, ${entry.channel}, ${version}, ${entry.documentJson}, ${entry.md5}, ${entry.now})
        `);
        return { version, unchanged: false };
      });
    },
  };
}

export type RegistrationFormsRepository = ReturnType<typeof createRegistrationFormsRepository>;
