/**
 * The console's dashboard (issue 30 §4) end to end: the demo race's figures in cards, tables and two charts
 * (each an image named by its summary, with its figures as a table), money for an owner and none for an
 * observer, the "updated" time, in Chinese and English on a desktop and a tablet with no serious or critical
 * axe finding; and an entry written after the page opened shows on it without a reload.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { newPage, screenshot, useBrowser } from './browser';
import { DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { repoRoot } from './server-process';
import { serverDataDir } from './test-server';

const browser = useBrowser();
const RACE = seed.race.raceId;
const DASHBOARD = `/races/${RACE}/dashboard`;

/** Writes one public marathon entry of the demo race, as the sign-up leaves it (submitted). */
async function addEntry() {
  const now = Date.now();
  const opened = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const tag = randomBytes(4).toString('hex');
    const userId = await opened.repos.users.create({ phone: `137${String(now).slice(-8)}` }, now);
    await opened.repos.entries.insertEntry({
      raceId: RACE,
      itemCode: 'M',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: false,
      name: '看板测试',
      gender: 1,
      birthday: '1990-03-07',
      certType: 1,
      certHash: `dashboard-e2e-${tag}`,
      certNumber: '110105199003071239',
      phone: `137${String(now).slice(-8)}`,
      values: {},
      feeFen: 20000,
      now,
    });
  } finally {
    await opened.db.close();
  }
}

/** The number a card shows (digits only). */
async function cardNumber(page: Page, testId: string): Promise<number> {
  const text = await page.getByTestId(testId).locator('.ant-statistic-content').innerText();
  return Number(text.replace(/\D/g, ''));
}

const TEXT = {
  zh: {
    entries: '报名总数',
    received: '已收款',
    perHour: '每小时报名数',
    asTable: '以表格查看数据',
    updated: '更新于',
  },
  en: {
    entries: 'Entries',
    received: 'Money received',
    perHour: 'Entries per hour',
    asTable: 'Show the figures as a table',
    updated: 'Updated',
  },
} as const;

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the dashboard (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('shows the race’s figures, money and charts to an owner (%s)', async (lang) => {
    const { context, page, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'owner', language: lang, hash: DASHBOARD });
    const dashboard = page.getByTestId('dashboard-page');
    await dashboard.waitFor();
    const text = TEXT[lang];
    await expect.poll(() => page.getByTestId('dashboard-entries').innerText()).toContain(text.entries);
    await expect.poll(() => page.getByTestId('dashboard-received').innerText()).toContain(text.received);
    await expect.poll(() => page.getByTestId('dashboard-updated').innerText()).toMatch(/\d\d:\d\d:\d\d/);
    expect(await page.getByTestId('dashboard-updated').innerText()).toContain(text.updated);
    // Each chart is an image named by its summary, with its figures one click away as a table.
    const perHour = page.getByTestId('dashboard-per-hour');
    const label = await perHour.locator('.dashboard-chart__canvas').getAttribute('aria-label');
    expect(await perHour.locator('.dashboard-chart__canvas').getAttribute('role')).toBe('img');
    expect(label).toContain(text.perHour);
    await perHour.getByText(text.asTable).click();
    expect(await perHour.locator('tbody tr').count()).toBe(48);
    await expect.poll(() => page.locator('[data-testid="dashboard-per-day"] svg').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('dashboard-items').locator('tbody tr').count()).toBeGreaterThan(2);
    await expectAccessible(page, `console dashboard ${lang} ${device}`);
    await screenshot(page, `console-dashboard-${device}-${lang}`);
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe('the dashboard for an observer', () => {
  it.each(['zh', 'en'] as const)('shows no money (%s)', async (lang) => {
    const { context, page, errors } = await newPage(browser(), DESKTOP);
    await signInToConsole(page, { role: 'observer', language: lang, hash: DASHBOARD });
    await page.getByTestId('dashboard-money-hidden').waitFor();
    expect(await page.getByTestId('dashboard-received').count()).toBe(0);
    await page.getByTestId('dashboard-entries').waitFor();
    await expectAccessible(page, `console dashboard observer ${lang}`);
    await screenshot(page, `console-dashboard-observer-${lang}`);
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe('the dashboard live', () => {
  it('shows an entry written after the page opened, without a reload', async () => {
    const { context, page, errors } = await newPage(browser(), DESKTOP);
    await signInToConsole(page, { role: 'observer', language: 'en', hash: DASHBOARD });
    await page.getByTestId('dashboard-entries').waitFor();
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    const before = await cardNumber(page, 'dashboard-entries');
    await addEntry();
    // The page asks every 5 s and the server keeps figures 2 s: the new entry shows within about 7 s.
    await expect.poll(() => cardNumber(page, 'dashboard-entries'), { timeout: 30_000 }).toBe(before + 1);
    expect(navigations).toBe(0);
    await context.close();
    expect(errors).toEqual([]);
  });
});
