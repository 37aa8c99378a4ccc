import { sql, type Db } from './engine.ts';

interface SiteConfigRow {
  domain_name: string;
  md5: string;
  byte_length: number;
  published_at: number;
}

export interface PublishedSiteConfig {
  domainName: string;
  md5: string;
  byteLength: number;
  publishedAt: number;
  /** The staff member who published it (the console); absent or null for the command line and the seed. */
  publishedBy?: number | null;
}

/** One publication of a domain, with its publisher's name (null: the command line or the seed). */
export interface SiteConfigVersion extends PublishedSiteConfig {
  id: number;
  publishedBy: number | null;
  publishedByName: string | null;
}

const toRecord = (row: SiteConfigRow): PublishedSiteConfig => ({
  domainName: row.domain_name,
  md5: row.md5,
  byteLength: row.byte_length,
  publishedAt: row.published_at,
});

/** Publications of site-config documents. The latest row of a domain is its current document. */
export function createSiteConfigsRepository(db: Db) {
  return {
    async latestForDomain(domainName: string): Promise<PublishedSiteConfig | undefined> {
      const row = await db.get<SiteConfigRow>(sql`
        SELECT domain_name, md5, byte_length, published_at FROM site_configs
        WHERE domain_name = ${domainName} ORDER BY published_at DESC, id DESC LIMIT 1
      `);
      return row ? toRecord(row) : undefined;
    },

    async listLatest(): Promise<PublishedSiteConfig[]> {
      const rows = await db.all<SiteConfigRow>(sql`
        SELECT domain_name, md5, byte_length, published_at FROM site_configs AS s
        WHERE s.id = (
          SELECT id FROM site_configs WHERE domain_name = s.domain_name ORDER BY published_at DESC, id DESC LIMIT 1
        )
        ORDER BY domain_name
      `);
      return rows.map(toRecord);
    },

    async isPublished(md5: string): Promise<boolean> {
      const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM site_configs WHERE md5 = ${md5}`);
      return (row?.n ?? 0) > 0;
    },

    async record(entry: PublishedSiteConfig): Promise<void> {
      await db.run(sql`
        INSERT INTO site_configs (domain_name, md5, byte_length, published_at, published_by)
        VALUES (${entry.domainName}, ${entry.md5}, ${entry.byteLength}, ${entry.publishedAt}, ${entry.publishedBy ?? null})
      `);
    },

    /** Every publication of a domain, newest first, with who published it. */
    async listForDomain(domainName: string): Promise<SiteConfigVersion[]> {
      const rows = await db.all<
        SiteConfigRow & { id: number; published_by: number | null; published_by_name: string | null }
      >(sql`
        SELECT c.id, c.domain_name, c.md5, c.byte_length, c.published_at, c.published_by, s.name AS published_by_name
        FROM site_configs AS c LEFT JOIN staff AS s ON s.id = c.published_by
        WHERE c.domain_name = ${domainName} ORDER BY c.published_at DESC, c.id DESC
      `);
      return rows.map((row) => ({
        ...toRecord(row),
        id: Number(row.id),
        publishedBy: row.published_by === null ? null : Number(row.published_by),
        publishedByName: row.published_by_name,
      }));
    },
  };
}

export type SiteConfigsRepository = ReturnType<typeof createSiteConfigsRepository>;
