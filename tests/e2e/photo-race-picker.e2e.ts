/**
 * Photo search reaches past races (issue 28): on a site of the 2027 race, which has no photos yet, the photo
 * search offers the organiser's races with results, the latest (2026) first, named in the page's language, and
 * finds the 2026 photos of a bib; at 360 px on the mobile site and at 1440 px on the desktop site, in Chinese
 * and English. The photo search is closed on the demo site, so a domain bound to the 2027 race publishes it
 * open.
 */
import { API_PATHS } from '#contract/api';
import { newPage, screenshot, useBrowser } from './browser';
import { fetchSiteConfig, publishForDomain } from './site-config';
import { serverPort } from './test-server';

const DOMAIN = 'photos2027.localhost';
const BOUND_RACE = 'qc-marathon-2027';
/** DEMO_RUNNERS in server/src/db/seed-runners.ts: a bib of the 2026 race, which has its photos. */
const BIB = 'A00001';
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const TEXTS = {
  zh: { race: '赛事', past: '2026 青川运河马拉松', bib: '参赛号码', search: '查询' },
  en: { race: 'Race', past: '2026 Qingchuan Grand Canal Marathon', bib: 'Bib number', search: 'Search' },
} as const;

const browser = useBrowser();

beforeAll(async () => {
  const config = structuredClone(await fetchSiteConfig());
  config.pictureSearch = { ...config.pictureSearch, openStatus: 1 };
  await publishForDomain(DOMAIN, BOUND_RACE, config);
});

describe('photo search race picker', () => {
  it('the bound 2027 race itself has no photos of the bib (the picker is what reaches them)', async () => {
    const res = await fetch(`http://127.0.0.1:${serverPort()}${API_PATHS.searchPhotos}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ raceId: BOUND_RACE, bib: BIB }),
    });
    const { data } = (await res.json()) as { data: unknown[] | null };
    expect(data ?? []).toEqual([]);
  });

  for (const device of ['phone', 'desktop'] as const) {
    for (const lang of ['zh', 'en'] as const) {
      it(`offers the past race and finds its photos (${device === 'phone' ? '360 px' : '1440 px'}, ${lang})`, async () => {
        const t = TEXTS[lang];
        const origin = `http://${DOMAIN}:${serverPort()}`;
        const { context, page, errors } = await newPage(
          browser(),
          device === 'phone'
            ? {
                viewport: { width: 360, height: 740 },
                deviceScaleFactor: 2,
                isMobile: true,
                hasTouch: true,
                userAgent: PHONE_UA,
              }
            : {},
        );
        await context.addCookies([{ name: 'language', value: lang, url: origin }]);
        await page.goto(`${origin}${device === 'phone' ? '/m/' : '/'}#/image-search`);
        const picker = page.getByRole('combobox', { name: t.race });
        await picker.waitFor();
        await expect.poll(() => picker.inputValue()).toBe('qc-marathon-2026');
        expect(await picker.locator('option:checked').textContent()).toBe(t.past);
        // The picker fits the page: nothing scrolls sideways.
        const box = (await picker.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
        await page.getByLabel(t.bib).fill(BIB);
        await page.getByRole('button', { name: t.search, exact: true }).click();
        await page.getByTestId('photo-tile').first().waitFor();
        expect(await page.getByTestId('photo-tile').count()).toBeGreaterThan(0);
        await screenshot(page, `photo-race-picker-${device}-${lang}`);
        // The viewer, opened from a photo with the keyboard and closed with Escape, gives focus back to the photo.
        const photo = page.getByTestId('photo-tile').first().getByRole('button');
        await photo.focus();
        await page.keyboard.press('Enter');
        await page.getByRole('dialog').waitFor();
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await expect(photo.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});
