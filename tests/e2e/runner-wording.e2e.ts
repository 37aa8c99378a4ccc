/**
 * What the public site says to a runner (#27), seen in Chromium on the desktop site and on the mobile site at
 * 360 px, in Chinese and English: a first-come entry reads "registered" / "awaiting payment" and a ballot entry
 * "awaiting the draw" with a link to the public ballot page (personal centre); the registration lookup links
 * the ballot page for a registration by draw; the sandbox cashier names the race in the page's language; the
 * language page is reached from the language toggle (banner, mobile menu) and names the event of the site it
 * is on, never the demo event.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { ENTRY_STATUSES } from '#contract/entry';
import type { SiteConfig } from '#contract/site-config/schema';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { appDrawn, loginInDrawer, newPage, SCREENSHOT_DIR, screenshot, useBrowser, saveScreenshot } from './browser';
import { repoRoot } from './server-process';
import { addRace, fetchSiteConfig, publishForDomain } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const RACE_ID = seed.race.raceId;
const PASSWORD = 'Runner2027';
const PHONE_NO = `1771${String(Date.now() % 10_000_000).padStart(7, '0')}`;
const OTHER_DOMAIN = 'other-event.localhost';
const PHONE = {
  viewport: { width: 360, height: 740 },
  userAgent:
    'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
type Site = 'desktop' | 'mobile';
type Lang = 'zh' | 'en';
const SITES = [
  ['desktop', 'zh'],
  ['desktop', 'en'],
  ['mobile', 'zh'],
  ['mobile', 'en'],
] as const;

const browser = useBrowser();
const entryNos: Record<'tenK' | 'marathon', string> = { tenK: '', marathon: '' };

/** A runner with an unpaid first-come 10 km entry (its order open) and a ballot marathon entry awaiting the draw. */
async function createRunner() {
  const { db, repos } = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: `${repoRoot}/server/seed`,
    now: Date.now(),
  });
  try {
    const now = Date.now();
    const userId = await repos.users.create({ phone: PHONE_NO, passwordHash: await hashPassword(PASSWORD) }, now);
    const person = (n: number) => ({
      raceId: RACE_ID,
      channel: 'public' as const,
      userId,
      name: '钱七',
      gender: 1 as const,
      birthday: '1990-01-01',
      certType: 1 as const,
      certHash: `runner-wording-${now}-${n}`,
      certNumber: `11010119900101${String(1000 + n)}`,
      phone: PHONE_NO,
      values: {},
      now,
    });
    await repos.transaction(async (tx) => {
      expect(await tx.entries.takePlace(RACE_ID, '10K', 'main', 1)).toBe(true);
      const tenK = await tx.entries.insertEntry({
        ...person(1),
        itemCode: '10K',
        status: ENTRY_STATUSES.submitted,
        holdsPlace: true,
        feeFen: 8000,
      });
      await tx.orders.create({
        raceId: RACE_ID,
        userId,
        amountFen: 8000,
        deadlineAt: now + 25 * 60_000,
        createdAt: now,
        lines: [{ entryId: tenK.id, amountFen: 8000 }],
      });
      const marathon = await tx.entries.insertEntry({
        ...person(2),
        itemCode: 'M',
        status: ENTRY_STATUSES.submitted,
        holdsPlace: false,
        feeFen: 20000,
      });
      entryNos.tenK = tenK.entryNo;
      entryNos.marathon = marathon.entryNo;
    });
  } finally {
    await db.close();
  }
}

let published: SiteConfig;
beforeAll(async () => {
  published = await fetchSiteConfig();
  await createRunner();
  // Another event on its own domain: its language page must name it, not the demo event.
  await addRace({
    raceId: 'other-2028',
    raceName: '2028 江湾半程马拉松',
    raceNameEn: '2028 Riverbend Half Marathon',
    startTime: '2028-03-12 07:30:00',
  });
  await publishForDomain(OTHER_DOMAIN, 'other-2028', {
    ...published,
    websiteTitle: '江湾半程马拉松',
    websiteTitleEn: 'Riverbend Half Marathon',
  });
});

async function open(site: Site, lang: Lang, host = 'localhost') {
  const opened = await newPage(browser(), site === 'mobile' ? PHONE : {});
  const origin = `http://${host}:${serverPort()}`;
  await opened.context.addCookies([{ name: 'language', value: lang, url: origin }]);
  return { ...opened, base: `${origin}${site === 'mobile' ? '/m/' : '/'}#` };
}

const closeUp = (page: Page, testId: string, name: string) =>
  saveScreenshot(page.getByTestId(testId).first(), path.join(SCREENSHOT_DIR, `${name}.png`));

