/**
 * The home page's carousel and news ticker can be paused (WCAG 2.2.2, issue 28): each has a pause / play
 * button labelled in the page's language; paused, it stays on its slide or bulletin however long the visitor
 * reads; play starts it again. A visitor who prefers reduced motion finds both standing still, their buttons
 * offering play. At 1440 px and on a 360 px phone, in Chinese and English. Time is the browser's fake clock
 * (page.clock): nothing waits for real seconds.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { newPage, screenshot, useBrowser } from './browser';
import { serverPort } from './test-server';

const browser = useBrowser();
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const DEVICES = {
  desktop: { viewport: { width: 1440, height: 900 } },
  phone: { viewport: { width: 360, height: 740 }, userAgent: PHONE_UA, isMobile: true, hasTouch: true },
} as const;
type Device = keyof typeof DEVICES;

const LABELS = {
  zh: { carousel: { pause: '暂停轮播', play: '播放轮播' }, ticker: { pause: '暂停公告滚动', play: '播放公告滚动' } },
  en: {
    carousel: { pause: 'Pause the slideshow', play: 'Play the slideshow' },
    ticker: { pause: 'Pause the announcements', play: 'Play the announcements' },
  },
} as const;

/** The two moving parts: where they are, their button, and what they show now. */
const PARTS = {
  carousel: {
    root: (page: Page) => page.getByTestId('home-carousel'),
    toggle: 'home-carousel-toggle',
    shown: (root: Locator) => root.locator('.hero__slide:not([aria-hidden="true"]) img').getAttribute('src'),
  },
  ticker: {
    root: (page: Page) => page.getByTestId('scroll-up-info'),
    toggle: 'ticker-toggle',
    shown: (root: Locator) => root.locator('li[data-current]').textContent(),
  },
} as const;
type Part = keyof typeof PARTS;

async function openHome(device: Device, lang: 'zh' | 'en', reducedMotion: 'reduce' | 'no-preference') {
  const { context, page, errors } = await newPage(browser(), { ...DEVICES[device], reducedMotion });
  const origin = `http://localhost:${serverPort()}`;
  await context.addCookies([{ name: 'language', value: lang, url: origin }]);
  await page.clock.install();
  await page.goto(`${origin}${device === 'phone' ? '/m/' : '/'}#/home`);
  for (const part of Object.values(PARTS)) await part.root(page).waitFor();
  // From here the page's time moves only when the test moves it.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  return { context, page, errors };
}

/** Lets the page's time run a second at a time until what the part shows changes (at most 12 s). */
async function advances(page: Page, part: Part): Promise<boolean> {
  const root = PARTS[part].root(page);
  const before = await PARTS[part].shown(root);
  for (let second = 0; second < 12; second += 1) {
    await page.clock.runFor(1000);
    if ((await PARTS[part].shown(root)) !== before) return true;
  }
  return false;
}

/** Presses a part's button with the keyboard (no hover), then moves focus out of the part again. */
async function press(page: Page, part: Part) {
  const toggle = PARTS[part].root(page).getByTestId(PARTS[part].toggle);
  await toggle.focus();
  await page.keyboard.press('Enter');
  await toggle.blur();
}

const nameOf = (page: Page, part: Part) =>
  PARTS[part].root(page).getByTestId(PARTS[part].toggle).getAttribute('aria-label');

async function close(context: BrowserContext, errors: string[]) {
  expect(errors).toEqual([]);
  await context.close();
}

describe.each(['desktop', 'phone'] as const)('pausing the home page motion (%s)', (device) => {
  describe.each(['zh', 'en'] as const)('%s', (lang) => {
    it('pauses and plays the carousel and the ticker with their labelled buttons', async () => {
      const { context, page, errors } = await openHome(device, lang, 'no-preference');
      await page.mouse.move(0, 0);
      for (const part of ['carousel', 'ticker'] as const) {
        await PARTS[part].root(page).scrollIntoViewIfNeeded();
        await page.mouse.move(0, 0);
        expect(await nameOf(page, part)).toBe(LABELS[lang][part].pause);
        expect(await advances(page, part)).toBe(true);
        await press(page, part);
        expect(await nameOf(page, part)).toBe(LABELS[lang][part].play);
        await screenshot(page, `motion-${part}-paused-${device}-${lang}`);
        expect(await advances(page, part)).toBe(false);
        await press(page, part);
        expect(await nameOf(page, part)).toBe(LABELS[lang][part].pause);
        expect(await advances(page, part)).toBe(true);
      }
      await close(context, errors);
    });

    it('stands still for a visitor who prefers reduced motion, until they press play', async () => {
      const { context, page, errors } = await openHome(device, lang, 'reduce');
      await page.mouse.move(0, 0);
      for (const part of ['carousel', 'ticker'] as const) {
        expect(await nameOf(page, part)).toBe(LABELS[lang][part].play);
        expect(await advances(page, part)).toBe(false);
        await press(page, part);
        expect(await nameOf(page, part)).toBe(LABELS[lang][part].pause);
        expect(await advances(page, part)).toBe(true);
      }
      await close(context, errors);
    });
  });
});
