/**
 * A refund end to end (issue 15 §4): a runner registers for the demo race's 10 km on the sign-up page, pays in
 * the sandbox cashier, follows the entry card's refund link to /my/refund and requests a refund with a reason
 * (the dialog names the 80 % to come back); the registration reads 'refund under review'. The organiser runs
 * refund-approve (the CLI on the server's data folder); the runner then reads 'refunded' in the personal centre
 * and on the refund page, and the order names the amount refunded. Chinese and English, screenshots and axe.
 */
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { idCard } from '../../server/src/db/seed-runners';
import { hashPassword } from '../../server/src/lib/password-hash';
import { loginInDrawer, newPage, screenshot, siteUrl, useBrowser, passEntrySlider } from './browser';
import { expectAccessible, fillDemoPerson, fromNow, switchLanguage } from './demo-form';
import { rawKeysOn } from './raw-keys';
import { repoRoot } from './server-process';
import { addRace, siteCli } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const PASSWORD = 'Runner2027';
const stamp = String(Date.now() % 10_000).padStart(4, '0');
const RUNNER = {
  phone: `1772${stamp}015`,
  name: '退款跑者',
  id: idCard(`11010819910202${stamp.slice(1)}`),
  emergencyPhone: `1392${stamp}015`,
};
const regArea = (hash: string) => `http://localhost:${serverPort()}/reg/#${hash}`;

beforeAll(async () => {
  // Sign-up open now and refunds until later, whatever today's date (the seed's windows are fixed dates).
  await addRace({
    ...seed.race,
    signUpStartTime: fromNow(-2),
    signUpEndTime: fromNow(30),
    signUpOpenStatus: 1,
    entry: { ...seed.race.entry, refunds: { ...seed.race.entry.refunds, until: fromNow(20) } },
  });
  const { db, repos } = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: `${repoRoot}/server/seed`,
    now: Date.now(),
  });
  await repos.users.create({ phone: RUNNER.phone, passwordHash: await hashPassword(PASSWORD) }, Date.now());
  await db.close();
});
// The test files share one server: the demo race goes back to its seeded settings for the files after this one.
afterAll(() => addRace(seed.race));

/** Fills the demo race's public form for the 10 km (in Chinese) and saves the person. */
const fillTenK = (page: Page) =>
  fillDemoPerson(
    page,
    {
      name: RUNNER.name,
      gender: '女',
      id: RUNNER.id,
      birthday: '1991-02-02',
      phone: RUNNER.phone,
      emergencyName: '王芳',
      emergencyPhone: RUNNER.emergencyPhone,
      address: '运河路2号',
      bloodType: 'A型',
    },
    '10K',
  );

