import { sql, type Db } from './engine.ts';

interface SiteDraftRow {
  domain_name: string;
  text: string;
  base_md5: string | null;
  saved_by: number | null;
  saved_at: number;
  saved_by_name: string | null;
}

/** A domain's draft site configuration (issue 33): its text as typed, whether or not it parses. */
export interface SiteDraftRecord {
  domainName: string;
  text: string;
  /** The publication it started from; null for a starter document. */
  baseMd5: string | null;
  /** Who saved it last (a staff member), with their name; null for none. */
  savedBy: number | null;
  savedByName: string | null;
  savedAt: number;
}

const toRecord = (row: SiteDraftRow): SiteDraftRecord => ({
  domainName: row.domain_name,
  text: row.text,
  baseMd5: row.base_md5,
  savedBy: row.saved_by === null ? null : Number(row.saved_by),
  savedByName: row.saved_by_name,
  savedAt: Number(row.saved_at),
});

/** The drafts of site configurations, one per domain. */
export function createSiteDraftsRepository(db: Db) {
  return {
    async find(domainName: string): Promise<SiteDraftRecord | undefined> {
      const row = await db.get<SiteDraftRow>(sql`
        SELECT d.domain_name, d.text, d.base_md5, d.saved_by, d.saved_at, s.name AS saved_by_name
        FROM site_drafts AS d LEFT JOIN staff AS s ON s.id = d.saved_by
        WHERE d.domain_name = ${domainName}
      `);
      return row ? toRecord(row) : undefined;
    },

    /** Writes the draft of a domain (replacing the one it had). */
    async save(draft: Omit<SiteDraftRecord, 'savedByName'>): Promise<void> {
      await db.run(sql`
        INSERT INTO site_drafts (domain_name, text, base_md5, saved_by, saved_at)
        VALUES (${draft.domainName}, ${draft.text}, ${draft.baseMd5}, ${draft.savedBy}, ${draft.savedAt})
        ON CONFLICT (domain_name) DO UPDATE SET
          text = excluded.text, base_md5 = excluded.base_md5, saved_by = excluded.saved_by, saved_at = excluded.saved_at
      `);
    },

    /** Removes the draft of a domain; false when it had none. */
    async remove(domainName: string): Promise<boolean> {
      return (await db.run(sql`DELETE FROM site_drafts WHERE domain_name = ${domainName}`)) > 0;
    },
  };
}

export type SiteDraftsRepository = ReturnType<typeof createSiteDraftsRepository>;
