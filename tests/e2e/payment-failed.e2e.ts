/**
 * A payment that fails at the cashier (issue 28: the runner came back to the order page with no message). The
 * runner pays an unpaid order, the sandbox cashier reports failure, and the order page says the payment was not
 * completed, in the runner's language, with a "pay again" button that opens the cashier again. At 1366 px (the
 * registration area) and on a 360 px phone (the mobile site), in Chinese and English.
 */
import { axeFindings, blocking } from './axe';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { serverDataDir, serverPort } from './test-server';
import { UNPAID_PASSWORD, unpaidOrders } from './unpaid-orders';

const browser = useBrowser();
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
let orders: string[] = [];
beforeAll(async () => {
  orders = await unpaidOrders(serverDataDir(), PHONE, 4);
});

describe.each(['desktop', 'phone'] as const)('a failed payment (%s)', (device) => {
  it.each(['zh', 'en'] as const)('comes back to a message and a pay-again button (%s)', async (lang) => {
    const orderNo = orders[(device === 'phone' ? 2 : 0) + (lang === 'en' ? 1 : 0)]!;
    const { context, page, errors } = await newPage(browser(), DEVICES[device]);
    const origin = `http://localhost:${serverPort()}`;
    await context.addCookies([{ name: 'language', value: lang, url: origin }]);
    await page.goto(`${origin}${device === 'phone' ? '/m/' : '/reg/'}#/my/order/${orderNo}`);
    await loginInDrawer(page, lang, { phone: PHONE, password: UNPAID_PASSWORD });
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
