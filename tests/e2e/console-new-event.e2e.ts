/**
 * A new event made from nothing in the console alone (issue 33, "done when"): an owner creates the race, gives
 * it an item and its sign-up window, binds a domain, uploads the logo and a carousel slide to the asset library,
 * makes the site from its starter draft (logo and slide chosen from the library, the English name) and publishes
 * it, publishes the registration form the console starts for the public channel, and opens entry. The domain's
 * public site then shows the new event and nothing of the demo race, its sign-up information is open with the
 * item's fee, and every step is in the audit log under the console's action names. No shell step: the test
 * server's CLI is used only to make the owner's account, as an organiser makes the first owner.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { API_PATHS } from '#contract/api';
import { appDrawn, newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole } from './console';
import { expectAccessible } from './demo-form';
import { pngOf } from '../../server/test/png';
import { DEMO_RACE_MARKS, siteCli } from './site-config';
import { serverPort } from './test-server';

const browser = useBrowser();

/** A time on the race's clock (China Standard Time), as race.json writes it: YYYY-MM-DD HH:mm:ss. */
function raceClock(at: number): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

const DAY = 86_400_000;
const api = (path: string, init?: RequestInit) => fetch(`http://localhost:${serverPort()}${path}`, init);

/** Clicks a button that asks first, then the confirmation's button. */
async function confirmed(page: Page, testId: string, confirm: RegExp) {
  await page.getByTestId(testId).click();
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.getByRole('button', { name: confirm }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Chooses the library's asset `name` for the picker labelled `field`. */
async function chooseAsset(page: Page, field: string, name: string) {
  await page.getByRole('button', { name: `选择：${field}`, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('.asset-card').filter({ hasText: name }).click();
  await dialog.waitFor({ state: 'hidden' });
}

it('an owner makes a new event from nothing in the console, and its site shows nothing of the demo', async () => {
  const suffix = randomBytes(3).toString('hex');
  const raceId = `harbour-${suffix}`;
  const domain = `harbour-${suffix}.localhost`;
  const name = { zh: `2028 港湾十公里跑 ${suffix}`, en: `2028 Harbour 10K ${suffix}` };
  const { page, context, errors } = await newPage(browser(), DESKTOP);
  await signInToConsole(page, { role: 'owner', language: 'zh', hash: '/races' });

  // 1. The race: made on the races page; its settings open.
  await page.goto(consoleUrl('/races'));
  await page.getByTestId('races-page').getByRole('heading', { name: '赛事', level: 1 }).waitFor();
  await page.getByTestId('new-race-id').fill(raceId);
  await page.getByTestId('new-race-zh').fill(name.zh);
  await page.getByTestId('new-race-en').fill(name.en);
  await page.getByTestId('new-race-start').fill('2028-03-12 07:30:00');
  await page.getByTestId('new-race-place').fill('港湾公园');
  await page.getByTestId('new-race-submit').click();
  const settings = page.getByTestId('race-page');
  await settings.getByRole('heading', { name: '赛事设置', level: 1 }).waitFor();

  // Its item, then its sign-up window (open from yesterday for two months), each saved.
  await settings.getByRole('tab', { name: '项目', exact: true }).click();
  await page.getByTestId('item-add').click();
  await page.getByTestId('item-code-0').fill('10K');
  await page.getByLabel('10K 的中文名称').fill('10公里');
  await page.getByLabel('10K 的英文名称').fill('10 km');
  await page.getByTestId('item-fee-0').fill('120');
  await page.getByTestId('item-capacity-0').fill('500');
  await settings.getByRole('tab', { name: '报名与退款', exact: true }).click();
  await page.locator('#race-signup-start').fill(raceClock(Date.now() - DAY));
  await page.locator('#race-signup-end').fill(raceClock(Date.now() + 60 * DAY));
  await page.getByTestId('race-save').click();
  await expect.poll(() => page.getByTestId('race-dirty').count()).toBe(0);
  await expect(page.getByTestId('race-refused').count()).resolves.toBe(0);

  // 2. Its domain, bound by the owner on the races page.
  await page.goto(consoleUrl('/races'));
  await page.getByTestId(`bind-${raceId}`).click();
  await page.getByTestId('bind-domain').fill(domain);
  await page.getByTestId('bind-submit').click();
  await expect.poll(() => page.getByTestId(`races-domains-${raceId}`).innerText()).toContain(domain);

  // 3. The logo and a carousel slide in the race's asset library.
  await page.goto(consoleUrl(`/races/${raceId}/assets`));
  const library = page.getByTestId('assets-page');
  await library.getByRole('heading', { name: '素材库', level: 1 }).waitFor();
  await library.locator('.ant-upload-drag input[type=file]').setInputFiles([
    { name: 'logo.png', mimeType: 'image/png', buffer: pngOf(240, 80, [12, 74, 110]) },
    { name: 'slide.png', mimeType: 'image/png', buffer: pngOf(1200, 400, [240, 160, 40]) },
  ]);
  const outcomes = library.getByTestId('asset-upload-outcomes');
  await outcomes.getByText('已添加 logo.png').waitFor();
  await outcomes.getByText('已添加 slide.png').waitFor();

  // 4. The site: the starter draft (the race's names, nothing of the demo), the logo, the English name and a
  //    slide from the library, saved and published.
  await page.goto(consoleUrl(`/races/${raceId}/site`));
  const site = page.getByTestId('site-page');
  await site.getByRole('heading', { name: '网站内容', level: 1 }).waitFor();
  await site.getByTestId('site-state').waitFor();
  await site.getByRole('tab', { name: '基本信息', exact: true }).click();
  await chooseAsset(page, '标志（电脑端）', 'logo.png');
  await site.getByRole('tab', { name: '轮播图', exact: true }).click();
  await site.getByRole('button', { name: '添加一张', exact: true }).click();
  await chooseAsset(page, '图片', 'slide.png');
  await page.getByTestId('site-save').click();
  await expect.poll(() => page.getByTestId('site-unsaved').count()).toBe(0);
  await expectAccessible(page, 'console new event site');
  await screenshot(page, 'console-new-event-site');
  await confirmed(page, 'site-publish', /^发 ?布$/);
  await expect
    .poll(async () => (await (await api(`${API_PATHS.siteConfigLookup}?domainName=${domain}`)).json()).code)
    .toBe(0);

  // 5. The registration form the console starts for the public channel, published as version 1.
  await page.goto(consoleUrl(`/races/${raceId}/forms`));
  await page.getByTestId('forms-channel-public').waitFor();
  await page.getByTestId('forms-no-problems').waitFor();
  await confirmed(page, 'forms-publish', /^发 ?布$/);
  await page
    .getByText(/^已发布第 1 版$/)
    .first()
    .waitFor();

  // 6. Entry opened for the whole race.
  await page.goto(consoleUrl(`/races/${raceId}/season`));
  await page.getByTestId('season-page').getByRole('heading', { name: '报名期管理', level: 1 }).waitFor();
  await confirmed(page, 'season-race-switch', /^开 ?启$/);
  await expect
    .poll(async () => {
      const info = await (await api(`${API_PATHS.entryInfo}?raceId=${raceId}`)).json();
      return info.data?.items?.map((item: { code: string; feeFen: number }) => [item.code, item.feeFen]);
    })
    .toEqual([['10K', 12000]]);

  // The public site of the new domain, in both languages: the new event, nothing of the demo.
  const origin = `http://${domain}:${serverPort()}`;
  for (const lang of ['zh', 'en'] as const) {
    await context.addCookies([{ name: 'language', value: lang, url: origin }]);
    const visitor = await context.newPage();
    await visitor.goto(`${origin}/#/home`);
    await visitor.getByTestId('site-menu').waitFor();
    await appDrawn(visitor);
    await visitor.locator(`img[src*="assets/${raceId}/logo.png"]`).first().waitFor();
    await visitor.locator(`img[src*="assets/${raceId}/slide.png"]`).first().waitFor({ state: 'attached' });
    await expect.poll(() => visitor.title()).toBe(name[lang]);
    const text = await visitor.evaluate(() => `${document.title}\n${document.body.innerText}`);
    for (const mark of DEMO_RACE_MARKS) expect([lang, mark, text.includes(mark)]).toEqual([lang, mark, false]);
    await screenshot(visitor, `console-new-event-public-${lang}`);
    await visitor.close();
  }

  // Every step in the audit log, under the console's action names.
  const audit = await siteCli('audit-list', '--race', raceId, '--limit', '200');
  for (const action of ['race.add', 'race.save', 'domain.bind', 'asset.add', 'site.publish', 'form.publish']) {
    expect([action, audit.includes(action)]).toEqual([action, true]);
  }
  expect(audit).toMatch(/signUp\.open/);

  await context.close();
  expect(errors).toEqual([]);
});