const WORDS = {
  zh: { placed: '已提交，待支付', draw: '已提交，等待抽签', ballot: '查看抽签公示', race: '2027 青川运河马拉松' },
  en: {
    placed: 'Submitted, awaiting payment',
    draw: 'Submitted, awaiting the draw',
    ballot: 'See the ballot',
    race: '2027 Qingchuan Grand Canal Marathon',
  },
} as const;

describe('what the site says to a runner', () => {
  it.each(SITES)(
    'personal centre (%s, %s): first come reads awaiting payment, the ballot entry links the ballot page',
    async (site, lang) => {
      const { context, page, errors, base } = await open(site, lang);
      await page.goto(`${base}/my/my-index`);
      await loginInDrawer(page, lang, { phone: PHONE_NO, password: PASSWORD });
      const tenK = page.getByTestId(`entry-${entryNos.tenK}`);
      const marathon = page.getByTestId(`entry-${entryNos.marathon}`);
      await marathon.waitFor();
      expect(await tenK.getByTestId('entry-status').textContent()).toBe(WORDS[lang].placed);
      expect(await tenK.getByTestId('entry-ballot-link').count()).toBe(0);
      expect(await marathon.getByTestId('entry-status').textContent()).toBe(WORDS[lang].draw);
      expect(await marathon.getByTestId('entry-ballot-link').textContent()).toBe(WORDS[lang].ballot);
      await screenshot(page, `wording-centre-${site}-${lang}`);
      await closeUp(page, `entry-${entryNos.tenK}`, `wording-centre-${site}-${lang}-10k`);
      await closeUp(page, `entry-${entryNos.marathon}`, `wording-centre-${site}-${lang}-marathon`);

      await marathon.getByTestId('entry-ballot-link').click();
      await page.getByTestId('ballot-page').waitFor();
      if (site === 'desktop' && lang === 'zh') {
        await page.goto(`${base}/my/my-index`);
        // The sandbox cashier of the 10 km order, in Chinese, then in English: the race's name in each.
        await tenK.getByTestId('order-pay').click();
        await page.waitForURL(/\/pay\/sandbox\/cashier/);
        expect(await page.locator('dd').first().textContent()).toBe(WORDS.zh.race);
        // The cashier's CSP allows no injected style: a plain screenshot.
        await saveScreenshot(page, path.join(SCREENSHOT_DIR, 'wording-cashier-zh.png'), { fullPage: true });
        await page.locator('a.lang').click();
        await page.waitForURL(/lang=en/);
        expect(await page.locator('dd').first().textContent()).toBe(WORDS.en.race);
        await saveScreenshot(page, path.join(SCREENSHOT_DIR, 'wording-cashier-en.png'), { fullPage: true });
      }
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it.each(SITES)('registration lookup (%s, %s): a registration by draw links the ballot page', async (site, lang) => {
    const { context, page, errors, base } = await open(site, lang);
    await page.goto(`${base}/registration-search`);
    // DEMO_RUNNERS[0] (server/src/db/seed-runners.ts): the marathon, a ballot item of the demo race.
    await page.getByPlaceholder(lang === 'zh' ? '请输入姓名' : 'Enter your name').fill('张伟');
    await page
      .getByPlaceholder(lang === 'zh' ? '请输入证件号码' : 'Enter your certificate number')
      .fill('320102199001011232');
    await page.getByRole('button', { name: lang === 'zh' ? '查询' : 'Search', exact: true }).click();
    const link = page.getByTestId('registration-ballot-link');
    await link.waitFor();
    expect(await link.textContent()).toBe(WORDS[lang].ballot);
    await screenshot(page, `wording-lookup-${site}-${lang}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(SITES)(
    'language page (%s, %s): reached from the language toggle, names the event of its own site',
    async (site, lang) => {
      const { context, page, errors, base } = await open(site, lang, OTHER_DOMAIN);
      await page.goto(`${base}/home`);
      if (site === 'mobile') await page.getByTestId('mobile-menu-button').click();
      else {
        await appDrawn(page);
        await saveScreenshot(
          page.locator('.banner__actions'),
          path.join(SCREENSHOT_DIR, `wording-i18n-toggle-${lang}.png`),
        );
      }
      await page.getByTestId('language-page-link').click();
      const sample = page.getByTestId('sample-text');
      await sample.waitFor();
      expect(await sample.textContent()).toBe(
        lang === 'zh' ? '欢迎参加2028江湾半程马拉松' : 'Welcome to 2028 Riverbend Half Marathon',
      );
      expect(await page.getByTestId('i18n-page').textContent()).not.toMatch(/青川|Qingchuan/);
      await screenshot(page, `wording-i18n-${site}-${lang}`);

      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
