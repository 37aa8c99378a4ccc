/**
 * The security headers in a real browser: the page policy lets the inline early-fetch script run (by its
 * hash), antd's injected styles, the images, the videos and the API work, and Chromium reports no
 * Content-Security-Policy violation on the pages a visitor walks through.
 */
import { createHash } from 'node:crypto';
import { newPage, siteUrl, useBrowser } from './browser';

const browser = useBrowser();

describe('security headers', () => {
  it('serves the page with a policy that lets the early-fetch script, antd, images and videos work', async () => {
    const { context, page, errors } = await newPage(browser());
    // Violations reported to the page itself (besides the console errors newPage collects).
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    const response = await page.goto(siteUrl());
    const headers = response?.headers() ?? {};
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['strict-transport-security']).toBeUndefined();
    const policy = headers['content-security-policy'] ?? '';
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    // The hashes in the policy are those of the inline scripts actually served: the early mobile redirect, the
    // early fetch, and the mobile first screen's preload and loader.
    const html = (await response?.text()) ?? '';
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(inline.map((body) => /function (\w+)/.exec(body)?.[1]).sort()).toEqual([
      'earlyFetch',
      'earlyMobileRedirect',
      'firstScreenLoader',
      'firstScreenPreload',
    ]);
    for (const body of inline) {
      expect(policy).toContain(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
    }
    // The early-fetch script ran: its answers are on window.
    await page.getByTestId('site-menu').waitFor();
    expect(await page.evaluate(() => '__RACE_SITE_EARLY__' in window)).toBe(true);
    await page.getByTestId('home-carousel').waitFor();
    await page.waitForLoadState('networkidle');
    // The first slide's image loaded (the others load lazily).
    const loaded = await page
      .locator('[data-testid="home-carousel"] img')
      .evaluateAll((images) => images.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length);
    expect(loaded).toBeGreaterThan(0);
    // antd's injected styles apply (the drawer is laid out, not unstyled), and the API answers.
    await page.getByTestId('login-entry').click();
    const drawer = page.getByTestId('login-drawer');
    await drawer.waitFor();
    const position = await drawer.evaluate(
      (element) => getComputedStyle(element.closest('.ant-drawer') ?? element).position,
    );
    expect(position).toBe('fixed');
    await page.keyboard.press('Escape');
    // The video collection plays its files from the site.
    await page.goto(siteUrl('localhost', '/video-collection'));
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
