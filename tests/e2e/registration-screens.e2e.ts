/**
 * The registration screens end to end (issue #13 §4-5): the built SPA in Chromium against the real server.
 * The demo runner fills the demo race's direct-pass form through every field type it has (the region picker,
 * uploads with the authenticity question, an outside score verification with its certificate image, the
 * own-results lookup of past events) and submits it; the organiser approves it with the CLI and the runner
 * reads 'approved'. Then /confirm (slider, search, confirm), /post (mailing address), /upload (a document)
 * and /i18NDemos, each seen in Chinese and English, with a screenshot of each.
 */
import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import seed from '../../server/seed/race.json';
import directForm from '../../server/seed/registration-forms/qc-marathon-2027.direct.json';
import { pngOf } from '../../server/test/png';
import { loginInDrawer, newPage, screenshot, siteUrl, solveSlider, useBrowser } from './browser';
import {
  PDF,
  PHOTO,
  expectAccessible,
  fromNow,
  pickMainlandChina,
  pickRegion,
  switchLanguage,
  upload,
} from './demo-form';
import { rawKeysOn } from './raw-keys';
import { addRace, siteCli } from './site-config';

// The demo runner (DEMO_RUNNERS in server/src/db/seed-runners.ts): registered, with a 2026 finish.
const RUNNER = { name: '张伟', id: '320102199001011232' };
const RACE_ID = 'qc-marathon-2027';

const browser = useBrowser();

const label = (key: string, lang: 'zh' | 'en' = 'zh') => directForm.fields.find((f) => f.key === key)!.label[lang];

/** The Form.Item of a field of the direct form, by its key. */
const item = (page: Page, key: string) =>
  page.locator('.ant-form-item').filter({ has: page.locator(`#direct-form_${key}_label`) });

// The demo race's windows are dates of its own season; the test opens them around today, as the organiser
// would with `site add-race`, so it does not depend on the day it runs.
beforeAll(async () => {
  const race = {
    ...seed.race,
    directApplication: { startTime: fromNow(-1), endTime: fromNow(60) },
    packMailing: { ...seed.race.packMailing, deadline: fromNow(60) },
    documentUpload: { ...seed.race.documentUpload, deadline: fromNow(60) },
  };
  await addRace(race);
});

