/**
 * The ways to pay on the order page (issue 31): the runner sees the amount due and the deadline next to the pay
 * button of each method the server takes (the test server takes the sandbox alone: one button, as before),
 * chooses it, pays at the sandbox's cashier and comes back to the order page paid. At 1366 px (the
 * registration area) and on a 360 px phone (the mobile site), in Chinese and English; no serious or critical
 * axe finding.
 */
import { axeFindings, blocking } from './axe';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { serverDataDir, serverPort } from './test-server';
import { UNPAID_PASSWORD, unpaidOrders } from './unpaid-orders';

const browser = useBrowser();
const PHONE = `1774${String(Date.now() % 1000).padStart(3, '0')}0002`;
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const DEVICES = {
  desktop: { viewport: { width: 1366, height: 900 } },
  phone: { viewport: { width: 360, height: 740 }, userAgent: PHONE_UA, isMobile: true, hasTouch: true },
} as const;
const TEXT = {
  zh: { due: '应付金额 ¥80.00', before: '请在', pay: '立即支付', cashierPay: '支付成功', paid: '支付成功' },
  en: {
    due: 'Amount due ¥80.00',
    before: 'Please pay before',
    pay: 'Pay now',
    cashierPay: 'Pay',
    paid: 'Payment received',
  },
} as const;

/** Four unpaid orders of one fresh account (one per device and language), as the sign-up leaves them. */
let orders: string[] = [];
beforeAll(async () => {
  orders = await unpaidOrders(serverDataDir(), PHONE, 4);
});

describe.each(['desktop', 'phone'] as const)('paying an order with a method (%s)', (device) => {
  it.each(['zh', 'en'] as const)(
    'shows the amount and deadline, pays with the method, comes back paid (%s)',
    async (lang) => {
      const orderNo = orders[(device === 'phone' ? 2 : 0) + (lang === 'en' ? 1 : 0)]!;
      const text = TEXT[lang];
      const { context, page, errors } = await newPage(browser(), DEVICES[device]);
      const origin = `http://localhost:${serverPort()}`;
      await context.addCookies([{ name: 'language', value: lang, url: origin }]);
      await page.goto(`${origin}${device === 'phone' ? '/m/' : '/reg/'}#/my/order/${orderNo}`);
      await loginInDrawer(page, lang, { phone: PHONE, password: UNPAID_PASSWORD });
      const order = page.getByTestId(`order-${orderNo}`);
      await expect(order.getByTestId('order-due').innerText()).resolves.toBe(text.due);
      await expect(order.locator('.centre-order__status').innerText()).resolves.toContain(text.before);
      const pay = order.getByRole('button', { name: text.pay });
      await pay.waitFor();
      expect(blocking(await axeFindings(page, `pay method ${device} ${lang}`))).toEqual([]);
      await screenshot(page, `pay-method-${device}-${lang}`);
      await pay.click();
      await page.waitForURL(/\/pay\/sandbox\/cashier/);
      await page.getByRole('button', { name: text.cashierPay, exact: true }).click();
      await page.waitForURL(/#\/my\/order\/.*\?paid=1/);
      const success = page.getByTestId('payment-success');
      await success.waitFor();
      await expect(success.innerText()).resolves.toContain(text.paid);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
