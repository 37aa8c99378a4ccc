/**
 * Early start-up requests. index.html runs `earlyFetch` inline (vite.config.ts puts it there), before the
 * app's JS has arrived, so the answers the start-up pipeline waits for — the race binding, the site
 * configuration document, the race information, the cloud config and the translation files — are on their
 * way, or already here, when it asks. On a phone on a slow network this takes the API round trips off the
 * critical path. The pipeline takes each answer at most once (`takeEarly`) and checks it exactly as it
 * checks its own requests; with no early answer, or a failed one, it asks the API itself.
 *
 * `earlyFetch` is copied into the page with Function.prototype.toString: it must stay self-contained (no
 * imports, nothing from module scope) and use only what every supported browser runs natively.
 */
// Relative: vite.config.ts loads this file before the '@/' alias exists.
import { API_PATHS, CONTRACT_HEADERS } from '#contract/api';

export interface EarlyFetchPlan {
  /** The API origin without a trailing slash; '' for the site's own origin. */
  apiBase: string;
  /** The contract's headers (terminalType, osId). */
  headers: Record<string, string>;
  paths: {
    raceByDomain: string;
    siteConfigLookup: string;
    raceBaseInfo: string;
    cloudConfigIndex: string;
    translationsPrefix: string;
  };
  i18nFiles: readonly string[];
  /**
   * The image host (VITE_IMAGE_HOST) when the page is the home page: the first screen's images (first
   * carousel slide, first top ad) are preloaded as soon as the document arrives. Paths resolve as
   * resolveImageUrl does (src/lib/url.ts; a test keeps the two equal).
   */
  imageHost?: string;
}

/** What `earlyFetch` leaves on window: raw answer bodies (envelopes or documents) by name. */
export interface EarlyFetches {
  domainName: string;
  answers: Partial<Record<string, Promise<unknown>>>;
}

declare global {
  interface Window {
    __RACE_SITE_EARLY__?: EarlyFetches;
  }
}

export type EarlyKey = 'binding' | 'document' | 'race' | 'cloud' | `i18n:${string}`;

export function earlyFetch(plan: EarlyFetchPlan): void {
  try {
    const domainName = window.location.hostname;
    const query = `?domainName=${encodeURIComponent(domainName)}`;
    const stamp = `?t=${Date.now()}`;
    const url = (path: string) => (/^(https?:)?\/\//i.test(path) ? path : plan.apiBase + path);
    const get = (path: string, init?: RequestInit): Promise<unknown> =>
      fetch(url(path), Object.assign({ headers: plan.headers }, init)).then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.json() as Promise<unknown>;
      });
    const dataOf = (body: unknown): Record<string, unknown> => {
      const envelope = body as { code?: unknown; data?: unknown } | null;
      if (!envelope || envelope.code !== 0 || !envelope.data || typeof envelope.data !== 'object') {
        throw new Error('no data');
      }
      return envelope.data as Record<string, unknown>;
    };
    const binding = get(plan.paths.raceByDomain + query);
    const document = get(plan.paths.siteConfigLookup + query).then((body) => {
      const data = dataOf(body);
      return get(`${String(data.uri)}?md5=${encodeURIComponent(String(data.fileMd5))}`);
    });
    const route = window.location.hash.replace(/^#/, '').split('?')[0];
    if (plan.imageHost !== undefined && (route === '' || route === '/' || route === '/home')) {
      const host = plan.imageHost.replace(/\/+$/, '');
      const imageUrl = (value: unknown): string | undefined => {
        const path = typeof value === 'string' ? value.trim() : '';
        if (!path || /^\s*(javascript|data|vbscript|file):/i.test(path)) return undefined;
        return /^(https?:\/\/|blob:)/i.test(path) ? path : `${host}/${path.replace(/^\/+/, '')}`;
      };
      const first = (list: unknown): string | undefined => {
        for (const item of Array.isArray(list) ? (list as { surfacePlotUrl?: unknown }[]) : []) {
          const src = imageUrl(item?.surfacePlotUrl);
          if (src) return src;
        }
        return undefined;
      };
      document
        .then((config) => {
          const doc = config as { carouselList?: unknown; adListTop?: unknown } | null;
          const images: [string | undefined, string][] = [
            [first(doc?.carouselList), 'high'],
            [first(doc?.adListTop), 'auto'],
          ];
          for (const [href, priority] of images) {
            if (!href) continue;
            const link = window.document.createElement('link');
            link.rel = 'preload';
            link.setAttribute('as', 'image');
            link.setAttribute('href', href);
            link.setAttribute('fetchpriority', priority);
            window.document.head.append(link);
          }
        })
        .catch(() => undefined);
    }
    const race = binding.then((body) =>
      get(plan.paths.raceBaseInfo, {
        method: 'POST',
        headers: Object.assign({ 'content-type': 'application/json' }, plan.headers),
        body: JSON.stringify({ raceId: dataOf(body).raceId }),
      }),
    );
    const answers: Record<string, Promise<unknown>> = {
      binding,
      document,
      race,
      cloud: get(plan.paths.cloudConfigIndex + stamp),
    };
    for (const name of plan.i18nFiles) {
      answers[`i18n:${name}`] = get(plan.paths.translationsPrefix + encodeURIComponent(name) + stamp);
    }
    // Nobody may ever take an answer (another route, a failure): never an unhandled rejection.
    for (const key of Object.keys(answers)) answers[key]?.catch(() => undefined);
    window.__RACE_SITE_EARLY__ = { domainName, answers };
  } catch {
    // Without early answers the start-up pipeline asks for everything itself.
  }
}

