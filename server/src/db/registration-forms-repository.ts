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

interface HistoryRow {
  version: number;
  md5: string;
  published_at: number;
  published_by: number | null;
  staff_name: string | null;
  staff_email: string | null;
}

interface DraftRow {
  race_id: string;
  channel: string;
  document_text: string;
  saved_by: number | null;
  saved_at: number;
  staff_name: string | null;
  staff_email: string | null;
}

/** Who did it: a staff member, or null for the command line. */
export type FormActorRecord = { staffId: number; name: string; email: string } | null;

export interface FormVersionRecord {
  version: number;
  md5: string;
  publishedAt: number;
  publishedBy: FormActorRecord;
}

export interface FormDraftRecord {
  raceId: string;
  channel: string;
  text: string;
  savedAt: number;
  savedBy: FormActorRecord;
}

const toDraft = (row: DraftRow): FormDraftRecord => ({
  raceId: row.race_id,
  channel: row.channel,
  text: row.document_text,
  savedAt: Number(row.saved_at),
  savedBy:
    row.saved_by === null
      ? null
      : { staffId: Number(row.saved_by), name: row.staff_name ?? '', email: row.staff_email ?? '' },
});

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
      /** The staff member who published it from the console; absent (null) for the CLI and the seed. */
      publishedBy?: number | null;
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
          INSERT INTO registration_forms (race_id, channel, version, document_json, md5, published_at, published_by)
          VALUES (${entry.raceId}, ${entry.channel}, ${version}, ${entry.documentJson}, ${entry.md5}, ${entry.now},
                  ${entry.publishedBy ?? null})
        `);
        return { version, unchanged: false };
      });
    },

    /** Every publication of a race and channel, newest first, with who published it (null: the CLI). */
    async history(raceId: string, channel: string): Promise<FormVersionRecord[]> {
      const rows = await db.all<HistoryRow>(sql`
        SELECT f.version, f.md5, f.published_at, f.published_by, s.name AS staff_name, s.email AS staff_email
        FROM registration_forms AS f LEFT JOIN staff AS s ON s.id = f.published_by
        WHERE f.race_id = ${raceId} AND f.channel = ${channel} ORDER BY f.version DESC
      `);
      return rows.map((row) => ({
        version: Number(row.version),
        md5: row.md5,
        publishedAt: Number(row.published_at),
        publishedBy:
          row.published_by === null
            ? null
            : { staffId: Number(row.published_by), name: row.staff_name ?? '', email: row.staff_email ?? '' },
      }));
    },

    /** The console's draft of a race and channel (as typed), or undefined. */
    async draft(raceId: string, channel: string): Promise<FormDraftRecord | undefined> {
      const row = await db.get<DraftRow>(sql`
        SELECT d.race_id, d.channel, d.document_text, d.saved_by, d.saved_at, s.name AS staff_name, s.email AS staff_email
        FROM registration_form_drafts AS d LEFT JOIN staff AS s ON s.id = d.saved_by
        WHERE d.race_id = ${raceId} AND d.channel = ${channel}
      `);
      return row ? toDraft(row) : undefined;
    },

    /** The drafts of a race, by channel. */
    async drafts(raceId: string): Promise<FormDraftRecord[]> {
      const rows = await db.all<DraftRow>(sql`
        SELECT d.race_id, d.channel, d.document_text, d.saved_by, d.saved_at, s.name AS staff_name, s.email AS staff_email
        FROM registration_form_drafts AS d LEFT JOIN staff AS s ON s.id = d.saved_by
        WHERE d.race_id = ${raceId} ORDER BY d.channel
      `);
      return rows.map(toDraft);
    },

    /** Keeps the draft of a race and channel as typed (replacing the one before). */
    async saveDraft(entry: {
      raceId: string;
      channel: string;
      text: string;
      savedBy: number | null;
      now: number;
    }): Promise<void> {
      await db.run(sql`
        INSERT INTO registration_form_drafts (race_id, channel, document_text, saved_by, saved_at)
        VALUES (${entry.raceId}, ${entry.channel}, ${entry.text}, ${entry.savedBy}, ${entry.now})
        ON CONFLICT (race_id, channel) DO UPDATE
        SET document_text = excluded.document_text, saved_by = excluded.saved_by, saved_at = excluded.saved_at
      `);
    },

    /** Drops the draft of a race and channel (it was published). */
    async removeDraft(raceId: string, channel: string): Promise<void> {
      await db.run(sql`DELETE FROM registration_form_drafts WHERE race_id = ${raceId} AND channel = ${channel}`);
    },
  };
}

export type RegistrationFormsRepository = ReturnType<typeof createRegistrationFormsRepository>;
