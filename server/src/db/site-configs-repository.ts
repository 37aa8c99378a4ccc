import type { Database } from 'better-sqlite3';

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
}

const toRecord = (row: SiteConfigRow): PublishedSiteConfig => ({
  domainName: row.domain_name,
  md5: row.md5,
  byteLength: row.byte_length,
  publishedAt: row.published_at,
});

/** Publications of site-config documents. The latest row of a domain is its current document. */
export function createSiteConfigsRepository(db: Database) {
  const latest = db.prepare<[string], SiteConfigRow>(`
    SELECT domain_name, md5, byte_length, published_at FROM site_configs
    WHERE domain_name = ? ORDER BY published_at DESC, id DESC LIMIT 1
  `);
  const latestPerDomain = db.prepare<[], SiteConfigRow>(`
    SELECT domain_name, md5, byte_length, published_at FROM site_configs AS s
    WHERE s.id = (
      SELECT id FROM site_configs WHERE domain_name = s.domain_name ORDER BY published_at DESC, id DESC LIMIT 1
    )
    ORDER BY domain_name
  `);
  const insert = db.prepare<[string, string, number, number]>(
    'INSERT INTO site_configs (domain_name, md5, byte_length, published_at) VALUES (?, ?, ?, ?)',
  );
  const byMd5 = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM site_configs WHERE md5 = ?');

  return {
    latestForDomain(domainName: string): PublishedSiteConfig | undefined {
      const row = latest.get(domainName);
      return row ? toRecord(row) : undefined;
    },

    listLatest(): PublishedSiteConfig[] {
      return latestPerDomain.all().map(toRecord);
    },

    isPublished(md5: string): boolean {
      return (byMd5.get(md5)?.n ?? 0) > 0;
    },

    record(entry: PublishedSiteConfig): void {
      insert.run(entry.domainName, entry.md5, entry.byteLength, entry.publishedAt);
    },
  };
}

export type SiteConfigsRepository = ReturnType<typeof createSiteConfigsRepository>;
