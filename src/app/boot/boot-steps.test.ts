import { http, HttpResponse } from 'msw';
import i18n from 'i18next';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { CONFIG_URI } from '@/testing/mocks/handlers/site';
import { testConfig, testRace } from '@/testing/fixtures/site';
import { API_PATHS } from '#contract/api';
import { initI18n } from '@/app/i18n';
import { siteTitle } from '@/lib/site-title';
import { useAppStore } from '@/stores/app-store';
import { checkToken } from './check-token';
import { isMobileUserAgent, mobileRedirectTarget, redirectMobile } from './detect-mobile';
import { loadCloudConfig } from './load-cloud-config';
import { loadTranslations } from './load-translations';
import { resolveSite } from './resolve-site';
import { restoreUser } from './restore-user';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36';

beforeEach(async () => {
  await initI18n('zh');
  useAppStore.setState({ token: null });
});

describe('mobile redirect', () => {
  const base = { mobileSiteUrl: 'https://m.example/', onMobileSite: false, choice: null, hash: '' } as const;

  it('sends a mobile browser to the mobile site home and leaves a desktop one alone', () => {
    const go = vi.fn();
    expect(isMobileUserAgent(IPHONE)).toBe(true);
    expect(redirectMobile({ ...base, userAgent: IPHONE }, go)).toBe(true);
    expect(go).toHaveBeenCalledWith('https://m.example/');
    expect(redirectMobile({ ...base, userAgent: DESKTOP }, go)).toBe(false);
    expect(redirectMobile({ ...base, userAgent: IPHONE, mobileSiteUrl: '' }, go)).toBe(false);
    expect(go).toHaveBeenCalledTimes(1);
  });

  it('keeps the deep link (the hash) in the mobile address', () => {
    const hash = '#/certificate?raceId=7&code=AB12';
    expect(mobileRedirectTarget({ ...base, userAgent: IPHONE, hash })).toBe(`https://m.example/${hash}`);
    expect(mobileRedirectTarget({ ...base, mobileSiteUrl: '/m/', userAgent: IPHONE, hash: '#/news/3' })).toBe(
      '/m/#/news/3',
    );
  });

  it('stays on the mobile site, and on the desktop site when the visitor chose it', () => {
    expect(mobileRedirectTarget({ ...base, userAgent: IPHONE, onMobileSite: true })).toBeNull();
    expect(mobileRedirectTarget({ ...base, userAgent: IPHONE, choice: 'desktop' })).toBeNull();
    expect(mobileRedirectTarget({ ...base, userAgent: IPHONE, choice: 'mobile' })).toBe('https://m.example/');
  });
});

describe('token check', () => {
  it('keeps a valid token', async () => {
    await expect(checkToken(VALID_TOKEN)).resolves.toBe('valid');
  });

  it('reports an invalid token', async () => {
    await expect(checkToken('expired')).resolves.toBe('invalid');
  });

  it('retries network failures and keeps the login when the server stays unreachable', async () => {
    let calls = 0;
    server.use(http.post(api(API_PATHS.commonInfo), () => (calls++, HttpResponse.error())));
    await expect(checkToken(VALID_TOKEN, { retryDelayMs: 1 })).resolves.toBe('unreachable');
    expect(calls).toBe(6);
  });

  it('succeeds when a retry gets through', async () => {
    let calls = 0;
    server.use(
      http.post(api(API_PATHS.commonInfo), () =>
        ++calls < 3 ? HttpResponse.error() : HttpResponse.json({ code: 0, msg: 'ok', data: {} }),
      ),
    );
    await expect(checkToken('any', { retryDelayMs: 1 })).resolves.toBe('valid');
  });
});

