/**
 * The personal centre end to end (issue 14 §5): the registration area reg/#/my/my-index served by the bundled
 * server, the demo runner's registrations (a ballot win awaiting payment, a paid 10 km entry with its bib, put
 * into the database the way the sign-up and the draw leave them), the order, paying in the sandbox cashier and
 * the payment result, the profile and the password pages, in Chinese and English at 1366 px, each passing axe
 * (no serious or critical finding).
 */
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { sql } from '../../server/src/db/engine';
import { axeFindings, blocking } from './axe';
import { DEMO, loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { rawKeysOn } from './raw-keys';
import { repoRoot } from './server-process';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const HOUR = 3_600_000;
const regArea = (hash: string) => `http://localhost:${serverPort()}/reg/#${hash}`;

/** A ballot win with its order awaiting payment, and a paid first-come entry with a bib, for the demo runner. */
async function seedEntries() {
  const raceId = seed.race.raceId;
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  const user = (await repos.users.findByPhone(DEMO.phone))!;
  const stamp = `${now}`;
  const entry = (itemCode: string, feeFen: number, at: number, n: number) =>
    repos.entries.insertEntry({
      raceId,
      itemCode,
      channel: 'public',
      userId: user.id,
      status: 0,
      holdsPlace: true,
      name: '张三',
      gender: 1,
      birthday: '1990-03-07',
      certType: 1,
      certHash: `centre-e2e-${stamp}-${n}`,
      certNumber: '110105199003071239',
      phone: DEMO.phone,
      values: {},
      feeFen,
      now: at,
    });
  const won = await entry('M', 20000, now - 72 * HOUR, 1);
  await repos.entries.addEvent(won.id, 'drawn', now - 2 * HOUR);
  await repos.entries.setStatus(won.id, [0], 1, 'won', now - 2 * HOUR);
  const unpaid = await repos.orders.create({
    raceId,
    userId: user.id,
    amountFen: 20000,
    deadlineAt: now + 46 * HOUR,
    createdAt: now - 2 * HOUR,
    lines: [{ entryId: won.id, amountFen: 20000 }],
  });
  await repos.entries.addEvent(won.id, 'orderCreated', now - 2 * HOUR);
  const tenK = await entry('10K', 8000, now - 100 * HOUR, 2);
  const paid = await repos.orders.create({
    raceId,
    userId: user.id,
    amountFen: 8000,
    deadlineAt: now - 99 * HOUR,
    createdAt: now - 100 * HOUR,
    lines: [{ entryId: tenK.id, amountFen: 8000 }],
  });
  await repos.entries.addEvent(tenK.id, 'orderCreated', now - 100 * HOUR);
  await repos.orders.markPaid(paid.id, { paidFen: 8000, paidAt: now - 99 * HOUR, serialNo: 'SB20270110000123' });
  await repos.entries.addEvent(tenK.id, 'paid', now - 99 * HOUR);
  await repos.entries.setStatus(tenK.id, [0], 1, 'won', now - 99 * HOUR);
  await repos.db.run(sql`UPDATE entries SET bib = 'K1024' WHERE id = ${tenK.id}`);
  await repos.entries.addEvent(tenK.id, 'bibAssigned', now - 24 * HOUR);
  await db.close();
  return { won: won.entryNo, tenK: tenK.entryNo, unpaid: unpaid.orderNo, paid: paid.orderNo };
}

let made: Awaited<ReturnType<typeof seedEntries>>;
beforeAll(async () => {
  made = await seedEntries();
});

async function visit(page: Page, hash: string, testId: string) {
  await page.goto(regArea(hash));
  await page.getByTestId(testId).waitFor();
  expect(await rawKeysOn(page)).toEqual([]);
}

describe('the personal centre at reg/#/my/…', () => {
  it('shows registrations, an order, the profile and the password page in both languages; paying in the sandbox ends registered', async () => {
    const { context, page, errors } = await newPage(browser(), { viewport: { width: 1366, height: 900 } });
    await page.goto(regArea('/my/my-index'));
    await loginInDrawer(page, 'zh');
    for (const lang of ['zh', 'en'] as const) {
      if (lang === 'en') {
        await page.getByTestId('language-toggle').click();
        await page.getByTestId('language-toggle').filter({ hasText: '中' }).waitFor();
      }
      await visit(page, '/my/my-index', `entry-${made.won}`);
      const won = page.getByTestId(`entry-${made.won}`);
      await expect(won.getByTestId('entry-certificate').textContent()).resolves.toBe('1101**********1239');
      await expect(won.getByTestId('order-countdown').textContent()).resolves.toMatch(/(1 天|1 d) 21:/);
      await expect(page.getByTestId(`entry-${made.tenK}`).getByTestId('entry-bib').textContent()).resolves.toBe(
        'K1024',
      );
      await screenshot(page, `centre-my-index-${lang}`);
      expect(blocking(await axeFindings(page, `my-index-${lang}`))).toEqual([]);
      await visit(page, `/my/order/${made.paid}`, `order-${made.paid}`);
      await expect(page.getByTestId('order-serial').textContent()).resolves.toBe('SB20270110000123');
      await screenshot(page, `centre-order-${lang}`);
      expect(blocking(await axeFindings(page, `order-${lang}`))).toEqual([]);
      await visit(page, '/my/profile', 'profile-form');
      await screenshot(page, `centre-profile-${lang}`);
      expect(blocking(await axeFindings(page, `profile-${lang}`))).toEqual([]);
      await visit(page, '/my/password', 'password-form');
      await screenshot(page, `centre-password-${lang}`);
      expect(blocking(await axeFindings(page, `password-${lang}`))).toEqual([]);
    }

    await visit(page, `/my/order/${made.unpaid}`, `order-${made.unpaid}`);
    await page.getByTestId('order-pay').click();
    await page.waitForURL(/\/pay\/sandbox\/cashier/);
    await page.locator('button.pay').click();
    await page.waitForURL(/\/reg\/#\/my\/order\/.*\?paid=1/);
    const success = page.getByTestId('payment-success');
    await success.waitFor();
    await expect(success.textContent()).resolves.toContain('you are registered successfully');
    await screenshot(page, 'centre-payment-result-en');
    expect(errors).toEqual([]);
    await context.close();
  });
});
