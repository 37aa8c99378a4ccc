/**
 * The console's site page (issue 33 §2), for staff with 'site' (owner, service): the race's bound domains, the
 * draft of one (read, save, check, publish, discard), its versions (list, text, roll back). Every call names a
 * domain bound to the race in the address, else it is refused (siteDomainNotBound); a member limited to other
 * races is refused. The public SPA's preview of a draft (contract/preview.ts) knows only the domain: it reads
 * `/site-preview?domain=` with the staff member's session cookie, checked against the domain's race. Registered
 * inside the console's session scope (routes/admin/index.ts); each change is in the audit log
 * (services/website/site-drafts.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SITE_PREVIEW_PATH } from '#contract/preview';
import { DOCUMENT_LIMITS } from '#contract/site-config/document-limits';
import { fail, ok } from '../../lib/envelope.ts';
import type { ConsoleRouteHelpers } from './scope.ts';
import {
  checkSiteDraftText,
  discardSiteDraft,
  publishSiteDraft,
  raceSiteDomains,
  readSiteDraft,
  rollbackSite,
  saveSiteDraft,
  siteDomainRace,
  siteVersions,
  siteVersionText,
  type SiteOutcome,
} from '../../services/website/site-drafts.ts';

const raceParams = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const domainProperty = { type: 'string', minLength: 1, maxLength: 253 } as const;
const md5Property = { type: 'string', pattern: '^[0-9a-f]{32}$' } as const;
/** Room past the size limit, so that a draft a little too large gets siteDraftTooLarge (with its size). */
const TEXT_MAX = DOCUMENT_LIMITS.maxBytes * 2;
/** The text in JSON: quotes, backslashes and control characters escaped. */
const BODY_LIMIT = DOCUMENT_LIMITS.maxBytes * 4 + 4096;
const textProperty = { type: 'string', maxLength: TEXT_MAX } as const;

const domainQuery = { type: 'object', required: ['domain'], properties: { domain: domainProperty } } as const;
const versionQuery = {
  type: 'object',
  required: ['domain', 'md5'],
  properties: { domain: domainProperty, md5: md5Property },
} as const;
const saveBody = {
  type: 'object',
  required: ['domain', 'text'],
  properties: {
    domain: domainProperty,
    text: textProperty,
    baseMd5: { anyOf: [md5Property, { type: 'null' }] },
  },
} as const;
const checkBody = { type: 'object', required: ['text'], properties: { text: textProperty } } as const;
const domainBody = { type: 'object', required: ['domain'], properties: { domain: domainProperty } } as const;
const rollbackBody = {
  type: 'object',
  required: ['domain', 'md5'],
  properties: { domain: domainProperty, md5: md5Property },
} as const;

/** The answer of an outcome; a refused publication carries the validator's report as its data. */
const answer = <T>(outcome: SiteOutcome<T>) => {
  if (outcome.ok) return ok(outcome.value);
  const refusal = fail(outcome.status, outcome.code, outcome.params);
  return outcome.report ? { ...refusal, data: outcome.report } : refusal;
};

/** Drafts are never cached: each read is the latest. */
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

type RaceRequest = { Params: { raceId: string } };

export function siteRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, actor, refused } = helpers;
  const deps = () => ({ repos: app.repos, files: app.files, now: () => app.config.now() });
  const base = `${prefix}/races/:raceId/site`;

  scope.get<RaceRequest>(base, { schema: { params: raceParams } }, async (request) => {
    const { raceId } = request.params;
    return refused(request, 'site', raceId) ?? ok({ domains: await raceSiteDomains(app.repos, raceId) });
  });

  scope.get<RaceRequest & { Querystring: { domain: string } }>(
    `${base}/draft`,
    { schema: { params: raceParams, querystring: domainQuery } },
    async (request, reply) => {
      noStore(reply);
      const { raceId } = request.params;
      return (
        refused(request, 'site', raceId) ??
        answer(await readSiteDraft(deps(), { raceId, domain: request.query.domain }))
      );
    },
  );

  scope.post<RaceRequest & { Body: { domain: string; text: string; baseMd5?: string | null } }>(
    `${base}/draft`,
    { schema: { params: raceParams, body: saveBody }, bodyLimit: BODY_LIMIT },
    async (request) => {
      const { raceId } = request.params;
      const { domain, text, baseMd5 = null } = request.body;
      return (
        refused(request, 'site', raceId) ??
        answer(await saveSiteDraft(deps(), { raceId, domain, text, baseMd5, actor: actor(request) }))
      );
    },
  );

  scope.post<RaceRequest & { Body: { text: string } }>(
    `${base}/check`,
    { schema: { params: raceParams, body: checkBody }, bodyLimit: BODY_LIMIT },
    async (request) => refused(request, 'site', request.params.raceId) ?? ok(checkSiteDraftText(request.body.text)),
  );

  scope.post<RaceRequest & { Body: { domain: string } }>(
    `${base}/publish`,
    { schema: { params: raceParams, body: domainBody } },
    async (request) => {
      const { raceId } = request.params;
      return (
        refused(request, 'site', raceId) ??
        answer(await publishSiteDraft(deps(), { raceId, domain: request.body.domain, actor: actor(request) }))
      );
    },
  );

  scope.post<RaceRequest & { Body: { domain: string } }>(
    `${base}/discard`,
    { schema: { params: raceParams, body: domainBody } },
    async (request) => {
      const { raceId } = request.params;
      return (
        refused(request, 'site', raceId) ??
        answer(await discardSiteDraft(deps(), { raceId, domain: request.body.domain, actor: actor(request) }))
      );
    },
  );

  scope.get<RaceRequest & { Querystring: { domain: string } }>(
    `${base}/versions`,
    { schema: { params: raceParams, querystring: domainQuery } },
    async (request) => {
      const { raceId } = request.params;
      return (
        refused(request, 'site', raceId) ?? answer(await siteVersions(deps(), { raceId, domain: request.query.domain }))
      );
    },
  );

  scope.get<RaceRequest & { Querystring: { domain: string; md5: string } }>(
    `${base}/version`,
    { schema: { params: raceParams, querystring: versionQuery } },
    async (request) => {
      const { raceId } = request.params;
      return refused(request, 'site', raceId) ?? answer(await siteVersionText(deps(), { raceId, ...request.query }));
    },
  );

  scope.post<RaceRequest & { Body: { domain: string; md5: string } }>(
    `${base}/rollback`,
    { schema: { params: raceParams, body: rollbackBody } },
    async (request) => {
      const { raceId } = request.params;
      return (
        refused(request, 'site', raceId) ??
        answer(await rollbackSite(deps(), { raceId, ...request.body, actor: actor(request) }))
      );
    },
  );

  // The public SPA's preview of a draft (contract/preview.ts): by domain, with the member's session cookie.
  scope.get<{ Querystring: { domain: string } }>(
    SITE_PREVIEW_PATH,
    { schema: { querystring: domainQuery } },
    async (request, reply) => {
      noStore(reply);
      const { domain } = request.query;
      const raceId = await siteDomainRace(app.repos, domain);
      if (raceId === undefined) return refused(request, 'site') ?? fail(404, 'siteDomainNotBound', { domain });
      return refused(request, 'site', raceId) ?? answer(await readSiteDraft(deps(), { raceId, domain }));
    },
  );
}
