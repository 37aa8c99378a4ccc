/**
 * The console's Races and Race settings pages (issue 33 §3), in Chinese and English, on a desktop and a tablet:
 * an owner creates a race (the race picker lists it at once and the console opens its settings), adds an item
 * and saves it, changes its fee and capacity, binds a domain on the races page, and the public API answers the
 * new race for that domain. On the demo race, a capacity below the places taken is refused with its reason: as
 * it is typed, and by the server when a place is taken after the page was opened. The JSON tab lists a broken
 * document's problems by path, and leaving with unsaved changes asks first. No serious or critical axe finding.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { API_PATHS } from '#contract/api';
import { openDatabase } from '../../server/src/db/database';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { repoRoot } from './server-process';
import { serverDataDir, serverPort } from './test-server';
import { unpaidOrders } from './unpaid-orders';

const DEMO_RACE = seed.race.raceId;
const DEMO_NAME = { zh: seed.race.raceName, en: seed.race.raceNameEn };
const browser = useBrowser();

const TEXT = {
  zh: {
    races: '赛事',
    race: '赛事设置',
    created: /已创建赛事/,
    saved: '已保存',
    belowTaken: /已占用 \d+ 个，不能更低/,
    refused: /项目 10K 已有 \d+ 个名额被占用，名额不能改为 \d+，未保存/,
    items: '项目',
    json: 'JSON',
    leaveTitle: '离开此页？',
    stay: '留在此页',
    leave: '放弃修改并离开',
    bound: /已绑定/,
  },
  en: {
    races: 'Races',
    race: 'Race settings',
    created: /^Race .+ created$/,
    saved: 'Saved',
    belowTaken: /\d+ taken: not lower/,
    refused: /Item 10K already has \d+ places taken: its capacity cannot be \d+\. Nothing saved/,
    items: 'Items',
    json: 'JSON',
    leaveTitle: 'Leave this page?',
    stay: 'Stay',
    leave: 'Discard and leave',
    bound: /bound$/,
  },
} as const;

/** One more place of the demo race's 10K taken, as a sign-up takes it (an unpaid entry holding its place). */
async function takeDemoPlace(): Promise<void> {
  const phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await unpaidOrders(serverDataDir(), phone, 1);
  const { db, repos } = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: `${repoRoot}/server/seed`,
    now: Date.now(),
  });
  try {
    expect(await repos.entries.takePlace(DEMO_RACE, '10K', 'main', 1)).toBe(true);
  } finally {
    await db.close();
  }
}

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** The race settings page's tab `name`, opened. */
async function openTab(page: Page, name: string) {
  await page.getByTestId('race-page').getByRole('tab', { name, exact: true }).click();
}

