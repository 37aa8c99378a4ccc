/**
 * Routes that need login, end to end: the built SPA in Chromium against the real server. A logged-out
 * visit to a registration screen opens the login drawer; logging in with the demo account lands on the
 * same screen, path and query (the registration screens of issue #13).
 */
import type { Page } from 'playwright-core';
import { loginInDrawer, newPage, screenshot, siteUrl, useBrowser } from './browser';
import { rawKeysOn } from './raw-keys';

const browser = useBrowser();

async function englishPage() {
  const opened = await newPage(browser());
  await opened.context.addCookies([{ name: 'language', value: 'en', url: siteUrl() }]);
  return opened;
}

const hashOf = (page: Page) => new URL(page.url()).hash;

describe('routes that need login', () => {
  it('opens the drawer on a logged-out visit to /#/upload and lands back on it after logging in', async () => {
    const { context, page, errors } = await englishPage();
    await page.goto(siteUrl('localhost', '/upload?step=2'));
    const drawer = page.getByTestId('login-drawer');
    await drawer.waitFor();
    await screenshot(page, 'guard-upload-drawer-en');
    await loginInDrawer(page, 'en');
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('Personal Centre');
    expect(hashOf(page)).toBe('#/upload?step=2');
    // The page renders now that the visitor is logged in.
    await page.getByTestId('upload-page').waitFor();
    await expect(page.getByTestId('login-required').count()).resolves.toBe(0);
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'guard-upload-logged-in-en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('leaves a "please log in" screen when the drawer is closed, and the drawer opens again from it', async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl('localhost', '/direct'));
    const drawer = page.getByTestId('login-drawer');
    await drawer.waitFor();
    await page.getByRole('button', { name: '关闭' }).click();
    await drawer.waitFor({ state: 'hidden' });
    const state = page.getByTestId('login-required');
    await state.getByRole('heading', { name: '请先登录' }).waitFor();
    await screenshot(page, 'guard-direct-login-required-zh');
    expect(await rawKeysOn(page)).toEqual([]);
    expect(hashOf(page)).toBe('#/direct');
    await state.getByRole('button', { name: '立即登录' }).click();
    await drawer.waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows each page with its own texts, in both languages, across a language switch', async () => {
    const { context, page, errors } = await newPage(browser());
    for (const path of ['/home', '/registration-search', '/score-search', '/news-notice/race-news']) {
      await page.goto(siteUrl('localhost', path));
      await page.getByTestId('main').locator('h1, h2').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await rawKeysOn(page), `${path} (zh)`).toEqual([]);
      await page.getByTestId('language-toggle').click();
      await page.getByTestId('language-toggle').getByText('中').waitFor();
      expect(await rawKeysOn(page), `${path} (en)`).toEqual([]);
      await page.getByTestId('login-entry').getByText('Please log in').waitFor();
      await page.getByTestId('language-toggle').click();
      await page.getByTestId('language-toggle').getByText('En').waitFor();
    }
    // The drawer brings the account texts along, in the language of the moment.
    await page.getByTestId('language-toggle').click();
    await page.getByTestId('login-entry').click();
    await page.getByTestId('login-drawer').getByRole('tab', { name: 'Account password login' }).waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'texts-drawer-en');
    expect(errors).toEqual([]);
    await context.close();
  });
});
