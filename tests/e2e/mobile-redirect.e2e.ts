/**
 * The redirect to the mobile site (#16, spec §1): a phone (viewport, touch and user agent: an iPhone's Safari,
 * an Android phone's Chrome) that opens the DESKTOP address lands on /m/ with the same hash and sees that
 * page: a certificate's verification (its QR code's link), a news item, a lookup. The mobile footer's
 * '电脑版 / Desktop site' link goes to the desktop site with the hash kept and is remembered (cookie 'site'):
 * a later visit stays on the desktop site, whose '手机版 / Mobile site' link brings the phone back. A
 * logged-out deep link to the personal centre opens the login bottom sheet; after logging in, the page
 * shows, and the top bar's 'Personal Centre' opens my registrations in the same tab. Nothing scrolls
 * sideways on any page opened.
 */
import type { Page } from 'playwright-core';
import { API_PATHS } from '#contract/api';
import type { SiteConfig } from '#contract/site-config/schema';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { documentsAt, fetchSiteConfig, inLang, menuPages } from './site-config';
import { serverPort } from './test-server';

const PHONES = {
  iphone: {
    lang: 'zh',
    viewport: { width: 390, height: 844 },
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  },
  android: {
    lang: 'en',
    viewport: { width: 360, height: 740 },
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  },
} as const;
const TEXTS = {
  zh: { desktop: '电脑版', mobile: '手机版', centre: '个人中心' },
  en: { desktop: 'Desktop site', mobile: 'Mobile site', centre: 'Personal Centre' },
} as const;

const browser = useBrowser();
const origin = () => `http://localhost:${serverPort()}`;
const desktopUrl = (hash: string) => `${origin()}/#${hash}`;

