/**
 * The mobile site's shell (issue 16): a phone (viewport, touch, a phone's user agent) on /m/ gets the mobile
 * top bar in Chinese and English, the menu sheet navigates, the login entry opens the login bottom sheet,
 * nothing scrolls sideways, and the footer's 'Desktop site' link goes to the desktop site, keeping the page,
 * and is remembered (its Chinese 电脑版 is mobile-redirect.e2e.ts's); axe finds nothing serious or critical
 * with the sheet closed or open. The redirect from the desktop address (VITE_MOBILE_SITE_URL=/m/) is
 * mobile-redirect.e2e.ts's.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeFindings, blocking } from './axe';
import { newPage, SCREENSHOT_DIR, screenshot, useBrowser, saveScreenshot } from './browser';
import { serverPort } from './test-server';

const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const PHONES = {
  zh: { width: 390, height: 844 },
  en: { width: 360, height: 740 },
} as const;
const TEXTS = {
  zh: { openMenu: '打开菜单', login: '请登录', toggle: 'En', news: '赛事新闻', desktop: '电脑版', mobile: '手机版' },
  en: {
    openMenu: 'Open the menu',
    login: 'Please log in',
    toggle: '中',
    news: 'Race News',
    desktop: 'Desktop site',
    mobile: 'Mobile site',
  },
} as const;

const browser = useBrowser();
const origin = () => `http://localhost:${serverPort()}`;

function phone(lang: 'zh' | 'en') {
  return newPage(browser(), {
    viewport: PHONES[lang],
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    userAgent: PHONE_UA,
  });
}

async function expectNoSidewaysScroll(page: Page, state: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${state}: the page scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

describe('the mobile shell on /m/', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`shows the top bar, the menu sheet and the login sheet; the desktop link in English (${lang})`, async () => {
      const { context, page, errors } = await phone(lang);
      await context.addCookies([{ name: 'language', value: lang, url: origin() }]);
      await page.goto(`${origin()}/m/#/home`);
      const bar = page.getByTestId('mobile-top-bar');
      await bar.waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.site)).toBe('mobile');
      expect(await page.locator('.banner').count()).toBe(0);
      await expect.poll(() => bar.getByTestId('login-entry').textContent()).toContain(TEXTS[lang].login);
      expect(await bar.getByTestId('language-toggle').textContent()).toBe(TEXTS[lang].toggle);
      const barBox = (await bar.boundingBox())!;
      expect(barBox.height).toBeLessThanOrEqual(56);
      for (const target of await bar.locator('button').all()) {
        const box = (await target.boundingBox())!;
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(box.width).toBeGreaterThanOrEqual(44);
      }
      await expectNoSidewaysScroll(page, `home-${lang}`);
      expect(blocking(await axeFindings(page, `mobile-shell-home-${lang}`))).toEqual([]);
      await screenshot(page, `mobile-shell-home-${lang}`);

      // The menu sheet: the desktop menu's tree, a link followed closes it and shows the page.
      await page.getByRole('button', { name: TEXTS[lang].openMenu }).click();
      const sheet = page.getByTestId('mobile-menu-sheet');
      await sheet.waitFor();
      await expectNoSidewaysScroll(page, `menu-${lang}`);
      expect(blocking(await axeFindings(page, `mobile-menu-sheet-${lang}`))).toEqual([]);
      await sheet.getByRole('link', { name: TEXTS[lang].news, exact: true }).click();
      await sheet.waitFor({ state: 'hidden' });
      await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(/^#\/.+/);
      expect(await page.evaluate(() => window.location.hash)).not.toBe('#/home');
      expect(new URL(page.url()).pathname).toBe('/m/');
      await expectNoSidewaysScroll(page, `news-${lang}`);

      // The login entry opens the login drawer as a bottom sheet.
      await page.getByTestId('login-entry').click();
      const drawer = page.getByTestId('login-drawer');
      await drawer.waitFor();
      // Slid in: the sheet's top stops moving.
      let lastY = -1;
      await expect
        .poll(async () => {
          const y = (await drawer.boundingBox())?.y ?? 0;
          const settled = y > 0 && Math.abs(y - lastY) < 0.5;
          lastY = y;
          return settled;
        })
        .toBe(true);
      const sheetBox = (await drawer.boundingBox())!;
      expect(Math.round(sheetBox.y + sheetBox.height)).toBeGreaterThanOrEqual(PHONES[lang].height - 1);
      await expectNoSidewaysScroll(page, `login-${lang}`);
      await saveScreenshot(page, path.join(SCREENSHOT_DIR, `mobile-shell-login-${lang}.png`));
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });

      // The desktop link keeps the page and is remembered: the desktop site stays on reload. (In English here;
      // mobile-redirect.e2e.ts follows it in Chinese, with a later visit and the way back.)
      if (lang === 'en') {
        const hash = await page.evaluate(() => window.location.hash);
        await page.getByTestId('site-footer').getByRole('link', { name: TEXTS[lang].desktop }).click();
        await page.waitForURL((url) => url.pathname === '/');
        expect(new URL(page.url()).hash).toBe(hash);
        await page.getByTestId('site-menu').waitFor();
        expect((await context.cookies()).find((c) => c.name === 'site')?.value).toBe('desktop');
        // On the desktop site a phone that chose it is offered the mobile site back.
        const back = page.getByTestId('site-footer').getByRole('link', { name: TEXTS[lang].mobile });
        await page.locator('.page-loading').waitFor({ state: 'detached' });
        await screenshot(page, `mobile-shell-desktop-on-phone-${lang}`);
        // The 1200 px desktop page zoomed out on the phone: Playwright's pointer misses the link's box there
        // (it reports the main area on top), so the link is clicked as a script would.
        await back.evaluate((link) => (link as HTMLElement).click());
        await page.waitForURL((url) => url.pathname === '/m/');
        expect(new URL(page.url()).hash).toBe(hash);
        expect((await context.cookies()).find((c) => c.name === 'site')?.value).toBe('mobile');
      }
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
