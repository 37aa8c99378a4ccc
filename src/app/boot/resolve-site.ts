/**
 * Resolves what this host shows (spec §1 start-up, §7): the race bound to the domain and its base info,
 * and the site configuration document (lookup → uri → document). No binding, or a failure on the way,
 * falls back to preview mode with the preview configuration.
 */
import { API_PATHS } from '#contract/api';
import { ApiError, apiRequest, checkDocument, checkEnvelope, fetchDocument } from '@/lib/api-client';
import type { ConfigProblem, SiteConfig } from '#contract/site-config/schema';
import type { RaceBinding, RaceInfo, SiteConfigLookup } from '#contract/site-config/race-types';
import { previewConfig } from './preview-config';
import type { PreviewReason } from '@/stores/site-store';
import { earlyOr } from './early-fetch';

export type ResolvedSite =
  | { mode: 'bound'; binding: RaceBinding; race: RaceInfo | null; config: SiteConfig; problems: ConfigProblem[] }
  | { mode: 'preview'; reason: PreviewReason; config: SiteConfig; problems: ConfigProblem[] };

export async function fetchRaceBinding(domainName: string): Promise<RaceBinding | null> {
  const body = await earlyOr('binding', domainName, checkEnvelope<RaceBinding | null>, () =>
    apiRequest<RaceBinding | null>({ url: API_PATHS.raceByDomain, params: { domainName }, silent: true }),
  );
  const data = body.data;
  return data && typeof data.raceId === 'string' && data.raceId ? data : null;
}

export async function fetchSiteConfig(domainName: string): Promise<unknown> {
  return earlyOr('document', domainName, checkDocument<unknown>, () => requestSiteConfig(domainName));
}

async function requestSiteConfig(domainName: string): Promise<unknown> {
  const { data } = await apiRequest<SiteConfigLookup>({
    url: API_PATHS.siteConfigLookup,
    params: { domainName },
    silent: true,
  });
  if (!data || typeof data.uri !== 'string' || !data.uri) throw new Error('res.data空了');
  // The md5 makes the document's URL change with its content, so caches never serve a stale one.
  return fetchDocument<unknown>({ url: data.uri, params: { md5: data.fileMd5 }, silent: true });
}

export async function fetchRaceInfo(raceId: string, domainName?: string): Promise<RaceInfo | null> {
  const request = () =>
    apiRequest<RaceInfo>({ method: 'POST', url: API_PATHS.raceBaseInfo, data: { raceId }, silent: true });
  // The early answer is for the race bound to this host: used only when it is this race.
  const forThisRace = (body: unknown) => {
    const envelope = checkEnvelope<RaceInfo>(body);
    if (String(envelope.data?.raceId) !== raceId) throw new Error('another race');
    return envelope;
  };
  const { data } = domainName === undefined ? await request() : await earlyOr('race', domainName, forThisRace, request);
  return data && typeof data === 'object' ? data : null;
}

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'business' && error.code === 404;
}

export async function resolveSite(domainName: string): Promise<ResolvedSite> {
  // The configuration's schema is a chunk of its own: built (many small schemas) in a task of its own while
  // the requests are under way, not in the entry's (a phone's Total Blocking Time, #16).
  const schema = import('#contract/site-config/schema');
  schema.catch(() => undefined); // a failure surfaces where it is awaited
  const bindingRequest = fetchRaceBinding(domainName);
  // The race info starts as soon as the binding is known, beside the configuration document.
  const raceRequest = bindingRequest.then((bound) =>
    bound
      ? fetchRaceInfo(bound.raceId, domainName).catch((error: unknown) => {
          console.error('[race-site] race base info failed:', error);
          return null;
        })
      : null,
  );
  const [binding, document] = await Promise.allSettled([bindingRequest, fetchSiteConfig(domainName)]);
  if (binding.status === 'fulfilled' && binding.value === null) {
    return { mode: 'preview', reason: 'unbound', config: previewConfig(), problems: [] };
  }
  // Bound, but the organiser has not published a document yet: the lookup answers 404 (spec §8 envelope).
  if (binding.status === 'fulfilled' && document.status === 'rejected' && isNotFound(document.reason)) {
    return { mode: 'preview', reason: 'unpublished', config: previewConfig(), problems: [] };
  }
  if (binding.status === 'rejected' || document.status === 'rejected') {
    const cause = binding.status === 'rejected' ? binding.reason : (document as PromiseRejectedResult).reason;
    console.error('[race-site] start-up failed, using the preview configuration:', cause);
    return { mode: 'preview', reason: 'failed', config: previewConfig(), problems: [] };
  }
  const bound = binding.value as RaceBinding; // null was answered above
  const { parseSiteConfigTolerant } = await schema;
  const parsed = parseSiteConfigTolerant(document.value);
  if (!parsed.ok) {
    console.error('[race-site] the site configuration is unusable:', parsed.problems);
    return { mode: 'preview', reason: 'failed', config: previewConfig(), problems: parsed.problems };
  }
  if (parsed.problems.length) {
    console.warn('[race-site] parts of the site configuration were dropped:', parsed.problems);
  }
  const race = await raceRequest.catch(() => null);
  return { mode: 'bound', binding: bound, race, config: parsed.config, problems: parsed.problems };
}