describe('restore user data', () => {
  const user = { token: 'tok', accountInfo: { accountNick: '跑者' }, userInfo: { userName: '张三' } };

  it('restores stored user data and its token', () => {
    localStorage.setItem('userData', JSON.stringify(user));
    localStorage.setItem('token', 'tok');
    expect(restoreUser().user?.userInfo?.userName).toBe('张三');
    expect(useAppStore.getState().token).toBe('tok');
  });

  it('removes corrupt data and reloads the page once, never in a loop', () => {
    const reload = vi.fn();
    localStorage.setItem('userData', '{not json');
    localStorage.setItem('token', 'tok');
    expect(restoreUser({ reload }).reloading).toBe(true);
    expect(localStorage.getItem('userData')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    localStorage.setItem('userData', JSON.stringify({ token: 42 }));
    expect(restoreUser({ reload }).reloading).toBe(false);
    expect(localStorage.getItem('userData')).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('starts logged out when only a token is left', () => {
    localStorage.setItem('token', 'orphan');
    expect(restoreUser().user).toBeNull();
    expect(useAppStore.getState().token).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('cloud config and translations', () => {
  it('loads the cloud config index and ignores its failure', async () => {
    await expect(loadCloudConfig()).resolves.toMatchObject({ cloudType: 'tencentyun' });
    server.use(http.get(api(API_PATHS.cloudConfigIndex), () => HttpResponse.error()));
    await expect(loadCloudConfig()).resolves.toBeNull();
  });

  it('merges remote translations over the built-in ones and skips malformed entries', async () => {
    const merged = await loadTranslations(['common.json', 'website.json']);
    expect(merged).toBe(4);
    expect(i18n.t('layout.footer.filings', { lng: 'zh' })).toBe('远程备案信息');
    expect(i18n.t('layout.footer.filings', { lng: 'en' })).toBe('Remote filings');
  });

  it('ignores a translation file that fails', async () => {
    server.use(
      http.get(api(`${API_PATHS.translationsPrefix}website.json`), () => new HttpResponse(null, { status: 500 })),
    );
    await expect(loadTranslations(['website.json'])).resolves.toBe(0);
  });
});

describe('site resolution', () => {
  it('loads the bound race, its base info and its configuration', async () => {
    const site = await resolveSite('localhost');
    expect(site.mode).toBe('bound');
    if (site.mode !== 'bound') return;
    expect(site.binding.raceId).toBe(testRace.raceId);
    expect(site.race?.raceName).toBe(testRace.raceName);
    expect(site.config.websiteTitle).toBe(testConfig().websiteTitle);
  });

  it('falls back to the preview configuration for an unbound host', async () => {
    const site = await resolveSite('127.0.0.1');
    expect(site).toMatchObject({ mode: 'preview', reason: 'unbound' });
    expect(site.config.version).toBe('preview');
  });

  it('tells a bound host without a published configuration apart from an unbound one', async () => {
    server.use(
      http.get(api(API_PATHS.siteConfigLookup), () =>
        HttpResponse.json({
          code: 404,
          msg: 'A race is bound to this domain, but no site configuration is published for it',
          data: null,
        }),
      ),
    );
    const site = await resolveSite('localhost');
    expect(site).toMatchObject({ mode: 'preview', reason: 'unpublished' });
    expect(site.config.version).toBe('preview');
  });

  it('falls back to preview when the configuration cannot be fetched', async () => {
    server.use(http.get(api(CONFIG_URI), () => HttpResponse.error()));
    await expect(resolveSite('localhost')).resolves.toMatchObject({ mode: 'preview', reason: 'failed' });
  });

  it('keeps the good parts of a partly broken configuration', async () => {
    server.use(http.get(api(CONFIG_URI), () => HttpResponse.json({ ...testConfig(), carouselList: 'oops' })));
    const site = await resolveSite('localhost');
    expect(site.mode).toBe('bound');
    expect(site.config.carouselList).toBeUndefined();
    expect(site.problems[0].path).toBe('$.carouselList');
  });

  it('still shows the site when the race base info fails', async () => {
    server.use(http.post(api(API_PATHS.raceBaseInfo), () => HttpResponse.json({ code: 500, msg: 'x' })));
    const site = await resolveSite('localhost');
    expect(site).toMatchObject({ mode: 'bound', race: null });
  });

  it('titles the site with the year and the event name', () => {
    expect(siteTitle(testRace, testConfig(), 'zh')).toBe('2027测试城市马拉松');
    expect(siteTitle(testRace, testConfig(), 'en')).toBe('2027 Test City Marathon');
    expect(siteTitle(null, testConfig(), 'en')).toBe('Test City Marathon');
    // A name that starts with the year already keeps it once.
    const named = { ...testConfig(), websiteTitle: '2027 测试城市马拉松', websiteTitleEn: '2027 Test City Marathon' };
    expect(siteTitle(testRace, named, 'zh')).toBe('2027 测试城市马拉松');
    expect(siteTitle(testRace, named, 'en')).toBe('2027 Test City Marathon');
  });
});
