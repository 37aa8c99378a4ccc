/**
 * The direct-pass application's steps read at WCAG AA contrast (issue 28: the second step's title, waiting
 * grey, read at 3.36:1). axe's color-contrast rule, with the rest of its rules, on both steps (the notice, then
 * the form) at 1366 px and on a 360 px phone, in Chinese and English, for a runner who has not applied yet.
 */
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { axeFindings, blocking } from './axe';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { fromNow } from './demo-form';
import { repoRoot } from './server-process';
import { addRace } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const PASSWORD = 'Runner2027';
const stamp = String(Date.now() % 1000).padStart(3, '0');
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const DEVICES = {
  desktop: { viewport: { width: 1366, height: 900 } },
  phone: { viewport: { width: 360, height: 740 }, userAgent: PHONE_UA, isMobile: true, hasTouch: true },
} as const;
const NEXT = { zh: '我已阅读，下一步', en: 'I have read it, next' } as const;
/** One account per device and language: none has applied, so each starts at the notice. */
const phoneOf = (n: number) => `1772${stamp}${String(n).padStart(4, '0')}`;

beforeAll(async () => {
  await addRace({ ...seed.race, directApplication: { startTime: fromNow(-1), endTime: fromNow(60) } });
  const { db, repos } = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: `${repoRoot}/server/seed`,
    now: Date.now(),
  });
  const passwordHash = await hashPassword(PASSWORD);
  for (let n = 1; n <= 4; n += 1) await repos.users.create({ phone: phoneOf(n), passwordHash }, Date.now());
  await db.close();
});
// The test files share one server: the demo race goes back to its seeded settings for the files after this one.
afterAll(() => addRace(seed.race));

/** axe's findings of contrast (any impact) and every serious or critical one, in the page as it is now. */
async function contrast(page: Page, state: string) {
  await page.waitForTimeout(350);
  const findings = await axeFindings(page, state);
  return { contrast: findings.filter((f) => f.rule === 'color-contrast'), blocking: blocking(findings) };
}

describe.each(['desktop', 'phone'] as const)('the direct-pass steps (%s)', (device) => {
  it.each(['zh', 'en'] as const)('read at AA contrast on the notice and the form (%s)', async (lang) => {
    const { context, page, errors } = await newPage(browser(), DEVICES[device]);
    const origin = `http://localhost:${serverPort()}`;
    await context.addCookies([{ name: 'language', value: lang, url: origin }]);
    await page.goto(`${origin}${device === 'phone' ? '/m/' : '/'}#/direct`);
    const n = (device === 'phone' ? 2 : 0) + (lang === 'en' ? 2 : 1);
    await loginInDrawer(page, lang, { phone: phoneOf(n), password: PASSWORD });
    const direct = page.getByTestId('direct-page');
    await direct.getByTestId('direct-notice').waitFor();
    await direct.locator('.rs-steps').waitFor();
    const notice = await contrast(page, `direct notice ${device} ${lang}`);
    await screenshot(page, `direct-steps-notice-${device}-${lang}`);
    await direct.getByRole('button', { name: NEXT[lang] }).click();
    await direct.locator('form').first().waitFor();
    const form = await contrast(page, `direct form ${device} ${lang}`);
    expect({ notice, form }).toEqual({
      notice: { contrast: [], blocking: [] },
      form: { contrast: [], blocking: [] },
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
