/**
 * website-centre: site-config lookup and documents, race binding, race base information (spec §7).
 */
import { pickEncoding } from '../../lib/answer-cache.ts';
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { RaceBinding, RaceInfo, SiteConfigLookup } from '#contract/site-config/race-types';
import { MD5_PATTERN, siteConfigUri } from '../../db/site-config-publisher.ts';
import { normalizeDomainName } from '../../lib/domain.ts';
import { envelopeSchema, fail, HttpError, ok } from '../../lib/envelope.ts';
import { siteConfigBrotliKey, siteConfigKey, type FileStore } from '../../lib/file-store.ts';

const domainQuery = {
  type: 'object',
  required: ['domainName'],
  properties: { domainName: { type: 'string', minLength: 1, maxLength: 260 } },
} as const;

function domainFrom(query: { domainName: string }): string {
  const domainName = normalizeDomainName(query.domainName);
  if (domainName === null) throw new HttpError(400, 'badDomainName');
  return domainName;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

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
function documentCache(files: FileStore) {
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

export default async function websiteCentreRoutes(app: FastifyInstance) {
  const publishedDocument = documentCache(app.files);

  app.get<{ Querystring: { domainName: string } }>(
    API_PATHS.siteConfigLookup,
    {
      schema: {
        querystring: domainQuery,
        response: {
          200: envelopeSchema({
            type: 'object',
            required: ['domainName', 'fileMd5', 'uri'],
            properties: { domainName: { type: 'string' }, fileMd5: { type: 'string' }, uri: { type: 'string' } },
          }),
        },
      },
    },
    async (request, reply) => {
      const domainName = domainFrom(request.query);
      reply.header('cache-control', 'no-cache');
      const published = await app.repos.siteConfigs.latestForDomain(domainName);
      if (!published) {
        // Bound but not published is the organiser's next step, not a missing race: say which.
        const bound = await app.repos.bindings.findByDomain(domainName);
        return fail(404, bound ? 'unpublishedConfig' : 'unboundRace');
      }
      const data: SiteConfigLookup = { domainName, fileMd5: published.md5, uri: siteConfigUri(published.md5) };
      return ok(data);
    },
  );

  // Content-addressed documents: the name is the MD5 of the bytes, so they never change.
  app.get<{ Params: { file: string } }>(
    `${API_PATHS.siteConfigFilesPrefix}:file`,
    { schema: { params: { type: 'object', properties: { file: { type: 'string', maxLength: 40 } } } } },
    async (request, reply) => {
      const md5 = /^(.+)\.json$/.exec(request.params.file)?.[1]?.toLowerCase();
      if (md5 === undefined || !MD5_PATTERN.test(md5)) {
        throw new HttpError(404, 'siteConfigNameMissing');
      }
      const document = await publishedDocument(md5);
      if (document === undefined) throw new HttpError(404, 'siteConfigNameMissing');
      const etag = `"${md5}"`;
      reply.header('cache-control', IMMUTABLE).header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      void reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      // The publisher's brotli copy, for browsers that take it; others get gzip from the compress plugin.
      const accepted = request.headers['accept-encoding'];
      if (document.br !== undefined && typeof accepted === 'string' && pickEncoding(accepted) === 'br') {
        return reply.header('content-encoding', 'br').send(document.br);
      }
      return reply.send(document.json);
    },
  );

  app.get<{ Querystring: { domainName: string } }>(
    API_PATHS.raceByDomain,
    {
      schema: {
        querystring: domainQuery,
        response: {
          200: envelopeSchema({
            type: 'object',
            required: ['raceId', 'domainName'],
            properties: { raceId: { type: 'string' }, domainName: { type: 'string' } },
          }),
        },
      },
    },
    async (request, reply) => {
      const domainName = domainFrom(request.query);
      reply.header('cache-control', 'no-cache');
      const binding = await app.repos.bindings.findByDomain(domainName);
      const data: RaceBinding | null = binding ? { raceId: binding.raceId, domainName } : null;
      return ok(data);
    },
  );

  app.post<{ Body: { raceId: string } }>(
    API_PATHS.raceBaseInfo,
    {
      schema: {
        body: {
          type: 'object',
          required: ['raceId'],
          properties: { raceId: { type: 'string', minLength: 1, maxLength: 64 } },
        },
        response: {
          200: envelopeSchema({
            type: 'object',
            required: ['raceId', 'raceName'],
            additionalProperties: true,
            properties: { raceId: { type: 'string' }, raceName: { type: 'string' } },
          }),
        },
      },
    },
    async (request) => {
      const race: RaceInfo | undefined = await app.repos.races.findById(request.body.raceId);
      if (!race) return fail(404, 'raceNotFound');
      return ok(race);
    },
  );
}
