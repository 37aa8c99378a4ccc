/**
 * The mobile site's first screen (#16): the page the server sends for /m/ shows the race before any of the
 * app's code has arrived (the site title, the mobile logo and, on the home page only, the first slide);
 * the app then starts and replaces it with the page itself.
 */
import { newPage, screenshot, useBrowser } from './browser';
import { serverPort } from './test-server';

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const browser = useBrowser();
const origin = () => `http://localhost:${serverPort()}`;

function phone() {
  return newPage(browser(), {
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    userAgent: PHONE_UA,
  });
}

describe('the mobile first screen', () => {
  it('shows the race before the app’s code arrives, the slide on the home page only', async () => {
    const { page, context } = await phone();
    // No app code at all: what the visitor sees comes from the server's page alone.
    await context.route('**/assets/*.js', (route) => route.abort());
    await page.goto(`${origin()}/m/#/home`);
    const logo = page.locator('.first-screen__logo');
    await logo.waitFor();
    expect(await logo.getAttribute('alt')).toMatch(/马拉松/);
    const hero = page.locator('.first-screen__hero');
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const box = await hero.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 52, width: 360 });
    expect(Math.round(box!.height)).toBe(Math.round((360 * 600) / 1920));
    await screenshot(page, 'mobile-first-screen-zh');

    // A deep link (a certificate's QR code) never downloads the slide.
    const slides: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'image' && request.url().includes('carousel')) slides.push(request.url());
    });
    await page.goto('about:blank');
    await page.goto(`${origin()}/m/#/certificate?no=A1`);
    await logo.waitFor();
    expect(await page.locator('.first-screen__hero').count()).toBe(0);
    expect(slides).toEqual([]);
    await context.close();
  });

  it('sends a phone on the desktop address to the mobile site before any of the app’s code loads', async () => {
    const { page, context } = await phone();
    // Every script file fails: only the head's inline script can send the phone on.
    await context.route('**/assets/*.js', (route) => route.abort());
    await page.goto(`${origin()}/#/certificate?raceId=7&code=AB12`);
    await page.waitForURL(/\/m\/#\/certificate\?raceId=7&code=AB12$/);
    await page.locator('.first-screen__logo').waitFor();
    await context.close();
  });

  it('gives way to the app, which draws the page where the first screen stood', async () => {
    const { page, context, errors } = await phone();
    await context.addCookies([{ name: 'language', value: 'en', url: origin() }]);
    const response = await page.goto(`${origin()}/m/#/home`);
    const html = (await response?.text()) ?? '';
    expect(html).toContain('<html lang="en" data-site="mobile">');
    expect(html).not.toContain('<script type="module"');
    await page.getByTestId('home-page').waitFor();
    expect(await page.locator('.first-screen').count()).toBe(0);
    const slide = await page.getByTestId('home-carousel').locator('img').first().boundingBox();
    expect(slide).toMatchObject({ x: 0, y: 52, width: 360 });
    // The page's content keeps 16 px from the phone's edges (global.css --w-content), whatever order the
    // chunks' stylesheets arrive in.
    expect(await page.locator('.search-modules').boundingBox()).toMatchObject({ x: 16, width: 328 });
    expect(errors).toEqual([]);
    await context.close();
  });
});