let config: SiteConfig;
let certificate: { hash: string; chipTime: string };
beforeAll(async () => {
  config = await fetchSiteConfig();
  // The 2026 result of a demo runner (DEMO_RUNNERS in server/src/db/seed-runners.ts): its certificate's QR link.
  const response = await fetch(`http://127.0.0.1:${serverPort()}${API_PATHS.searchScore}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ raceId: 'qc-marathon-2026', bib: 'A00001' }),
  });
  const { data } = (await response.json()) as {
    data: { chipTime: string; certificate: { id: string; sig: string } }[];
  };
  const { chipTime, certificate: cert } = data[0]!;
  certificate = { hash: `/certificate?${new URLSearchParams({ id: cert.id, sig: cert.sig }).toString()}`, chipTime };
});

/** The first news item of the demo menu: its hash and its title. */
function newsItem(lang: 'zh' | 'en'): { hash: string; title: string } {
  const page = menuPages(config).find((p) => p.item.component === 'NewsPage')!;
  const doc = documentsAt(config, page.item.meta?.dataPath)[0]!;
  return { hash: `${page.path}?id=${encodeURIComponent(String(doc.id))}`, title: inLang(lang, doc.title, doc.titleEn) };
}

function phone(which: keyof typeof PHONES) {
  const { viewport, userAgent } = PHONES[which];
  return newPage(browser(), { viewport, userAgent, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
}

async function expectNoSidewaysScroll(page: Page, state: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${state}: the page scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

/** Opens the desktop address of a deep link and expects the mobile site with the same hash. */
async function openDeepLink(page: Page, hash: string): Promise<void> {
  await page.goto(desktopUrl(hash));
  await page.waitForURL((url) => url.pathname === '/m/');
  expect(decodeURIComponent(new URL(page.url()).hash)).toBe(decodeURIComponent(`#${hash}`));
  await page.getByTestId('mobile-top-bar').waitFor();
  await expect(page.evaluate(() => document.documentElement.dataset.site)).resolves.toBe('mobile');
}

/** A news item opened at its desktop address, once the mobile site has drawn it. */
async function openNewsItem(page: Page, lang: 'zh' | 'en') {
  const news = newsItem(lang);
  await openDeepLink(page, news.hash);
  await page.getByTestId('main').getByRole('heading', { name: news.title }).first().waitFor();
  return news;
}

/** A certificate's QR link, a news item and a lookup, each opened at its desktop address. */
async function deepLinks(page: Page, which: keyof typeof PHONES): Promise<void> {
  const lang = PHONES[which].lang;
  await openDeepLink(page, certificate.hash);
  const valid = page.getByTestId('certificate-valid');
  await valid.waitFor();
  await expect(valid.textContent()).resolves.toContain(certificate.chipTime);
  await expectNoSidewaysScroll(page, `${which} certificate`);
  await screenshot(page, `mobile-redirect-certificate-${which}`);

  await openNewsItem(page, lang);
  await expectNoSidewaysScroll(page, `${which} news item`);

  await openDeepLink(page, '/score-search');
  await page.getByTestId('score-race').waitFor();
  await expectNoSidewaysScroll(page, `${which} score lookup`);
}

describe('a phone on the desktop address', () => {
  it('an iPhone lands on the same page of the mobile site; its choice of the desktop site is remembered', async () => {
    const t = TEXTS.zh;
    const { context, page, errors } = await phone('iphone');
    await context.addCookies([{ name: 'language', value: 'zh', url: origin() }]);
    await deepLinks(page, 'iphone');

    // 电脑版: the desktop site, the same page, remembered.
    // The news item drawn first: drawing it moves the footer, and a click aimed before that misses the link.
    const news = await openNewsItem(page, 'zh');
    await page.getByTestId('site-footer').getByRole('link', { name: t.desktop }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#${news.hash}`);
    expect((await context.cookies()).find((c) => c.name === 'site')?.value).toBe('desktop');
    // A later visit with the same phone stays on the desktop site.
    await page.goto(desktopUrl('/home'));
    await page.getByTestId('site-menu').waitFor();
    await page.locator('.page-loading').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => document.documentElement.dataset.site ?? null)).toBeNull();
    await screenshot(page, 'mobile-redirect-desktop-chosen');

    // 手机版 brings it back, keeping the page; the desktop address then leads to the mobile site again.
    const back = page.getByTestId('site-footer').getByRole('link', { name: t.mobile });
    // The 1200 px desktop page zoomed out on the phone: Playwright's pointer misses the link's box there, so
    // the link is clicked as a script would (as in mobile-shell.e2e.ts).
    await back.evaluate((link) => (link as HTMLElement).click());
    await page.waitForURL((url) => url.pathname === '/m/');
    expect(new URL(page.url()).hash).toBe('#/home');
    expect((await context.cookies()).find((c) => c.name === 'site')?.value).toBe('mobile');
    await openDeepLink(page, '/score-search');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an Android phone lands on the same page of the mobile site and logs in through the bottom sheet', async () => {
    const t = TEXTS.en;
    const { context, page, errors } = await phone('android');
    await context.addCookies([{ name: 'language', value: 'en', url: origin() }]);
    await deepLinks(page, 'android');

    // A logged-out deep link into the personal centre: the login sheet rises from the bottom.
    await openDeepLink(page, '/my/participants');
    const drawer = page.getByTestId('login-drawer');
    await drawer.waitFor();
    await expectNoSidewaysScroll(page, 'android login sheet');
    await loginInDrawer(page, 'en');
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain(t.centre);
    expect(new URL(page.url()).pathname).toBe('/m/');
    expect(new URL(page.url()).hash).toBe('#/my/participants');
    await page.getByTestId('participants-add').waitFor();
    await expectNoSidewaysScroll(page, 'android participants');
    await screenshot(page, 'mobile-redirect-participants-android');
    // The top bar's 'Personal Centre' opens my registrations in this tab, on the mobile site.
    await page.getByTestId('login-entry').click();
    await page.waitForURL((url) => url.hash === '#/my/my-index');
    expect(new URL(page.url()).pathname).toBe('/m/');
    expect(context.pages()).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
