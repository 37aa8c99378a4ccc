import { http, HttpResponse } from 'msw';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { CONFIG_URI } from '@/testing/mocks/handlers/site';
import { testConfig, testRace } from '@/testing/fixtures/site';
import { API_PATHS } from '#contract/api';
import { initI18n } from '@/app/i18n';
import { firstTopAdUrl, heroImageUrl } from '@/features/home/preload';
import type { SiteConfig } from '#contract/site-config/schema';
import { getEnv } from '@/config/env';
import { earlyFetchPlan, earlyFetchScript, earlyOr, takeEarly, type EarlyFetchPlan } from './early-fetch';
import { loadCloudConfig } from './load-cloud-config';
import { loadTranslations } from './load-translations';
import { resolveSite } from './resolve-site';
import { WAIT_LIMIT_MS } from '@/testing/wait-limit';

const plan: EarlyFetchPlan = earlyFetchPlan({
  apiBaseUrl: 'http://localhost:3000/',
  i18nFiles: ['common.json', 'website.json'],
});

/** Runs the inline script of index.html, as the browser does. */
function runInlineScript(p = plan) {
  new Function(earlyFetchScript(p))();
}

/** Every request the API mock sees, as "METHOD path". */
function recordRequests() {
  const seen: string[] = [];
  const listener = ({ request }: { request: Request }) => {
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
  };
  server.events.on('request:start', listener);
  return { seen, stop: () => server.events.removeListener('request:start', listener) };
}

beforeEach(async () => {
  await initI18n('zh');
});

afterEach(() => {
  delete window.__RACE_SITE_EARLY__;
  document.head.querySelectorAll('link[rel="preload"]').forEach((link) => link.remove());
  window.location.hash = '';
});

