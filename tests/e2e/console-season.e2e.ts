/**
 * The console's Entry season page (issue 32 §1), in Chinese and English, on a desktop and a tablet: an owner
 * closes the demo race's 10K public channel in the items × channels table (with its confirmation); the public
 * sign-up information says so at once and, on the desktop, a runner's sign-up page shows the item closed for
 * public entry with no button to choose it. On the Codes tab the owner issues codes for 10K, shows that issue's
 * codes and revokes one. The channel is opened again at the end. No serious or critical axe finding.
 */
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { API_PATHS } from '#contract/api';
import { loginInDrawer, newPage, screenshot, siteUrl, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { siteCli } from './site-config';
import { serverPort } from './test-server';

const RACE_ID = seed.race.raceId;
const ITEM = '10K';
const browser = useBrowser();

const TEXT = {
  zh: {
    title: '报名期管理',
    close: /^关 ?闭$/,
    open: /^开 ?启$/,
    closed: '已关闭',
    openState: '报名中',
    codesTab: '邀请码',
    switchesTab: '报名开关',
    issue: /^生 ?成$/,
    issued: /已为.+生成 3 个邀请码/,
    show: /^查 ?看$/,
    revoke: /^作 ?废$/,
    revoked: '已作废',
    siteClosed: '已关闭',
  },
  en: {
    title: 'Entry season',
    close: /^Close$/,
    open: /^Open$/,
    closed: 'Closed',
    openState: 'Open',
    codesTab: 'Codes',
    switchesTab: 'Opening and closing',
    issue: /^Issue$/,
    issued: /^3 codes issued for /,
    show: /^Show them$/,
    revoke: /^Revoke$/,
    revoked: 'Revoked',
    siteClosed: 'Closed',
  },
} as const;

// The test files share one server: whatever this file closed is opened again.
afterAll(async () => {
  await siteCli('entry-open', RACE_ID, '--item', ITEM, '--channel', 'public');
});

/** The public sign-up information's closed channels of the item (the API the sign-up page reads). */
async function closedOnSite(): Promise<string[]> {
  const res = await fetch(`http://localhost:${serverPort()}${API_PATHS.entryInfo}?raceId=${RACE_ID}`);
  const body = (await res.json()) as { data: { items: { code: string; closedChannels?: string[] }[] } };
  return body.data.items.find((item) => item.code === ITEM)?.closedChannels ?? [];
}

/** A screenshot from the top of the page (the console's bar stays at the top of the picture). */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** Flips a switch and confirms it in the dialog. */
async function flip(page: Page, testId: string, confirm: RegExp) {
  await page.getByTestId(testId).click();
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.getByRole('button', { name: confirm }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the entry season page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'an owner closes 10K public entry, the site follows; issues and revokes codes (%s)',
    async (lang) => {
      const text = TEXT[lang];
      const { page, context, errors } = await newPage(browser(), options);
      await signInToConsole(page, { role: 'owner', language: lang });
      await page.goto(consoleUrl(`/races/${RACE_ID}/season`));
      const main = page.getByTestId('season-page');
      await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();
      const cell = page.getByTestId(`season-state-${ITEM}-public`);
      await expect.poll(async () => (await cell.count()) > 0 && (await cell.innerText()).trim()).toBe(text.openState);
      await expectAccessible(page, `console season ${lang} ${device}`);
      await shot(page, `console-season-${device}-${lang}`);

      // Close the item's public channel: the cell reads closed, and so does the public API.
      await flip(page, `season-switch-${ITEM}-public`, text.close);
      await expect.poll(async () => (await cell.innerText()).trim()).toBe(text.closed);
      await expect(closedOnSite()).resolves.toEqual(['public']);
      await expectAccessible(page, `console season closed ${lang} ${device}`);
      await shot(page, `console-season-closed-${device}-${lang}`);

      if (device === 'desktop') {
        // A runner's sign-up page: the item reads closed for public entry and cannot be chosen.
        const runner = await newPage(browser(), { viewport: { width: 1280, height: 900 } });
        const origin = `http://localhost:${serverPort()}`;
        await runner.context.addCookies([{ name: 'language', value: lang, url: origin }]);
        await runner.page.goto(siteUrl('localhost', '/my/signup'));
        await loginInDrawer(runner.page, lang);
        const card = runner.page.getByTestId(`entry-item-${ITEM}`);
        await runner.page.getByTestId(`entry-item-closed-${ITEM}`).waitFor();
        await expect(runner.page.getByTestId(`entry-item-closed-${ITEM}`).innerText()).resolves.toBe(text.siteClosed);
        await expect(card.getByTestId(`entry-choose-${ITEM}`).count()).resolves.toBe(0);
        await card.scrollIntoViewIfNeeded();
        await screenshot(runner.page, `console-season-site-closed-${lang}`);
        await runner.context.close();
        expect(runner.errors).toEqual([]);
      }

      // Codes: issue three for the item, show that issue's codes, revoke one.
      await main.getByRole('tab', { name: text.codesTab }).click();
      const form = page.getByTestId('season-issue-form');
      await form.getByTestId('season-issue-item').click();
      await page
        .locator('.ant-select-item-option')
        .filter({ hasText: `(${ITEM})` })
        .click();
      await form.getByTestId('season-issue-count').fill('3');
      await form.getByTestId('season-issue-note').fill(`e2e ${device} ${lang}`);
      await form.getByRole('button', { name: text.issue }).click();
      const issued = page.getByTestId('season-issued');
      await issued.waitFor();
      await expect(issued.innerText()).resolves.toMatch(text.issued);
      await issued.getByRole('button', { name: text.show }).click();
      const rows = page.getByTestId('season-codes').locator('.ant-table-row');
      await expect.poll(() => rows.count()).toBe(3);
      const first = rows.first();
      await first.getByRole('button', { name: text.revoke }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: text.revoke }).click();
      await expect.poll(async () => first.innerText()).toContain(text.revoked);
      if (device === 'desktop') {
        // An import with bad rows: every problem by line, nothing imported.
        const csv = 'itemCode,name,certificateType,certificateNumber\nXX,张三,1,123\n';
        await main
          .locator('input[type=file]')
          .setInputFiles({ name: 'vip.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
        const problems = page.getByTestId('season-import-problems');
        await problems.waitFor();
        await expect(problems.innerText()).resolves.toContain('line 2: itemCode');
      }
      await expectAccessible(page, `console season codes ${lang} ${device}`);
      await shot(page, `console-season-codes-${device}-${lang}`);

      // Open the channel again.
      await main.getByRole('tab', { name: text.switchesTab }).click();
      await flip(page, `season-switch-${ITEM}-public`, text.open);
      await expect.poll(async () => (await cell.innerText()).trim()).toBe(text.openState);
      await expect(closedOnSite()).resolves.toEqual([]);
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