describe('a refund', () => {
  it('registers and pays for the 10 km, requests a refund, the organiser approves: refunded', async () => {
    const { context, page, errors } = await newPage(browser(), { viewport: { width: 1280, height: 900 } });

    // Sign up for the 10 km (first come: an order at once) and pay in the sandbox cashier.
    await page.goto(siteUrl('localhost', '/my/signup'));
    await loginInDrawer(page, 'zh', { phone: RUNNER.phone, password: PASSWORD });
    await page.getByTestId('entry-choose-10K').click();
    await page.getByTestId('entry-people').waitFor();
    await fillTenK(page);
    await passEntrySlider(page);
    await page.getByTestId('entry-submit').click();
    await page.waitForURL(/\/my\/order\//);
    const orderNo = decodeURIComponent(/\/my\/order\/([^?/]+)/.exec(page.url())![1]!);
    await page.getByTestId(`order-${orderNo}`).waitFor();
    const entryNo = ((await page.getByTestId('order-lines').locator('tbody td').nth(1).textContent()) ?? '').trim();
    expect(entryNo).not.toBe('');
    await page.getByTestId('order-pay').click();
    await page.waitForURL(/\/pay\/sandbox\/cashier/);
    await page.locator('button.pay').click();
    await page.waitForURL(/\/my\/order\/.*\?paid=1/);
    await page.getByTestId('payment-success').waitFor();

    // The entry card's refund link → /my/refund?entryNo=…: the terms and what comes back.
    await page.goto(regArea('/my/my-index'));
    const card = page.getByTestId(`entry-${entryNo}`);
    // A first-come place reads as registered, not as a lottery won (contract entryStatusLabel).
    await expect(card.getByTestId('entry-status').textContent()).resolves.toBe('报名成功');
    await card.getByTestId('entry-service-refund').click();
    const refund = page.getByTestId(`refund-entry-${entryNo}`);
    await expect(refund.getByTestId('refund-paid').textContent()).resolves.toBe('¥80.00');
    await expect(refund.getByTestId('refund-amount').textContent()).resolves.toBe('¥64.00');
    await expect(page.getByTestId('refund-terms-refund').textContent()).resolves.toContain('80%');
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'refund-page-zh');
    await expectAccessible(page, 'refund page (zh)');

    // The request: a reason, the dialog naming ¥64.00, then 'refund under review'.
    await refund.getByTestId('refund-reason').fill('工作调动，无法参赛');
    await refund.getByTestId('refund-request').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('refund-confirm-text').textContent()).resolves.toContain('¥64.00');
    await page.waitForTimeout(400); // the dialog's opening animation
    await screenshot(page, 'refund-confirm-zh');
    await dialog.getByRole('button', { name: '确认提交' }).click();
    await refund.getByTestId('refund-entry-status').getByText('退款审核中', { exact: true }).waitFor();
    await expect(refund.getByTestId('refund-request-status').textContent()).resolves.toBe('审核中');
    await screenshot(page, 'refund-review-zh');
    await expectAccessible(page, 'refund under review (zh)');
    await switchLanguage(page, 'en');
    await refund.getByTestId('refund-entry-status').getByText('Refund under review', { exact: true }).waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'refund-review-en');
    await switchLanguage(page, 'zh');
    await page.goto(regArea('/my/my-index'));
    await expect(card.getByTestId('entry-status').textContent()).resolves.toBe('退款审核中');

    // The organiser approves: the share is refunded through the sandbox provider.
    expect(await siteCli('refunds-list', '--race', RACE_ID, '--status', 'review')).toContain(entryNo);
    expect(await siteCli('refund-approve', '--race', RACE_ID, '--entry', entryNo)).toContain(
      'refunded now: 64.00 yuan',
    );

    // The runner: refunded in the centre, on the refund page and on the order.
    await page.reload();
    await card.getByTestId('entry-status').getByText('已退款', { exact: true }).waitFor();
    await page.goto(regArea(`/my/refund?entryNo=${entryNo}`));
    await refund.getByTestId('refund-entry-status').getByText('已退款', { exact: true }).waitFor();
    await expect(refund.getByTestId('refund-request-status').textContent()).resolves.toBe('已通过');
    await expect(refund.getByTestId('refund-blocked-refunded').textContent()).resolves.toContain('¥64.00');
    await screenshot(page, 'refund-refunded-zh');
    await switchLanguage(page, 'en');
    await refund.getByTestId('refund-entry-status').getByText('Refunded', { exact: true }).waitFor();
    await expect(refund.getByTestId('refund-request-status').textContent()).resolves.toBe('Approved');
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'refund-refunded-en');
    await expectAccessible(page, 'refunded (en)');
    await page.goto(regArea('/my/my-index'));
    await card.getByTestId('entry-status').getByText('Refunded', { exact: true }).waitFor();
    await page.goto(regArea(`/my/order/${orderNo}`));
    await expect(page.getByTestId('order-refunded-part').textContent()).resolves.toContain('¥64.00');
    await screenshot(page, 'refund-order-en');
    expect(errors).toEqual([]);
    await context.close();
  });
});