describe('the registration screens', () => {
  it('fills the direct-pass form through every field type, submits it, and reads "approved" after the organiser approves it', async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl('localhost', '/direct'));
    await loginInDrawer(page, 'zh');
    const direct = page.getByTestId('direct-page');
    await direct.getByTestId('direct-notice').waitFor();
    await screenshot(page, 'registration-direct-notice-zh');
    await switchLanguage(page, 'en');
    await direct.getByRole('heading', { name: 'Before you apply' }).waitFor();
    await screenshot(page, 'registration-direct-notice-en');
    await direct.getByRole('button', { name: 'I have read it, next' }).click();
    await direct.getByLabel(label('name', 'en'), { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'registration-direct-form-en');
    await expectAccessible(page, '/direct form (en)');
    await switchLanguage(page, 'zh');

    // Every field of the demo direct form.
    await item(page, 'item').getByText('马拉松（42.195公里）', { exact: true }).click();
    await page.getByLabel(label('name'), { exact: true }).fill(RUNNER.name);
    await item(page, 'gender').getByText('男', { exact: true }).click();
    await page.getByLabel(label('certificateNumber'), { exact: true }).fill(RUNNER.id);
    const birthday = page.getByLabel(label('birthday'), { exact: true });
    await birthday.click();
    await birthday.fill('1990-01-01');
    await birthday.press('Enter');
    const country = page.getByLabel(label('nationality'), { exact: true });
    await pickMainlandChina(page, country);
    await page.getByLabel(label('phone'), { exact: true }).fill('13800138000');
    await page.getByLabel(label('email'), { exact: true }).fill('runner@example.com');
    const region = page.getByLabel(label('region'), { exact: true });
    await region.waitFor();
    await pickRegion(page, region);
    await page.getByLabel(label('address'), { exact: true }).fill('中关村大街1号');
    await page.getByLabel(label('emergencyName'), { exact: true }).fill('李娜');
    await page.getByLabel(label('emergencyPhone'), { exact: true }).fill('13900139000');
    await page.getByLabel(label('targetTime'), { exact: true }).click();
    await page.locator('.ant-select-item-option:visible').first().click();
    await page.getByLabel(label('marathonsFinished'), { exact: true }).fill('3');
    await item(page, 'eliteShirtSize').locator('label.rs-size-card').filter({ hasText: 'M（170/88A）' }).click();
    // Past events: the runner's own finishes, found by the name and certificate above.
    const past = item(page, 'pastEvents');
    await past.getByRole('button', { name: '查找我的成绩' }).click();
    await past.getByRole('checkbox').first().check();
    // Score verification: an outside result with its certificate image (waits for review).
    const score = page.getByTestId('score-verification');
    await score.getByText('其他赛事成绩', { exact: true }).click();
    await score.getByLabel('赛事名称').fill('2026 上海马拉松');
    await score.getByLabel('项目', { exact: true }).selectOption('M');
    await score.getByLabel('净计时成绩（H:MM:SS）').fill('3:05:00');
    const raceDate = score.getByLabel('比赛日期');
    await raceDate.click();
    await raceDate.fill('2026-03-29');
    await raceDate.press('Enter');
    await upload(page, score, { name: 'certificate.png', mimeType: 'image/png', buffer: pngOf(40, 30) }, false);
    await score.getByTestId('score-pending-note').waitFor();
    await item(page, 'verificationFee').getByTestId('fee-state').getByText('未支付').waitFor();
    await upload(page, item(page, 'photo'), PHOTO);
    await upload(page, item(page, 'healthCertificate'), PDF);
    await item(page, 'eliteServices').getByRole('checkbox').first().check();
    await page.getByLabel(label('trainingProfile'), { exact: true }).fill('https://www.strava.com/athletes/1');
    await page.getByLabel(label('statement'), { exact: true }).fill('近两年全马成绩稳定在3小时10分以内。');
    await page.mouse.click(5, 5);
    await screenshot(page, 'registration-direct-form-filled-zh');
    await expectAccessible(page, '/direct form filled (zh)');

    await direct.getByTestId('submit-form').click();
    const status = direct.getByTestId('direct-status');
    await status.waitFor();
    await expect(status.getByTestId('direct-status-label').textContent()).resolves.toBe('已提交待审核');
    await expect(direct.getByTestId('direct-list-status').textContent()).resolves.toBe('已提交');
    await screenshot(page, 'registration-direct-submitted-zh');

    // The organiser approves it with the CLI.
    const listed = await siteCli('direct-list', RACE_ID, '--status', '1');
    const id = /^\s+(\d+)\s+1\b/m.exec(listed)?.[1];
    expect(id, listed).toBeDefined();
    await siteCli('direct-approve', id!);
    await page.reload();
    await status.waitFor();
    await expect(status.getByTestId('direct-status-label').textContent()).resolves.toBe('审核通过');
    await screenshot(page, 'registration-direct-approved-zh');
    await switchLanguage(page, 'en');
    await status.getByTestId('direct-status-label').getByText('Approved').waitFor();
    await expect(direct.getByTestId('direct-list-status').textContent()).resolves.toBe('Submitted');
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'registration-direct-approved-en');
    await expectAccessible(page, '/direct approved (en)');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('confirms the registration after the slider, in Chinese, and shows it confirmed in English', async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl('localhost', '/confirm'));
    await loginInDrawer(page, 'zh');
    const confirm = page.getByTestId('confirm-page');
    await confirm.getByTestId('slider-captcha').waitFor();
    await screenshot(page, 'registration-confirm-search-zh');
    await confirm.getByLabel('姓名').fill(RUNNER.name);
    await confirm.getByLabel('证件号码').fill(RUNNER.id);
    await solveSlider(page, confirm);
    await confirm.getByTestId('confirm-search').click();
    const result = confirm.getByTestId('confirm-result');
    await result.waitFor();
    const text = (await result.textContent()) ?? '';
    expect(text).not.toContain(RUNNER.id);
    expect(text).toContain('3201**********1232');
    await result.getByTestId('confirm-button').click();
    await result.getByTestId('confirm-done').waitFor();
    await expect(result.getByTestId('confirm-done').textContent()).resolves.toMatch(
      /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/,
    );
    await screenshot(page, 'registration-confirm-done-zh');
    await expectAccessible(page, '/confirm confirmed (zh)');

    await switchLanguage(page, 'en');
    await confirm.getByLabel('Name', { exact: true }).waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await solveSlider(page, confirm);
    await confirm.getByTestId('confirm-search').click();
    await result.getByTestId('confirm-done').getByText('Confirmed', { exact: true }).waitFor();
    await screenshot(page, 'registration-confirm-done-en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("saves a mailing address with the region picker under the settings' notice, in both languages", async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl('localhost', '/post'));
    await loginInDrawer(page, 'zh');
    const post = page.getByTestId('post-page');
    await post
      .getByTestId('post-notice')
      .getByText(/快递到付/)
      .waitFor();
    await screenshot(page, 'registration-post-form-zh');
    await expectAccessible(page, '/post form (zh)');
    await post.getByLabel('收件人', { exact: true }).fill(RUNNER.name);
    await post.getByLabel('收件人手机号码').fill('13800138000');
    const region = post.getByLabel('所在省市区');
    await region.waitFor();
    await pickRegion(page, region);
    await post.getByLabel('详细地址').fill('中关村大街1号');
    await post.getByTestId('post-save').click();
    const saved = post.getByTestId('post-saved');
    await saved.waitFor();
    await saved
      .getByTestId('post-saved-address')
      .getByText(/海淀区/)
      .waitFor();
    await screenshot(page, 'registration-post-saved-zh');
    await switchLanguage(page, 'en');
    await saved.getByText('Mail it to me').waitFor();
    await saved
      .getByTestId('post-saved-address')
      .getByText(/Haidian/)
      .waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'registration-post-saved-en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("uploads and saves a document under the race's note, in both languages", async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl('localhost', '/upload'));
    await loginInDrawer(page, 'zh');
    const screen = page.getByTestId('upload-page');
    await screen.getByTestId('upload-note').waitFor();
    await upload(page, screen, PDF);
    await screen.getByTestId('upload-save').click();
    await screen.getByTestId('upload-saved-at').waitFor();
    await screenshot(page, 'registration-upload-zh');
    await switchLanguage(page, 'en');
    await screen.getByText('Last saved', { exact: false }).waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'registration-upload-en');
    await expectAccessible(page, '/upload (en)');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches the language on /i18NDemos with the success message', async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl('localhost', '/i18NDemos'));
    const demo = page.getByTestId('i18n-page');
    await demo.getByTestId('current-language').getByText('中文').waitFor();
    await screenshot(page, 'registration-i18n-zh');
    await demo.getByText('English', { exact: true }).click();
    await page.getByText('Switched to English').waitFor();
    await demo.getByTestId('current-language').getByText('English').waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'registration-i18n-en');
    await expectAccessible(page, '/i18NDemos (en)');
    await demo.getByText('中文', { exact: true }).click();
    await page.getByText('已切换为中文').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
