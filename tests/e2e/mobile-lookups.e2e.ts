/**
 * The lookups, the certificate verification and the personal centre on the mobile site (issue 16): a phone
 * (viewport, touch, a phone's user agent) on /m/#/…, in Chinese at 390 px and English at 360 px. A score found
 * by bib and by name and certificate number; the verification page the certificate's QR code opens; login
 * through the login sheet of the mobile top bar and the runner's registrations in the personal centre. Each
 * page fits the phone's width (no sideways scrolling) and passes axe (no serious or critical finding, the
 * target-size rule included).
 */
import type { Page } from 'playwright-core';
import { API_PATHS } from '#contract/api';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { sql } from '../../server/src/db/engine';
import { axeFindings, blocking } from './axe';
import { DEMO, loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { repoRoot } from './server-process';
import { serverDataDir, serverPort } from './test-server';

// DEMO_RUNNERS in server/src/db/seed-runners.ts; the 2026 race has results, the bound 2027 race none yet.
const RUNNER = { name: '张伟', id: '320102199001011232', bib: 'A00001', pastRace: 'qc-marathon-2026' };
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const PHONES = {
  zh: { width: 390, height: 844 },
  en: { width: 360, height: 740 },
} as const;
const TEXTS = {
  zh: {
    bib: '请输入参赛号码',
    name: '请输入姓名',
    id: '请输入证件号码',
    byIdentity: '按姓名和证件',
    centre: '个人中心',
  },
  en: {
    bib: 'Enter your bib number',
    name: 'Enter your name',
    id: 'Enter your certificate number',
    byIdentity: 'By name and certificate',
    centre: 'Personal Centre',
  },
} as const;

const browser = useBrowser();
const mobileUrl = (hash: string) => `http://localhost:${serverPort()}/m/#${hash}`;

/** A paid 10 km entry with its bib for the demo runner, put into the database as sign-up and payment leave it. */
async function seedEntry(): Promise<string> {
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  const user = (await repos.users.findByPhone(DEMO.phone))!;
  const entry = await repos.entries.insertEntry({
    raceId: seed.race.raceId,
    itemCode: '10K',
    channel: 'public',
    userId: user.id,
    status: 0,
    holdsPlace: true,
    name: '张三',
    gender: 1,
    birthday: '1990-03-07',
    certType: 1,
    certHash: `mobile-lookups-e2e-${now}`,
    certNumber: '110105199003071239',
    phone: DEMO.phone,
    values: {},
    feeFen: 8000,
    now: now - 100 * 3_600_000,
  });
  const order = await repos.orders.create({
    raceId: seed.race.raceId,
    userId: user.id,
    amountFen: 8000,
    deadlineAt: now - 99 * 3_600_000,
    createdAt: now - 100 * 3_600_000,
    lines: [{ entryId: entry.id, amountFen: 8000 }],
  });
  await repos.orders.markPaid(order.id, { paidFen: 8000, paidAt: now - 99 * 3_600_000, serialNo: 'SB20270110000777' });
  await repos.entries.setStatus(entry.id, [0], 1, 'won', now - 99 * 3_600_000);
  await repos.db.run(sql`UPDATE entries SET bib = 'K2048' WHERE id = ${entry.id}`);
  await db.close();
  return entry.entryNo;
}

/** What the server answers for the runner's 2026 result: its chip time and its certificate's id and signature. */
async function scoreAnswer(): Promise<{ chipTime: string; certificate: { id: string; sig: string } }> {
  const response = await fetch(`http://127.0.0.1:${serverPort()}${API_PATHS.searchScore}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ raceId: RUNNER.pastRace, bib: RUNNER.bib }),
  });
  const { data } = (await response.json()) as {
    data: { chipTime: string; certificate: { id: string; sig: string } }[];
  };
  return data[0]!;
}

/** The page is as wide as the phone: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, state: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${state}: the page scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

async function check(page: Page, state: string): Promise<void> {
  await expectNoSidewaysScroll(page, state);
  // From the top: axe counts a control the sticky top bar covers after a scroll as a too-small target.
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(blocking(await axeFindings(page, state))).toEqual([]);
  await screenshot(page, `mobile-${state}`);
}

let entryNo: string;
let answer: Awaited<ReturnType<typeof scoreAnswer>>;
beforeAll(async () => {
  [entryNo, answer] = await Promise.all([seedEntry(), scoreAnswer()]);
});

describe('lookups and the personal centre on the mobile site', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`finds a score by bib and by name, verifies a certificate, logs in and lists my registrations (${lang})`, async () => {
      const t = TEXTS[lang];
      const { context, page, errors } = await newPage(browser(), {
        viewport: PHONES[lang],
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        userAgent: PHONE_UA,
      });
      await context.addCookies([{ name: 'language', value: lang, url: mobileUrl('/home') }]);

      // Score by bib: the race picker starts on the latest race with results (2026).
      await page.goto(mobileUrl('/score-search'));
      await expect(page.evaluate(() => document.documentElement.dataset.site)).resolves.toBe('mobile');
      // The picker shows once the list has come (until then a search would ask the bound 2027 race, which has
      // no results yet).
      const picker = page.getByTestId('score-race');
      await picker.waitFor();
      await expect.poll(() => picker.inputValue()).toBe(RUNNER.pastRace);
      await page.getByPlaceholder(t.bib).fill(RUNNER.bib);
      await page.locator('form button[type="submit"]').click();
      const card = page.getByTestId('score-result').first();
      await card.waitFor();
      await expect(card.getByTestId('chip-time').textContent()).resolves.toBe(answer.chipTime);
      await check(page, `score-bib-${lang}`);

      // Score by name and certificate number. The bib search's card stays until the new search starts (once antd
      // has validated the form, after the click): the wait is for it to go, then for the new search's card.
      const bibCard = await card.elementHandle();
      await page.getByText(t.byIdentity).click();
      await page.getByPlaceholder(t.name).fill(RUNNER.name);
      await page.getByPlaceholder(t.id).fill(RUNNER.id);
      await page.locator('form button[type="submit"]').click();
      await page.waitForFunction((element) => !element.isConnected, bibCard);
      await card.waitFor();
      await expect(card.getByTestId('chip-time').textContent()).resolves.toBe(answer.chipTime);
      await check(page, `score-identity-${lang}`);

      // The certificate's QR code opens its verification (the same hash on the mobile site).
      const { id, sig } = answer.certificate;
      await page.goto(mobileUrl(`/certificate?${new URLSearchParams({ id, sig }).toString()}`));
      const valid = page.getByTestId('certificate-valid');
      await valid.waitFor();
      await expect(valid.textContent()).resolves.toContain(answer.chipTime);
      await check(page, `certificate-${lang}`);

      // Login through the top bar's login sheet, then my registrations.
      await page.getByTestId('login-entry').click();
      await loginInDrawer(page, lang);
      await expect(page.getByTestId('login-entry').textContent()).resolves.toContain(t.centre);
      await page.goto(mobileUrl('/my/my-index'));
      const entry = page.getByTestId(`entry-${entryNo}`);
      await entry.waitFor();
      await expect(entry.getByTestId('entry-bib').textContent()).resolves.toBe('K2048');
      await check(page, `my-index-${lang}`);

      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
