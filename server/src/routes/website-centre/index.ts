/**
 * website-centre: site-config lookup and documents, race binding, race base information (spec §7).
 */
import { pickEncoding } from '../../lib/answer-cache.ts';
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { normalizeDomainName } from '../../lib/domain.ts';
import { envelopeSchema, fail, HttpError, ok } from '../../lib/envelope.ts';
import { raceById } from '../../services/races.ts';
import { documentCache, isDocumentName, raceBinding, siteConfigLookup } from '../../services/website/site-configs.ts';

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
      const found = await siteConfigLookup(app.repos, domainName);
      // Bound but not published is the organiser's next step, not a missing race: say which.
      return typeof found === 'string' ? fail(404, found) : ok(found);
    },
  );

  // Content-addressed documents: the name is the MD5 of the bytes, so they never change.
  app.get<{ Params: { file: string } }>(
    `${API_PATHS.siteConfigFilesPrefix}:file`,
    { schema: { params: { type: 'object', properties: { file: { type: 'string', maxLength: 40 } } } } },
    async (request, reply) => {
      const md5 = /^(.+)\.json$/.exec(request.params.file)?.[1]?.toLowerCase();
      if (md5 === undefined || !isDocumentName(md5)) {
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
      return ok(await raceBinding(app.repos, domainName));
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
      const race = await raceById(app.repos, request.body.raceId);
      if (!race) return fail(404, 'raceNotFound');
      return ok(race);
    },
  );
}
