/**
 * Runner lookups on the real seeded data (30,000 runners): registration status; a past result with
 * splits and ranks, whose downloaded e-certificate carries a QR code that is decoded from the PNG's
 * pixels and verified by the server (an edited signature fails); and the photo search on a domain bound
 * (through the organiser CLI) to the past race, with the module opened in its published site config.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { API_PATHS } from '#contract/api';
import type { SiteConfig } from '#contract/site-config/schema';
import { newPage, SCREENSHOT_DIR, screenshot, siteUrl, useBrowser } from './browser';
import { fetchSiteConfig, publishForDomain } from './site-config';
import { serverPort } from './test-server';

// DEMO_RUNNERS in server/src/db/seed-runners.ts
const RUNNER = { name: '张伟', id: '320102199001011232', bib: 'A00001', pastRace: 'qc-marathon-2026' };
/** Bound to the past race by the photo test: the demo site (localhost) is bound to the 2027 race. */
const PHOTO_DOMAIN = 'photos2026.localhost';

/** A POST to the real API, as the SPA makes it; answers the envelope's data. */
async function api<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${serverPort()}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { data: T }).data;
}

/** The demo site config with the photo search opened: its switch and its home-page module. */
function withPhotoSearchOpen(base: SiteConfig): SiteConfig {
  const config = structuredClone(base);
  config.pictureSearch = { ...config.pictureSearch, openStatus: 1 };
  config.searchConfigList = (config.searchConfigList ?? []).map((m) =>
    m.moduleType === 4 ? { ...m, openStatus: 1 } : m,
  );
  return config;
}

/** Page errors (from newPage) plus anything the page logs as a console error. */
function collectConsoleErrors(page: Page, errors: string[]) {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
}

/** The RGBA pixels of a PNG at its natural size, decoded by the browser (canvas getImageData). */
async function pngPixels(page: Page, png: Buffer): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const decoded = await page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { width: bitmap.width, height: bitmap.height, data: btoa(binary) };
  }, png.toString('base64'));
  return {
    width: decoded.width,
    height: decoded.height,
    data: new Uint8ClampedArray(Buffer.from(decoded.data, 'base64')),
  };
}

const browser = useBrowser();

