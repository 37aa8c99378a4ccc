/**
 * What the website-centre answers from the published site configs and the domain bindings (spec §7; the
 * organiser publishes with `site config-publish`, db/site-config-publisher.ts). The routes:
 * routes/website-centre.
 */
import type { RaceBinding, SiteConfigLookup } from '#contract/site-config/race-types';
import type { Repositories } from '../../db/repositories.ts';
import { MD5_PATTERN, siteConfigUri } from '../../db/site-config-publisher.ts';
import { siteConfigBrotliKey, siteConfigKey, type FileStore } from '../../lib/file-store.ts';

/** Whether `md5` can name a published document (32 lower-case hex digits). */
export const isDocumentName = (md5: string) => MD5_PATTERN.test(md5);

/**
 * The published site config of a domain, or why there is none: 'unpublishedConfig' when the domain is bound
 * to a race that has not published one (the organiser's next step), 'unboundRace' when it is bound to none.
 */
export async function siteConfigLookup(
  repos: Repositories,
  domainName: string,
): Promise<SiteConfigLookup | 'unpublishedConfig' | 'unboundRace'> {
  const published = await repos.siteConfigs.latestForDomain(domainName);
  if (!published) return (await repos.bindings.findByDomain(domainName)) ? 'unpublishedConfig' : 'unboundRace';
  return { domainName, fileMd5: published.md5, uri: siteConfigUri(published.md5) };
}

/** The race a domain is bound to, or null. */
export async function raceBinding(repos: Repositories, domainName: string): Promise<RaceBinding | null> {
  const binding = await repos.bindings.findByDomain(domainName);
  return binding ? { raceId: binding.raceId, domainName } : null;
}

/** A published document's bytes and its brotli copy (when the publisher made one). */
interface StoredDocument {
  json: Buffer;
  br: Buffer | undefined;
}

/** Bytes of documents kept in memory: each is read from the file store once, then served from here. */
const DOCUMENT_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The published documents recently served, least recently served first out past DOCUMENT_CACHE_BYTES. They
 * are content-addressed (the name is the MD5 of the bytes), so a kept copy is never stale; this spares the
 * database store (and the disk) a read per visitor. Documents not found are not remembered (another instance
 * may publish one a moment later), nor documents read before their brotli copy was stored.
 */
export function documentCache(files: FileStore) {
  const kept = new Map<string, StoredDocument>();
  let keptBytes = 0;
  return async (md5: string): Promise<StoredDocument | undefined> => {
    const hit = kept.get(md5);
    if (hit !== undefined) {
      kept.delete(md5);
      kept.set(md5, hit);
      return hit;
    }
    const json = await files.get(siteConfigKey(md5));
    if (json === undefined) return undefined;
    const document = { json, br: await files.get(siteConfigBrotliKey(md5)) };
    const size = json.length + (document.br?.length ?? 0);
    if (document.br !== undefined && !kept.has(md5) && size <= DOCUMENT_CACHE_BYTES) {
      kept.set(md5, document);
      keptBytes += size;
      for (const [oldest, old] of kept) {
        if (keptBytes <= DOCUMENT_CACHE_BYTES) break;
        kept.delete(oldest);
        keptBytes -= old.json.length + (old.br?.length ?? 0);
      }
    }
    return document;
  };
}