const api = (path: string, init?: RequestInit) => fetch(`http://localhost:${serverPort()}${path}`, init);

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the races and race settings pages (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'an owner creates a race, sets an item, binds a domain; a capacity below the places taken is refused (%s)',
    async (lang) => {
      const text = TEXT[lang];
      const suffix = randomBytes(3).toString('hex');
      const raceId = `e2e-${device}-${lang}-${suffix}`;
      const name = { zh: `E2E 测试赛 ${suffix}`, en: `E2E Test Race ${suffix}` };
      const domain = `run-${suffix}.e2e.example`;
      const { page, context, errors } = await newPage(browser(), options);
      await signInToConsole(page, { role: 'owner', language: lang });

      // The races page: the demo race with its domains, and the new race form.
      await page.goto(consoleUrl('/races'));
      const races = page.getByTestId('races-page');
      await races.getByRole('heading', { name: text.races, level: 1 }).waitFor();
      await page.getByTestId(`races-open-${DEMO_RACE}`).waitFor();
      await expectAccessible(page, `console races ${lang} ${device}`);
      await shot(page, `console-races-${device}-${lang}`);

      await page.getByTestId('new-race-id').fill(raceId);
      await page.getByTestId('new-race-zh').fill(name.zh);
      await page.getByTestId('new-race-en').fill(name.en);
      await page.getByTestId('new-race-start').fill('2027-10-17 07:30:00');
      await page.getByTestId('new-race-place').fill(lang === 'zh' ? '滨江公园' : 'Riverside Park');
      await page.getByTestId('new-race-submit').click();

      // Its settings open, and the race picker lists it at once.
      const settings = page.getByTestId('race-page');
      await settings.getByRole('heading', { name: text.race, level: 1 }).waitFor();
      await expect.poll(() => page.url()).toContain(`/races/${raceId}/race`);
      await expect.poll(() => page.getByTestId('console-race-picker').innerText()).toContain(name[lang]);
      await expect(page.getByTestId('race-name-zh').inputValue()).resolves.toBe(name.zh);
      await expectAccessible(page, `console race basics ${lang} ${device}`);
      await shot(page, `console-race-basics-${device}-${lang}`);

      // An item, saved; then its fee and capacity changed and saved.
      await openTab(page, text.items);
      await page.getByTestId('item-add').click();
      await page.getByTestId('item-code-0').fill('10K');
      await page.getByLabel(lang === 'zh' ? '10K 的中文名称' : 'Chinese name of 10K').fill('10公里');
      await page.getByLabel(lang === 'zh' ? '10K 的英文名称' : 'English name of 10K').fill('10 km');
      await page.getByTestId('item-fee-0').fill('80');
      await page.getByTestId('item-capacity-0').fill('300');
      await page.getByTestId('race-save').click();
      await page.getByText(text.saved, { exact: true }).first().waitFor();
      await expect.poll(() => page.getByTestId('race-dirty').count()).toBe(0);
      await page.getByTestId('item-fee-0').fill('99.5');
      await page.getByTestId('item-capacity-0').fill('250');
      await expectAccessible(page, `console race items ${lang} ${device}`);
      await shot(page, `console-race-items-${device}-${lang}`);
      await page.getByTestId('race-save').click();
      await expect.poll(() => page.getByTestId('race-dirty').count()).toBe(0);
      const info = await api(`${API_PATHS.entryInfo}?raceId=${raceId}`);
      const item = ((await info.json()) as { data: { items: { code: string; feeFen: number; capacity?: number }[] } })
        .data.items[0];
      expect(item).toMatchObject({ code: '10K', feeFen: 9950 });

      // The JSON tab: a broken document's problems by path; leaving asks first.
      if (device === 'desktop') {
        await openTab(page, text.json);
        const editor = page.getByTestId('race-json-editor').locator('.cm-content');
        await editor.click();
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.type(`{"raceId": "${raceId}", "raceName": "", "timeZone": "Mars/Base"}`);
        const problems = page.getByTestId('race-json-problems');
        await problems.waitFor();
        await expect.poll(() => problems.innerText()).toContain('$.timeZone');
        // The server's problems (answered after the editor's own lint ran) are underlined in the editor too.
        await expect
          .poll(() => page.getByTestId('race-json-editor').locator('.cm-lintRange-error').count())
          .toBeGreaterThan(0);
        await expectAccessible(page, `console race json ${lang} ${device}`);
        await shot(page, `console-race-json-${device}-${lang}`);
        await page.locator('.console-sider').getByRole('link', { name: text.races, exact: true }).click();
        const dialog = page.locator('.ant-modal-confirm');
        await dialog.locator('.ant-modal-confirm-title').filter({ hasText: text.leaveTitle }).waitFor();
        await dialog.getByRole('button', { name: text.stay }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(page.url()).toContain(`/races/${raceId}/race`);
        // Another race chosen in the top bar asks too.
        await page.getByTestId('console-race-picker').click();
        await page.locator('.ant-select-item-option').filter({ hasText: DEMO_NAME[lang] }).click();
        await dialog.getByRole('button', { name: text.stay }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(page.url()).toContain(`/races/${raceId}/race`);
        await page.locator('.console-sider').getByRole('link', { name: text.races, exact: true }).click();
        await dialog.getByRole('button', { name: text.leave }).click();
      } else {
        await page.goto(consoleUrl('/races'));
      }

      // The races page: bind a domain to the new race; the public API answers the race for it.
      await races.getByRole('heading', { name: text.races, level: 1 }).waitFor();
      await page.getByTestId(`bind-${raceId}`).click();
      await page.getByTestId('bind-domain').fill(domain);
      await page.getByTestId('bind-submit').click();
      await page.getByText(text.bound).first().waitFor();
      await expect.poll(() => page.getByTestId(`races-domains-${raceId}`).innerText()).toContain(domain);
      await expectAccessible(page, `console races bound ${lang} ${device}`);
      await shot(page, `console-races-bound-${device}-${lang}`);
      const binding = await (await api(`${API_PATHS.raceByDomain}?domainName=${domain}`)).json();
      expect(binding).toMatchObject({ code: 0, data: { raceId } });
      const base = await (
        await api(API_PATHS.raceBaseInfo, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ raceId }),
        })
      ).json();
      expect(base).toMatchObject({ code: 0, data: { raceId, raceName: name.zh, raceNameEn: name.en } });

      if (device === 'desktop') {
        // The demo race: a capacity below the places taken, refused as typed and by the server.
        await takeDemoPlace();
        await page.goto(consoleUrl(`/races/${DEMO_RACE}/race`));
        await settings.getByRole('heading', { name: text.race, level: 1 }).waitFor();
        await openTab(page, text.items);
        const row = page
          .getByTestId('race-items')
          .locator('.ant-table-row')
          .filter({ has: page.getByTestId('item-taken-10K') });
        const taken = Number((await page.getByTestId('item-taken-10K').innerText()).split('/')[0]!.trim());
        expect(taken).toBeGreaterThan(0);
        const capacity = row.locator('input[data-testid^="item-capacity-"]');
        await capacity.fill(String(taken - 1));
        await row.getByText(text.belowTaken).waitFor();
        // The message shows with the typed value; the items' errors reach the save button a render later.
        await expect.poll(() => page.getByTestId('race-save').isDisabled()).toBe(true);
        await shot(page, `console-race-below-typed-${device}-${lang}`);
        // The capacity at the places taken passes here; a place taken meanwhile makes the server refuse it.
        await capacity.fill(String(taken));
        await takeDemoPlace();
        await page.getByTestId('race-save').click();
        const refused = page.getByTestId('race-refused');
        await refused.waitFor();
        await expect(refused.innerText()).resolves.toMatch(text.refused);
        await expectAccessible(page, `console race refused ${lang} ${device}`);
        await shot(page, `console-race-refused-${device}-${lang}`);
      }

      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
