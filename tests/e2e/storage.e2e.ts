/**
 * Browser storage (issue 10 §5, spec §4/§8): the site renders and works for the session where the browser
 * refuses site data, and absurd stored logins are dropped at start-up without waiting on retries.
 */
import type { Page } from 'playwright-core';
import { API_PATHS } from '#contract/api';
import { loginInDrawer, newPage, screenshot, siteUrl, useBrowser } from './browser';

const browser = useBrowser();

/** What Chromium does with site data blocked (or in a cross-site frame): every way in throws. */
function blockSiteData() {
  const refuse = () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  for (const name of ['localStorage', 'sessionStorage']) {
    Object.defineProperty(window, name, { configurable: true, get: refuse });
  }
  Object.defineProperty(Document.prototype, 'cookie', { configurable: true, get: refuse, set: refuse });
}

/** Counts the start-up token checks (getCommonInfo) the page sends. */
function countTokenChecks(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.url().includes(API_PATHS.commonInfo)) seen.count += 1;
  });
  return seen;
}

describe('browser storage', () => {
  it('renders, logs in, switches language and logs out for the session when storage and cookies throw', async () => {
    const { context, page, errors } = await newPage(browser());
    await context.addInitScript(blockSiteData);
    await page.goto(siteUrl());
    await page.getByTestId('site-menu').waitFor();
    await expect(page.evaluate(() => typeof window.localStorage)).rejects.toThrow(/insecure/);
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('请登录');

    await page.getByTestId('login-entry').click();
    await loginInDrawer(page, 'zh');
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('个人中心');

    await page.getByTestId('language-toggle').click();
    await page.getByTestId('login-entry').getByText('Personal Centre').waitFor();
    await screenshot(page, 'storage-blocked-logged-in-en');

    // Moving within the site keeps the login and the language (both live in memory for the session).
    await page.goto(siteUrl('localhost', '/no-such-page'));
    await page.getByTestId('not-found').waitFor();
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('Personal Centre');

    await page.getByTestId('logout').click();
    await page.getByTestId('login-entry').getByText('Please log in').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('drops an absurd stored token at once instead of retrying it', async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl());
    await page.getByTestId('site-menu').waitFor();
    for (const token of ['x'.repeat(20_000), 'not a token <script>']) {
      await page.evaluate((t) => {
        localStorage.setItem('token', t);
        localStorage.setItem('userData', JSON.stringify({ token: t }));
      }, token);
      const checks = countTokenChecks(page);
      const started = Date.now();
      await page.reload();
      await page.getByTestId('site-menu').waitFor();
      expect(Date.now() - started).toBeLessThan(3000);
      expect(checks.count).toBe(0);
      await expect(
        page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('userData')]),
      ).resolves.toEqual([null, null]);
      await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('请登录');
      page.removeAllListeners('request');
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('checks a token kept only inside userData at start-up and drops it when the server refuses it', async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl());
    await page.getByTestId('site-menu').waitFor();
    await page.evaluate(() => localStorage.setItem('userData', JSON.stringify({ token: 'revoked-or-forged-token' })));
    const checks = countTokenChecks(page);
    await page.reload();
    await page.getByTestId('site-menu').waitFor();
    expect(checks.count).toBe(1);
    await expect(page.evaluate(() => localStorage.getItem('userData'))).resolves.toBeNull();
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('请登录');
    expect(errors).toEqual([]);
    await context.close();
  });
});
