import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { testConfig, testRace } from '@/testing/fixtures/site';
import { api } from '../base-url';

export const BOUND_DOMAIN = 'localhost';
export const CONFIG_URI = `${API_PATHS.siteConfigFilesPrefix}abc123.json`;

const ok = <T>(data: T) => HttpResponse.json({ code: 0, msg: 'success', data });

export const siteHandlers = [
  http.get(api(API_PATHS.raceByDomain), ({ request }) => {
    const domainName = new URL(request.url).searchParams.get('domainName');
    return ok(domainName === BOUND_DOMAIN ? { raceId: testRace.raceId, domainName } : null);
  }),
  http.get(api(API_PATHS.siteConfigLookup), ({ request }) => {
    const domainName = new URL(request.url).searchParams.get('domainName');
    if (domainName !== BOUND_DOMAIN) return HttpResponse.json({ code: 404, msg: '未绑定赛事', data: null });
    return ok({ domainName, fileMd5: 'abc123', uri: CONFIG_URI });
  }),
  http.get(api(CONFIG_URI), () => HttpResponse.json(testConfig())),
  http.post(api(API_PATHS.raceBaseInfo), async ({ request }) => {
    const body = (await request.json()) as { raceId?: string };
    return body.raceId === testRace.raceId
      ? ok(testRace)
      : HttpResponse.json({ code: 404, msg: '赛事不存在', data: null });
  }),
];
