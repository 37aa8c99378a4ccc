/**
 * The home page's registration card (issue 28: in English on a desktop its "Register now" button was squeezed
 * to 16 px, its text spilling out). At 1280 px and on a 360 px phone, in Chinese and English, the button is at
 * least 32 px high, its text fits inside it, and it sits inside the card.
 */
import { newPage, screenshot, useBrowser } from './browser';
import { serverPort } from './test-server';

const browser = useBrowser();
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const DEVICES = {
  desktop: { viewport: { width: 1280, height: 900 } },
  phone: { viewport: { width: 360, height: 740 }, userAgent: PHONE_UA, isMobile: true, hasTouch: true },
} as const;
const BUTTON = { zh: '立即报名', en: 'Register now' } as const;

describe.each(['desktop', 'phone'] as const)('the registration card (%s)', (device) => {
  it.each(['zh', 'en'] as const)('shows a whole Register now button, at least 32 px high (%s)', async (lang) => {
    const { context, page, errors } = await newPage(browser(), DEVICES[device]);
    const origin = `http://localhost:${serverPort()}`;
    await context.addCookies([{ name: 'language', value: lang, url: origin }]);
    await page.goto(`${origin}${device === 'phone' ? '/m/' : '/'}#/home`);
    const card = page.getByTestId('register-now');
    const button = card.getByRole('button', { name: BUTTON[lang] });
    await button.waitFor();
    await card.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    const cardBox = (await card.boundingBox())!;
    const fits = await button.evaluate((el) => ({
      width: el.scrollWidth <= el.clientWidth,
      height: el.scrollHeight <= el.clientHeight,
    }));
    await screenshot(page, `register-card-${device}-${lang}`);
    expect(box.height).toBeGreaterThanOrEqual(32);
    expect(fits).toEqual({ width: true, height: true });
    expect(box.y).toBeGreaterThanOrEqual(cardBox.y);
    expect(box.y + box.height).toBeLessThanOrEqual(cardBox.y + cardBox.height);
    expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    expect(errors).toEqual([]);
    await context.close();
  });
});