describe('runner lookups', () => {
  it('finds a registration by name and ID number, with the ID number masked', async () => {
    const { context, page, errors } = await newPage(browser());
    await context.addCookies([{ name: 'language', value: 'en', url: siteUrl() }]);
    await page.goto(siteUrl('localhost', '/registration-search'));
    await page.getByPlaceholder('Enter your name').fill(RUNNER.name);
    await page.getByPlaceholder('Enter your certificate number').fill(RUNNER.id);
    await page.getByRole('button', { name: 'Search' }).click();
    // Query type 1 (the default): the status and the channel, the name masked, no personal numbers.
    const result = page.getByTestId('registration-result');
    await result.waitFor();
    await expect(page.getByTestId('registration-status').textContent()).resolves.toMatch(/won|registered/i);
    await expect(page.getByTestId('registration-channel').textContent()).resolves.toBe('Website');
    const status = (await result.textContent()) ?? '';
    expect(status).toContain('张*');
    expect(status).not.toContain(RUNNER.id);
    await screenshot(page, 'lookup-registration-status-en');
    // The registration info of that channel (type 3, the website), for the same name and number.
    await page.getByRole('button', { name: 'View registration details' }).click();
    await page.getByTestId('participant').waitFor();
    await expect(page.getByRole('radio', { name: 'Website registration' }).isChecked()).resolves.toBe(true);
    const text = (await result.textContent()) ?? '';
    expect(text).toContain('3201**********1232');
    expect(text).not.toContain(RUNNER.id);
    await screenshot(page, 'lookup-registration-en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("finds a past result with splits and ranks; the downloaded certificate's QR code verifies, an edited one does not", async () => {
    // What the server says of this runner; the page and the certificate must show the same.
    const [answer] = await api<{ chipTime: string; certificate: { id: string; sig: string } }[]>(
      API_PATHS.searchScore,
      {
        raceId: RUNNER.pastRace,
        bib: RUNNER.bib,
      },
    );
    const { context, page, errors } = await newPage(browser(), { acceptDownloads: true });
    collectConsoleErrors(page, errors);
    await page.goto(siteUrl('localhost', '/multiple-score-search'));
    await page.locator('select').first().selectOption(RUNNER.pastRace);
    await page.getByPlaceholder('请输入姓名').fill(RUNNER.name);
    await page.getByPlaceholder('请输入证件号码').fill(RUNNER.id);
    await page.locator('button[type="submit"]').click();
    const card = page.getByTestId('score-result').first();
    await card.waitFor();
    const { chipTime } = answer;
    expect(chipTime).toMatch(/^\d:\d\d:\d\d$/);
    await expect(card.getByTestId('chip-time').textContent()).resolves.toContain(chipTime);
    await expect(card.getByTestId('ranks').isVisible()).resolves.toBe(true);
    await expect(card.locator('table tbody tr').count()).resolves.toBeGreaterThanOrEqual(8);
    await screenshot(page, 'lookup-score-zh');

    // The real download: the PNG the browser saves, kept next to the screenshots.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: '下载电子证书' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`certificate-${RUNNER.bib}.png`);
    const png = readFileSync(await download.path());
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    writeFileSync(path.join(SCREENSHOT_DIR, 'certificate-download.png'), png);

    // Its QR code, read from the image's pixels, leads to the verification page of this certificate.
    const { width, height, data } = await pngPixels(page, png);
    expect({ width, height }).toEqual({ width: 1200, height: 850 });
    const qr = jsQR(data, width, height);
    expect(qr, 'no QR code found in the downloaded certificate').not.toBeNull();
    const verifyUrl = new URL(qr!.data);
    expect(`${verifyUrl.origin}${verifyUrl.pathname}`).toBe(`http://localhost:${serverPort()}/`);
    const [route, query] = verifyUrl.hash.split('?');
    expect(route).toBe('#/certificate');
    const params = new URLSearchParams(query);
    expect({ id: params.get('id'), sig: params.get('sig') }).toEqual(answer.certificate);

    await page.goto(verifyUrl.href);
    await page.getByTestId('certificate-valid').waitFor();
    await expect(page.getByTestId('certificate-valid').textContent()).resolves.toContain(chipTime);

    // The same link with an altered signature is refused.
    const sig = params.get('sig')!;
    params.set('sig', sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA'));
    verifyUrl.hash = `${route}?${params.toString()}`;
    await page.goto(verifyUrl.href);
    await page.getByTestId('certificate-invalid').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('finds the photos of a bib on a site of the past race, loads them, opens the viewer and reports a bib without photos', async () => {
    // A domain bound to the past race (it has the photos), its config publishing the photo search open.
    await publishForDomain(PHOTO_DOMAIN, RUNNER.pastRace, withPhotoSearchOpen(await fetchSiteConfig()));

    // What the server holds for this bib, and a bib it has no photos of.
    const photos = await api<{ url: string; takenAt: string }[] | null>(API_PATHS.searchPhotos, {
      raceId: RUNNER.pastRace,
      bib: RUNNER.bib,
    });
    expect(photos?.length).toBeGreaterThan(0);
    const noPhotosBib = 'Z99999';
    await expect(
      api<unknown[] | null>(API_PATHS.searchPhotos, { raceId: RUNNER.pastRace, bib: noPhotosBib }),
    ).resolves.toSatisfy((list: unknown[] | null) => !list?.length);

    const origin = `http://${PHOTO_DOMAIN}:${serverPort()}`;
    const { context, page, errors } = await newPage(browser());
    collectConsoleErrors(page, errors);
    await context.addCookies([{ name: 'language', value: 'en', url: origin }]);
    await page.goto(`${origin}/#/image-search`);
    await page.getByRole('heading', { name: 'Photo Search' }).waitFor();
    await expect(page.getByTestId('search-closed').count()).resolves.toBe(0);

    const bibInput = page.getByPlaceholder('Enter your bib number');
    await bibInput.fill(RUNNER.bib);
    await page.getByRole('button', { name: 'Search' }).click();
    const tiles = page.getByTestId('photo-tile');
    await tiles.first().waitFor();
    await expect(tiles.count()).resolves.toBe(photos!.length);
    await expect(page.getByText(`${photos!.length} photos`).isVisible()).resolves.toBe(true);

    // Every image has loaded (complete), and with pixels (naturalWidth > 0), not as a broken image.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid="photo-tile"] img')].every((img) => img.complete),
    );
    const widths = await tiles
      .locator('img')
      .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth));
    expect(widths).toHaveLength(photos!.length);
    for (const width of widths) expect(width).toBeGreaterThan(0);
    await screenshot(page, 'lookup-photos-en');

    // The viewer shows the first photo; its download link is that photo's address.
    await page.getByRole('button', { name: 'View photo 1' }).click();
    const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
    await viewer.waitFor();
    // Photo URLs are paths on the file host (spec §5), which the demo build serves at /files/.
    const expected = new URL(`/files/${photos![0].url}`, origin).href;
    await expect(
      viewer.getByRole('link', { name: 'Download original' }).evaluate((a) => (a as HTMLAnchorElement).href),
    ).resolves.toBe(expected);
    const big = viewer.locator('img.photo-viewer__img');
    await expect(big.evaluate((img) => (img as HTMLImageElement).src)).resolves.toBe(expected);
    await page.waitForFunction(
      () => document.querySelector<HTMLImageElement>('img.photo-viewer__img')?.complete === true,
    );
    await expect(big.evaluate((img) => (img as HTMLImageElement).naturalWidth)).resolves.toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    // A bib without photos: the 'none' message, and no grid.
    await bibInput.fill(noPhotosBib);
    await page.getByRole('button', { name: 'Search' }).click();
    const failure = page.getByTestId('search-failure');
    await failure.waitFor();
    await expect(failure.textContent()).resolves.toBe('No data found');
    await expect(tiles.count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