describe('early start-up requests (inline in index.html)', () => {
  it('plans the same origin for "/" and an origin without its trailing slash otherwise', () => {
    expect(earlyFetchPlan({ apiBaseUrl: '/', i18nFiles: [] }).apiBase).toBe('');
    expect(earlyFetchPlan({ apiBaseUrl: 'https://api.example.com/', i18nFiles: [] }).apiBase).toBe(
      'https://api.example.com',
    );
    expect(plan.headers).toEqual({ terminalType: '3', osId: '1002' });
  });

  it('is a self-contained script that escapes the plan', () => {
    const script = earlyFetchScript({ ...plan, i18nFiles: ['</script><script>alert(1)</script>'] });
    expect(script).not.toContain('</script>');
    expect(script).not.toMatch(/\b(import|require|__name)\b/);
  });

  it('asks for the binding, the configuration document, the race, the cloud config and the translations', async () => {
    const requests = recordRequests();
    let raceBody: unknown;
    let headers: Headers | undefined;
    server.use(
      http.post(api(API_PATHS.raceBaseInfo), async ({ request }) => {
        raceBody = await request.json();
        headers = request.headers;
        return HttpResponse.json({ code: 0, msg: 'ok', data: testRace });
      }),
    );
    runInlineScript();
    const early = window.__RACE_SITE_EARLY__;
    expect(early?.domainName).toBe('localhost');
    const answers = early?.answers ?? {};
    expect(Object.keys(answers).sort()).toEqual(
      ['binding', 'cloud', 'document', 'i18n:common.json', 'i18n:website.json', 'race'].sort(),
    );
    await expect(answers.document).resolves.toMatchObject({ websiteTitle: testConfig().websiteTitle });
    await expect(answers.race).resolves.toMatchObject({ code: 0, data: { raceId: testRace.raceId } });
    expect(raceBody).toEqual({ raceId: testRace.raceId });
    expect(headers?.get('terminalType')).toBe('3');
    expect(headers?.get('osId')).toBe('1002');
    await Promise.allSettled(Object.values(answers));
    requests.stop();
    expect(requests.seen).toEqual(
      expect.arrayContaining([
        `GET ${API_PATHS.raceByDomain}`,
        `GET ${API_PATHS.siteConfigLookup}`,
        `GET ${CONFIG_URI}`,
        `POST ${API_PATHS.raceBaseInfo}`,
        `GET ${API_PATHS.cloudConfigIndex}`,
        `GET ${API_PATHS.translationsPrefix}common.json`,
      ]),
    );
  });

  it('lets the start-up pipeline use those answers without asking again', async () => {
    runInlineScript();
    await Promise.allSettled(Object.values(window.__RACE_SITE_EARLY__?.answers ?? {}));
    const requests = recordRequests();
    const [site, cloud, merged] = await Promise.all([
      resolveSite('localhost'),
      loadCloudConfig(Date.now(), 'localhost'),
      loadTranslations(plan.i18nFiles, Date.now(), 'localhost'),
    ]);
    requests.stop();
    expect(site.mode).toBe('bound');
    if (site.mode === 'bound') expect(site.race?.raceName).toBe(testRace.raceName);
    expect(cloud).not.toBeNull();
    expect(merged).toBeGreaterThan(0);
    expect(requests.seen).toEqual([]);
    expect(window.__RACE_SITE_EARLY__?.answers).toEqual({});
  });

  it('asks the API itself when an early answer failed or is not usable', async () => {
    server.use(http.get(api(CONFIG_URI), () => HttpResponse.error(), { once: true }));
    server.use(
      http.get(api(API_PATHS.raceByDomain), () => HttpResponse.json({ code: 500, msg: 'busy', data: null }), {
        once: true,
      }),
    );
    runInlineScript();
    await Promise.allSettled(Object.values(window.__RACE_SITE_EARLY__?.answers ?? {}));
    const requests = recordRequests();
    const site = await resolveSite('localhost');
    requests.stop();
    expect(site.mode).toBe('bound');
    expect(requests.seen).toEqual(expect.arrayContaining([`GET ${API_PATHS.raceByDomain}`, `GET ${CONFIG_URI}`]));
  });

  it('on the home page, preloads the first screen images as the app would, once the document is in', async () => {
    const config: SiteConfig = {
      ...testConfig(),
      carouselList: [{ surfacePlotUrl: ' ' }, { surfacePlotUrl: '/demo/slide-9.svg' }],
      adListTop: [{ surfacePlotUrl: 'javascript:alert(1)' }, { surfacePlotUrl: 'https://cdn.example/ad.png' }],
    };
    server.use(http.get(api(CONFIG_URI), () => HttpResponse.json(config)));
    runInlineScript({ ...plan, imageHost: getEnv().imageHost });
    await window.__RACE_SITE_EARLY__?.answers.document;
    await vi.waitFor(() => expect(document.head.querySelectorAll('link[rel="preload"]')).toHaveLength(2), {
      timeout: WAIT_LIMIT_MS,
    });
    const links = Array.from(document.head.querySelectorAll('link[rel="preload"][as="image"]'));
    expect(links.map((l) => [l.getAttribute('href'), l.getAttribute('fetchpriority')])).toEqual([
      [heroImageUrl(config), 'high'],
      [firstTopAdUrl(config), 'auto'],
    ]);
    expect(heroImageUrl(config)).toBe('/files/demo/slide-9.svg');
  });

  it('preloads no images off the home page', async () => {
    window.location.hash = '#/news-notice/race-news';
    runInlineScript({ ...plan, imageHost: '/files/' });
    await window.__RACE_SITE_EARLY__?.answers.document;
    await new Promise((r) => setTimeout(r, 20));
    expect(document.head.querySelectorAll('link[rel="preload"]')).toHaveLength(0);
  });

  it('gives an answer once, and only to the host it was fetched for', async () => {
    window.__RACE_SITE_EARLY__ = { domainName: 'localhost', answers: { cloud: Promise.resolve({ cloudType: 'x' }) } };
    expect(takeEarly('cloud', 'other.example')).toBeUndefined();
    await expect(takeEarly('cloud', 'localhost')).resolves.toEqual({ cloudType: 'x' });
    expect(takeEarly('cloud', 'localhost')).toBeUndefined();
    const request = vi.fn(async () => 'asked');
    await expect(earlyOr('cloud', 'localhost', () => 'early', request)).resolves.toBe('asked');
  });

  it('starts nothing and breaks nothing where fetch is missing', () => {
    const fetch = globalThis.fetch;
    vi.stubGlobal('fetch', undefined);
    try {
      expect(() => runInlineScript()).not.toThrow();
      expect(window.__RACE_SITE_EARLY__).toBeUndefined();
    } finally {
      vi.stubGlobal('fetch', fetch);
    }
  });
});
