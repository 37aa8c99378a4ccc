/**
 * A payment that fails at the cashier (issue 28: the runner came back to the order page with no message). The
 * runner pays an unpaid order, the sandbox cashier reports failure, and the order page says the payment was not
 * completed, in the runner's language, with a "pay again" button that opens the cashier again. At 1366 px (the
 * registration area) and on a 360 px phone (the mobile site), in Chinese and English.
 */
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { axeFindings, blocking } from './axe';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { repoRoot } from './server-process';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const HOUR = 3_600_000;
const PASSWORD = 'Runner2027';
const PHONE = `1773${String(Date.now() % 1000).padStart(3, '0')}0001`;
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const DEVICES = {
  desktop: { viewport: { width: 1366, height: 900 } },
  phone: { viewport: { width: 360, height: 740 }, userAgent: PHONE_UA, isMobile: true, hasTouch: true },
} as const;
const TEXT = {
  zh: { failed: '支付未完成', help: '支付失败或已取消', payAgain: '重新支付', fail: '支付失败' },
  en: {
    failed: 'Payment not completed',
    help: 'The payment failed or was cancelled',
    payAgain: 'Pay again',
    fail: 'Fail',
  },
} as const;

/** Four unpaid orders of one fresh account (one per device and language), as the sign-up leaves them. */
const orders: string[] = [];
beforeAll(async () => {
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  const userId = await repos.users.create({ phone: PHONE, passwordHash: await hashPassword(PASSWORD) }, now);
  for (let n = 0; n < 4; n += 1) {
    const entry = await repos.entries.insertEntry({
      raceId: seed.race.raceId,
      itemCode: '10K',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: true,
      name: '李四',
      gender: 1,
      birthday: '1990-03-07',
      certType: 1,
      certHash: `payment-failed-e2e-${now}-${n}`,
      certNumber: '110105199003071239',
      phone: PHONE,
      values: {},
      feeFen: 8000,
      now: now - HOUR,
    });
    const order = await repos.orders.create({
      raceId: seed.race.raceId,
      userId,
      amountFen: 8000,
      deadlineAt: now + 24 * HOUR,
      createdAt: now - HOUR,
      lines: [{ entryId: entry.id, amountFen: 8000 }],
    });
    await repos.entries.addEvent(entry.id, 'orderCreated', now - HOUR);
    orders.push(order.orderNo);
  }
  await db.close();
});

describe.each(['desktop', 'phone'] as const)('a failed payment (%s)', (device) => {
  it.each(['zh', 'en'] as const)('comes back to a message and a pay-again button (%s)', async (lang) => {
    const orderNo = orders[(device === 'phone' ? 2 : 0) + (lang === 'en' ? 1 : 0)]!;
    const { context, page, errors } = await newPage(browser(), DEVICES[device]);
    const origin = `http://localhost:${serverPort()}`;
    await context.addCookies([{ name: 'language', value: lang, url: origin }]);
    await page.goto(`${origin}${device === 'phone' ? '/m/' : '/reg/'}#/my/order/${orderNo}`);
    await loginInDrawer(page, lang, { phone: PHONE, password: PASSWORD });
    await page.getByTestId(`order-${orderNo}`).getByTestId('order-pay').click();
    await page.waitForURL(/\/pay\/sandbox\/cashier/);
    await page.getByRole('button', { name: TEXT[lang].fail, exact: true }).click();
    await page.waitForURL(/#\/my\/order\/.*\?paid=0/);
    const failed = page.getByTestId('payment-failed');
    await failed.waitFor();
    await expect(failed.getByText(TEXT[lang].failed, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(failed.textContent()).resolves.toContain(TEXT[lang].help);
    await screenshot(page, `payment-failed-${device}-${lang}`);
    expect(blocking(await axeFindings(page, `payment failed ${device} ${lang}`))).toEqual([]);
    await failed.getByRole('button', { name: TEXT[lang].payAgain }).click();
    await page.waitForURL(/\/pay\/sandbox\/cashier/);
    await page.getByRole('button', { name: TEXT[lang].fail, exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
