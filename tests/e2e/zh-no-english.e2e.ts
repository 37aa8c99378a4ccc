/**
 * In Chinese, nothing a screen reader reads or a person sees is antd's English (issue 28): no "Clear" on a
 * select's clear button, no "Increase Value" / "Decrease Value" on a number input's steppers, and no antd icon
 * read by its English name ("close-circle", "down", "eye-invisible", "loading"…). Scanned in the accessibility
 * tree (what a screen reader reads) and in the labels of the page, on the login sheet (each tab and the
 * registration screen), the sign-up form with values chosen, and the pages of the personal centre, at 1366 px
 * and on a 360 px phone.
 */
import type { Page } from 'playwright-core';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { pickMainlandChina, publicFormLabel } from './demo-form';
import { serverPort } from './test-server';

const browser = useBrowser();
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const DEVICES = {
  desktop: { viewport: { width: 1366, height: 900 } },
  phone: { viewport: { width: 360, height: 740 }, userAgent: PHONE_UA, isMobile: true, hasTouch: true },
} as const;
type Device = keyof typeof DEVICES;
const origin = () => `http://localhost:${serverPort()}`;
/** The site's own pages on a desktop; the mobile site's on a phone. */
const site = (device: Device, hash: string) => `${origin()}${device === 'phone' ? '/m/' : '/'}#${hash}`;
/** The personal centre: the registration area on a desktop, the mobile site on a phone. */
const centre = (device: Device, hash: string) => `${origin()}${device === 'phone' ? '/m/' : '/reg/'}#${hash}`;

/** English antd puts into a Chinese page: its fixed labels, and any icon named by its (kebab-case) icon name. */
const ANTD_ENGLISH = /\b(Clear|Increase Value|Decrease Value)\b|(?:img|button) "[a-z]+(?:-[a-z]+)*"/g;

/** What a screen reader would read of the page (its accessibility tree) and its labels, searched for antd English. */
async function antdEnglish(page: Page): Promise<string[]> {
  await page.waitForTimeout(300);
  const tree = await page.locator('body').ariaSnapshot();
  const labels = await page.evaluate(() =>
    [...document.querySelectorAll('[aria-label],[title]')]
      .filter((el) => !el.closest('[aria-hidden="true"]'))
      .flatMap((el) => {
        const role = el.getAttribute('role') === 'img' ? 'img' : 'button';
        return [`${role} "${el.getAttribute('aria-label') ?? ''}"`, el.getAttribute('title') ?? ''];
      })
      .join('\n'),
  );
  return [...new Set(`${tree}\n${labels}`.match(ANTD_ENGLISH) ?? [])];
}

async function openPage(device: Device) {
  const opened = await newPage(browser(), DEVICES[device]);
  await opened.context.addCookies([{ name: 'language', value: 'zh', url: origin() }]);
  return opened;
}

describe.each(['desktop', 'phone'] as const)('antd speaks Chinese in Chinese mode (%s)', (device) => {
  it('reads no English on the login sheet, in any tab or on the registration screen', async () => {
    const { context, page, errors } = await openPage(device);
    await page.goto(site(device, '/home'));
    await page.getByTestId('login-entry').click();
    const drawer = page.getByTestId('login-drawer');
    await drawer.getByRole('tab').first().waitFor();
    const found: Record<string, string[]> = {};
    found.password = await antdEnglish(page);
    for (const tab of ['验证码登录', '邮箱登录']) {
      await drawer.getByRole('tab', { name: tab, exact: true }).click();
      found[tab] = await antdEnglish(page);
    }
    await drawer.getByTestId('form-email').getByRole('button', { name: '立即注册' }).click();
    await drawer.getByTestId('screen-register').waitFor();
    found.register = await antdEnglish(page);
    await screenshot(page, `zh-no-english-login-${device}`);
    expect(found).toEqual({ password: [], 验证码登录: [], 邮箱登录: [], register: [] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads no English on the sign-up form with a country, a choice and a date chosen', async () => {
    const { context, page, errors } = await openPage(device);
    await page.goto(site(device, '/my/signup'));
    await loginInDrawer(page, 'zh');
    await page.getByTestId('entry-choose-M').click();
    const people = page.getByTestId('entry-people');
    await people.waitFor();
    await page.waitForLoadState('networkidle');
    const empty = await antdEnglish(page);
    await pickMainlandChina(page, people.getByLabel(publicFormLabel('nationality'), { exact: true }));
    await people.getByLabel(publicFormLabel('bloodType'), { exact: true }).click();
    await page.locator('.ant-select-item-option:visible').filter({ hasText: 'O型' }).click();
    const birthday = people.getByLabel(publicFormLabel('birthday'), { exact: true });
    await birthday.evaluate((input) => input.removeAttribute('readonly'));
    await birthday.click();
    await birthday.fill('1990-01-01');
    await birthday.press('Enter');
    await people.getByLabel(publicFormLabel('name'), { exact: true }).click();
    const filled = await antdEnglish(page);
    await screenshot(page, `zh-no-english-sign-up-${device}`);
    expect({ empty, filled }).toEqual({ empty: [], filled: [] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads no English on the pages of the personal centre, the profile with its height and weight filled', async () => {
    const { context, page, errors } = await openPage(device);
    await page.goto(centre(device, '/my/my-index'));
    await loginInDrawer(page, 'zh');
    const found: Record<string, string[]> = {};
    const pages = ['/my/my-index', '/my/profile', '/my/password', '/my/participants', '/my/refund', '/my/pickup'];
    for (const hash of pages) {
      await page.goto(centre(device, hash));
      await page.waitForLoadState('networkidle');
      await page.getByTestId('main').waitFor();
      if (hash === '/my/profile') {
        await page.getByTestId('profile-form').waitFor();
        await page.getByLabel('身高').fill('175');
        await page.getByLabel('体重').fill('65');
      }
      found[hash] = await antdEnglish(page);
    }
    await screenshot(page, `zh-no-english-centre-${device}`);
    expect(found).toEqual(Object.fromEntries(pages.map((p) => [p, []])));
    expect(errors).toEqual([]);
    await context.close();
  });
});