/** The early answer for a key, at most once, when it was fetched for this host. */
export function takeEarly(key: EarlyKey, domainName: string): Promise<unknown> | undefined {
  const early = window.__RACE_SITE_EARLY__;
  if (!early || early.domainName !== domainName) return undefined;
  const answer = early.answers[key];
  delete early.answers[key];
  return answer;
}

/**
 * An answer from the early request when there is a good one (`check` accepts it), otherwise from `request`.
 * `check` throws for an answer that is not usable; the pipeline then asks again with its own client, which
 * reports the failure as it always does.
 */
export async function earlyOr<T>(
  key: EarlyKey,
  domainName: string,
  check: (body: unknown) => T,
  request: () => Promise<T>,
): Promise<T> {
  const early = takeEarly(key, domainName);
  if (!early) return request();
  try {
    return check(await early);
  } catch {
    return request();
  }
}

/** The plan for an API base URL (VITE_API_BASE_URL), translation files and image host of an env file. */
export function earlyFetchPlan(env: {
  apiBaseUrl: string;
  i18nFiles: readonly string[];
  imageHost?: string;
}): EarlyFetchPlan {
  return {
    apiBase: env.apiBaseUrl === '/' ? '' : env.apiBaseUrl.replace(/\/+$/, ''),
    headers: { ...CONTRACT_HEADERS },
    paths: {
      raceByDomain: API_PATHS.raceByDomain,
      siteConfigLookup: API_PATHS.siteConfigLookup,
      raceBaseInfo: API_PATHS.raceBaseInfo,
      cloudConfigIndex: API_PATHS.cloudConfigIndex,
      translationsPrefix: API_PATHS.translationsPrefix,
    },
    i18nFiles: env.i18nFiles,
    imageHost: env.imageHost,
  };
}

/** The inline script of index.html for a plan (used by vite.config.ts). */
export function earlyFetchScript(plan: EarlyFetchPlan): string {
  // '<' never appears unescaped, so nothing in the plan can close the script element.
  const json = JSON.stringify(plan).replace(/</g, '\\u003c');
  return `(${earlyFetch.toString()})(${json});`;
}
