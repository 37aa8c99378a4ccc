/**
 * Every way in is reachable on a phone (issue 28): on the mobile site's login sheet at 360 px, in Chinese and
 * English, each of the three tabs is in view and on top at its centre (nothing, such as the sheet's header with
 * its close button, lies over it), a real click at that point selects it, and from the e-mail tab 立即注册 /
 * Register now opens the e-mail registration screen and 忘记密码？ / Forgot password? offers both ways to reset.
 * The desktop drawer (1440 px) is walked the same way. A tap is a mouse click at the centre of the box, not
 * Playwright's actionability-checked click, which would scroll or retry past what covers the tab.
 */
import type { Locator, Page } from 'playwright-core';
import path from 'node:path';
import { appDrawn, newPage, SCREENSHOT_DIR, useBrowser, saveScreenshot } from './browser';
import { serverPort } from './test-server';

const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const TEXTS = {
  zh: {
    login: '请登录',
    tabs: ['验证码登录', '账号密码登录', '邮箱登录'],
    register: '立即注册',
    registerTitle: '邮箱注册',
    forgot: '忘记密码？',
    resets: ['通过邮箱找回', '通过手机号找回'],
    back: '返回登录',
  },
  en: {
    login: 'Please log in',
    tabs: ['Verification code login', 'Account password login', 'Email login'],
    register: 'Register now',
    registerTitle: 'Register by email',
    forgot: 'Forgot password?',
    resets: ['Reset by email', 'Reset by phone'],
    back: 'Back to login',
  },
} as const;

const browser = useBrowser();
const origin = () => `http://localhost:${serverPort()}`;

function open(device: 'phone' | 'desktop') {
  return newPage(
    browser(),
    device === 'phone'
      ? {
          viewport: { width: 360, height: 740 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
          userAgent: PHONE_UA,
        }
      : { viewport: { width: 1440, height: 900 } },
  );
}

/** Waits until the element stops moving (the sheet slides in). */
async function settled(target: Locator): Promise<void> {
  let last = '';
  await expect
    .poll(async () => {
      const box = await target.boundingBox();
      const now = box ? `${Math.round(box.x)},${Math.round(box.y)}` : '';
      const still = now !== '' && now === last;
      last = now;
      return still;
    })
    .toBe(true);
}

/**
 * Taps the control at the centre of its box, as a finger would: the point must be inside the viewport and the
 * element on top there must be the control itself (or inside it).
 */
/** What the visitor sees (the sheet over the page): the viewport, not the full page. */
const snap = (page: Page, name: string) => saveScreenshot(page, path.join(SCREENSHOT_DIR, `${name}.png`));

async function tapAtCentre(page: Page, target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  expect(box, `${what}: not rendered`).not.toBeNull();
  const viewport = page.viewportSize()!;
  const x = box!.x + box!.width / 2;
  const y = box!.y + box!.height / 2;
  expect(x >= 0 && x <= viewport.width && y >= 0 && y <= viewport.height, `${what}: off-screen at ${x},${y}`).toBe(
    true,
  );
  const onTop = await target.evaluate(
    (el, [px, py]) => {
      const hit = document.elementFromPoint(px, py);
      return hit !== null && (el === hit || el.contains(hit));
    },
    [x, y] as const,
  );
  expect(onTop, `${what}: something else lies over its centre`).toBe(true);
  await page.mouse.click(x, y);
}

describe('the login sheet shows and reaches every way in', () => {
  for (const device of ['phone', 'desktop'] as const) {
    for (const lang of ['zh', 'en'] as const) {
      it(`taps each tab, register and forgot password (${device === 'phone' ? '360 px' : '1440 px'}, ${lang})`, async () => {
        const t = TEXTS[lang];
        const { context, page, errors } = await open(device);
        await context.addCookies([{ name: 'language', value: lang, url: origin() }]);
        await page.goto(`${origin()}${device === 'phone' ? '/m/' : '/'}#/home`);
        // The home page the server drew has the login button too: a sheet it opened goes when the app takes over.
        await appDrawn(page);
        const entry = page.getByTestId('login-entry');
        await expect.poll(() => entry.textContent()).toContain(t.login);
        await entry.click();
        const drawer = page.getByTestId('login-drawer');
        await drawer.waitFor();
        const tabs = drawer.getByRole('tab');
        await tabs.first().waitFor();
        await settled(tabs.first());
        const name = `login-sheet-${device}-${lang}`;
        await snap(page, name);

        // All three tabs, none hidden behind an overflow menu.
        expect(await tabs.allTextContents()).toEqual([...t.tabs]);
        for (const label of t.tabs) {
          const tab = drawer.getByRole('tab', { name: label, exact: true });
          await tapAtCentre(page, tab, `${label} tab`);
          await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
        }
        await snap(page, `${name}-email-tab`);

        // From the e-mail tab: forgot password offers both ways, register opens the registration screen.
        const form = drawer.getByTestId('form-email');
        await form.waitFor();
        await tapAtCentre(page, form.getByRole('button', { name: t.forgot }), t.forgot);
        const choice = form.getByTestId('reset-choice');
        for (const label of t.resets) await choice.getByRole('button', { name: label }).waitFor();
        await tapAtCentre(page, choice.getByRole('button', { name: t.resets[0] }), t.resets[0]);
        await drawer.getByTestId('screen-resetEmail').waitFor();
        await tapAtCentre(page, drawer.getByRole('button', { name: `‹ ${t.back}` }), t.back);
        await tapAtCentre(page, form.getByRole('button', { name: t.register }), t.register);
        const register = drawer.getByTestId('screen-register');
        await register.getByRole('heading', { name: t.registerTitle }).waitFor();
        await snap(page, `${name}-register`);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});
