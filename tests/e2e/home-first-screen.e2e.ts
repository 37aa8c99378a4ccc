/**
 * The desktop home page's first screen (issue 29 §5): the server sends the home page as HTML
 * (server/src/lib/first-screen.ts, drawn by the app's own components, src/app/boot/home-first-screen.tsx) and
 * the app's module starts after the first paint (src/app/boot/first-screen-loader.ts), then takes the page
 * over without moving anything. At 1440 and 1280 px, in Chinese and English:
 * - without JavaScript the page shows the menu, the carousel, the modules and the registration card (and no
 *   test ids: a test waiting for a test id waits for the app's page);
 * - with the app's module held back, the same page stands before any module has run, a button pressed then
 *   is pressed again once the app has arrived, and the app's page stands exactly where the first screen stood
 *   (the boxes of its parts, and a cumulative layout shift below 0.1 from PerformanceObserver);
 * - a deep link never shows the home page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { newPage, SCREENSHOT_DIR, useBrowser, saveScreenshot } from './browser';
import { serverPort } from './test-server';
import { staticDir } from './server-process';

const browser = useBrowser();
const origin = () => `http://localhost:${serverPort()}`;
/** The app's entry chunk (the module the loader starts). */
const entry = () =>
  /<script[^>]*type="module"[^>]*src="([^"]+\.js)"/.exec(readFileSync(path.join(staticDir, 'index.html'), 'utf8'))![1]!;
const MENU_HOME = { zh: '首页', en: 'Home' } as const;
const REGISTER = { zh: '立即报名', en: 'Register now' } as const;
/**
 * The first screen's parts, by their classes: the server's page carries no test ids (a test waiting for one
 * waits for the app's page, src/app/boot/home-first-screen.tsx).
 */
const PARTS = ['.banner', '.site-menu', '.hero', '.search-modules', '.race-band', '.signup'] as const;

/** The boxes of the first screen's parts. */
const boxes = (page: Page) =>
  page.evaluate(
    (parts) =>
      Object.fromEntries(
        parts.map((selector) => {
          const r = document.querySelector(selector)?.getBoundingClientRect();
          return [selector, r ? [r.x, r.y, r.width, r.height].map(Math.round) : null];
        }),
      ),
    PARTS,
  );

describe.each([1440, 1280])('the desktop home page’s first screen at %i px', (width) => {
  it.each(['zh', 'en'] as const)(
    'is HTML: the menu, the modules and the registration card without JavaScript (%s)',
    async (lang) => {
      const { context, page } = await newPage(browser(), {
        viewport: { width, height: 900 },
        javaScriptEnabled: false,
      });
      await context.addCookies([{ name: 'language', value: lang, url: origin() }]);
      await page.goto(`${origin()}/#/home`);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe(lang === 'en' ? 'en' : 'zh-CN');
      const menu = page.locator('.site-menu');
      await expect(menu.getByRole('link', { name: MENU_HOME[lang], exact: true }).isVisible()).resolves.toBe(true);
      await expect(menu.getByRole('link', { name: MENU_HOME[lang], exact: true }).getAttribute('href')).resolves.toBe(
        '#/home',
      );
      for (const part of PARTS) await expect(page.locator(part).first().isVisible()).resolves.toBe(true);
      await expect(page.locator('.signup').getByRole('button', { name: REGISTER[lang] }).isVisible()).resolves.toBe(
        true,
      );
      await expect(page.locator('[data-testid]').count()).resolves.toBe(0);
      await expect(page.locator('.boot-splash').isVisible()).resolves.toBe(false);
      await expect(page.locator('script[type="module"]').count()).resolves.toBe(0);
      // (screenshot() styles the page by script, which this page does not run.)
      await saveScreenshot(page, path.join(SCREENSHOT_DIR, `home-first-screen-${width}-${lang}-no-js.png`));
      await context.close();
    },
  );

  it.each(['zh', 'en'] as const)(
    'stands before any module runs, keeps a press, and the app takes over without a shift (%s)',
    async (lang) => {
      const { context, page, errors } = await newPage(browser(), { viewport: { width, height: 900 } });
      await context.addCookies([{ name: 'language', value: lang, url: origin() }]);
      await context.addInitScript(() => {
        const w = window as unknown as { cls: number; modulesRan: boolean };
        w.cls = 0;
        new PerformanceObserver((list) => {
          for (const shift of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
            if (!shift.hadRecentInput) w.cls += shift.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // The app's module is held back until the test lets it go.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let requested = false;
      await page.route(`**${entry()}`, async (route) => {
        requested = true;
        await held;
        await route.continue();
      });
      // Not until 'load': the held module holds the load event back.
      await page.goto(`${origin()}/#/home`, { waitUntil: 'domcontentloaded' });
      const card = page.locator('.signup');
      await card.getByRole('button', { name: REGISTER[lang] }).waitFor();
      await expect(page.locator('#root').getAttribute('data-first-screen')).resolves.toBe('home');
      await expect(page.locator('.site-menu').isVisible()).resolves.toBe(true);
      const before = await boxes(page);
      // Pressed before the app has arrived: the module starts (if it had not yet) and the press waits for it.
      await card.getByRole('button', { name: REGISTER[lang] }).click();
      await expect.poll(() => requested).toBe(true);
      await expect(page.getByTestId('signup-dialog').count()).resolves.toBe(0);
      release();
      await page.getByTestId('signup-dialog').waitFor();
      await expect(page.locator('#root').getAttribute('data-first-screen')).resolves.toBeNull();
      await page.keyboard.press('Escape');
      await page.getByTestId('signup-dialog').waitFor({ state: 'hidden' });
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await boxes(page)).toEqual(before);
      await page.waitForLoadState('networkidle');
      const cls = await page.evaluate(() => (window as unknown as { cls: number }).cls);
      expect(cls).toBeLessThan(0.1);
      // The app works: the language switch, a button the server drew, answers.
      await page.getByTestId('language-toggle').click();
      await page
        .getByTestId('site-menu')
        .getByRole('link', { name: MENU_HOME[lang === 'zh' ? 'en' : 'zh'], exact: true })
        .waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('a deep link on the desktop site', () => {
  it('never shows the home page the server drew, and the app draws the page asked for', async () => {
    const { context, page, errors } = await newPage(browser(), { viewport: { width: 1440, height: 900 } });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${entry()}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${origin()}/#/registration-search`, { waitUntil: 'domcontentloaded' });
    await page.locator('.boot-splash').waitFor();
    await expect(page.locator('.site-menu').isVisible()).resolves.toBe(false);
    await expect(page.locator('.signup').isVisible()).resolves.toBe(false);
    release();
    await page.getByTestId('site-menu').waitFor();
    await expect(page.getByTestId('home-page').count()).resolves.toBe(0);
    await expect(page.locator('#root').getAttribute('data-first-screen')).resolves.toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});
