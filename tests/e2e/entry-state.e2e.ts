/**
 * Whether entry is open, one truth on every screen (#27): the organiser closes entry with `site entry-close`
 * inside the race's window, and the home page (its register-now card and its sign-up module) reads closed on
 * the next load, on the desktop site and on the mobile site /m/ at 360 px, in Chinese and English; `entry-open`
 * opens it again. Switching the site configuration's sign-up module off (openStatus 0) closes them too.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { SiteConfig } from '#contract/site-config/schema';
import seed from '../../server/seed/race.json';
import { newPage, SCREENSHOT_DIR, screenshot, useBrowser, saveScreenshot } from './browser';
import { fromNow } from './demo-form';
import { addRace, fetchSiteConfig, publishForDomain, siteCli } from './site-config';
import { serverPort } from './test-server';

const RACE_ID = seed.race.raceId;
const PHONE = {
  viewport: { width: 360, height: 740 },
  userAgent:
    'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
const TEXTS = {
  zh: { open: '报名进行中', closed: '报名已截止' },
  en: { open: 'Registration open', closed: 'Registration closed' },
} as const;
type Site = 'desktop' | 'mobile';
type Lang = 'zh' | 'en';

const browser = useBrowser();
let published: SiteConfig;

beforeAll(async () => {
  published = await fetchSiteConfig();
  // The demo race with its window around now, entry open.
  await addRace({ ...seed.race, signUpStartTime: fromNow(-2), signUpEndTime: fromNow(30), signUpOpenStatus: 1 });
});
// The test files share one server: the demo race and its configuration go back to what they were.
afterAll(async () => {
  await addRace(seed.race);
  await publishForDomain('localhost', RACE_ID, published);
});

/** A page on the site in a language, kept open across the organiser's changes. */
async function openHome(site: Site, lang: Lang) {
  const opened = await newPage(browser(), site === 'mobile' ? PHONE : {});
  const origin = `http://localhost:${serverPort()}`;
  await opened.context.addCookies([{ name: 'language', value: lang, url: origin }]);
  const url = `${origin}${site === 'mobile' ? '/m/' : '/'}#/home`;
  return { ...opened, url, site, lang };
}

/** Loads the home page and waits for the register-now card to read `state` (no retry: the first load must). */
async function expectHome(view: Awaited<ReturnType<typeof openHome>>, state: 'open' | 'closed', shot?: string) {
  const { page, lang } = view;
  // A page already there is reloaded (a goto to the same address with a hash would not load it again).
  if (page.url() === view.url) await page.reload();
  else await page.goto(view.url);
  const card = page.locator(`[data-testid="register-now"][data-state="${state}"]`);
  await card.waitFor();
  expect(await page.getByTestId('signup-state').textContent()).toBe(TEXTS[lang][state]);
  const module = page.getByTestId('search-module-1');
  expect(await module.getAttribute('data-closed')).toBe(String(state === 'closed'));
  // The demo's banner ad announcing sign-up (whileSignUpOpen) shows only while it is open (the desktop banner).
  if (view.site === 'desktop') {
    const ad = page.locator(
      '.banner__ads img[alt="报名进行中，1月24日截止"], .banner__ads img[alt="Entries open until Jan 24"]',
    );
    await page.locator('.banner__ads img').first().waitFor();
    expect(await ad.count()).toBe(state === 'open' ? 1 : 0);
  }
  if (state === 'closed') expect(await module.textContent()).toContain(TEXTS[lang].closed);
  if (shot) await shotOf(page, shot);
}

/** The whole page, and the sign-up module and the register-now card close up. */
async function shotOf(page: Page, name: string) {
  await page.getByTestId('register-now').scrollIntoViewIfNeeded();
  await screenshot(page, name);
  await saveScreenshot(page.getByTestId('search-modules'), path.join(SCREENSHOT_DIR, `${name}-modules.png`));
  await saveScreenshot(page.getByTestId('register-now'), path.join(SCREENSHOT_DIR, `${name}-card.png`));
}

describe('entry open or closed on the home page', () => {
  it('reads closed on the next load after entry-close, desktop and /m/ at 360 px, zh and en; open again after entry-open', async () => {
    const views = [];
    for (const site of ['desktop', 'mobile'] as const) {
      for (const lang of ['zh', 'en'] as const) views.push(await openHome(site, lang));
    }
    for (const view of views) await expectHome(view, 'open');

    expect(await siteCli('entry-close', RACE_ID)).toContain('is now closed');
    for (const view of views) await expectHome(view, 'closed', `entry-closed-home-${view.site}-${view.lang}`);

    // The module's notice says entry has closed (not "not open yet").
    const desktopEn = views.find((v) => v.site === 'desktop' && v.lang === 'en')!;
    await desktopEn.page.getByTestId('search-module-1').click();
    expect(await desktopEn.page.getByTestId('search-dialog-text').textContent()).toContain('Registration is closed');
    await shotOf(desktopEn.page, 'entry-closed-notice-desktop-en');

    expect(await siteCli('entry-open', RACE_ID)).toContain('is now open');
    for (const view of views) await expectHome(view, 'open');
    for (const view of views) {
      expect(view.errors).toEqual([]);
      await view.context.close();
    }
  });

  it('reads closed once the site configuration switches the sign-up module off (openStatus 0)', async () => {
    const config: SiteConfig = {
      ...published,
      searchConfigList: (published.searchConfigList ?? []).map((m) =>
        m.moduleType === 1 ? { ...m, openStatus: 0 } : m,
      ),
    };
    await publishForDomain('localhost', RACE_ID, config);
    for (const [site, lang] of [
      ['desktop', 'zh'],
      ['mobile', 'en'],
    ] as const) {
      const view = await openHome(site, lang);
      await expectHome(view, 'closed', `entry-module-off-home-${site}-${lang}`);
      expect(view.errors).toEqual([]);
      await view.context.close();
    }
    await publishForDomain('localhost', RACE_ID, published);
  });
});
