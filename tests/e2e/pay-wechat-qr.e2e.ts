/**
 * Paying by WeChat Pay's QR code on the desktop order page (issue 31 §2, §3), in real Chromium against a server
 * that takes the sandbox and WeChat Pay (a fake of WeChat Pay's API v3 gateway, server/test/fakes/
 * wechatpay-fake.ts, speaking its signed and encrypted formats): the runner chooses 微信支付 / WeChat Pay among
 * the methods, the page shows the QR code with the amount and the deadline, a phone "scans" it (the fake pays
 * and sends its signed notification to the server), and the page shows the order paid by itself. Chinese and
 * English at 1366 px; no serious or critical axe finding.
 */
import { startWechatPayFake, type WechatPayFake } from '../../server/test/fakes/wechatpay-fake';
import { axeFindings, blocking } from './axe';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { startServer, type RunningServer } from './server-process';
import { UNPAID_PASSWORD, unpaidOrders } from './unpaid-orders';

const browser = useBrowser();
const PHONE = `1775${String(Date.now() % 1000).padStart(3, '0')}0003`;
const TEXT = {
  zh: { wechat: '微信支付', sandbox: '测试支付', scan: '请使用微信扫码支付', due: '¥80.00', paid: '支付成功' },
  en: {
    wechat: 'WeChat Pay',
    sandbox: 'Test payment',
    scan: 'Scan with WeChat to pay',
    due: '¥80.00',
    paid: 'Payment received',
  },
} as const;

let fake: WechatPayFake;
let server: RunningServer;
let orders: string[] = [];

beforeAll(async () => {
  fake = await startWechatPayFake();
  server = await startServer({
    ...fake.serverEnv(),
    PAYMENT_PROVIDER: 'sandbox,wechatpay',
    PAYMENT_SWEEP_SECONDS: '1',
    RATE_LIMITS: 'off',
  });
  orders = await unpaidOrders(server.dataDir, PHONE, 2);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

describe('paying by the WeChat Pay QR code on the desktop order page', () => {
  it.each(['zh', 'en'] as const)(
    'chooses WeChat Pay, shows the QR code, and shows the order paid once a phone has paid (%s)',
    async (lang) => {
      const orderNo = orders[lang === 'zh' ? 0 : 1]!;
      const text = TEXT[lang];
      const { context, page, errors } = await newPage(browser(), { viewport: { width: 1366, height: 900 } });
      const origin = `http://localhost:${server.port}`;
      await context.addCookies([{ name: 'language', value: lang, url: origin }]);
      await page.goto(`${origin}/reg/#/my/order/${orderNo}`);
      await loginInDrawer(page, lang, { phone: PHONE, password: UNPAID_PASSWORD });
      const order = page.getByTestId(`order-${orderNo}`);
      const methods = order.getByTestId('order-pay-methods');
      await methods.waitFor();
      await methods.getByRole('button', { name: text.sandbox }).waitFor();
      await methods.getByRole('button', { name: text.wechat }).click();

      const qr = page.getByRole('img', { name: new RegExp(text.wechat) });
      await qr.waitFor();
      const qrPanel = page.getByText(text.scan);
      await qrPanel.waitFor();
      await expect.poll(async () => (await page.locator('body').innerText()).includes(text.due)).toBe(true);
      expect(blocking(await axeFindings(page, `wechat qr ${lang}`))).toEqual([]);
      await screenshot(page, `pay-wechat-qr-${lang}`);

      // The phone scans the code: WeChat Pay takes the money and notifies the server, signed and encrypted.
      const transaction = [...fake.state.transactions.values()].find((t) =>
        String(t.request.description).includes(orderNo),
      );
      expect(transaction?.codeUrl).toBeTruthy();
      const scanned = await fetch(`${fake.baseUrl}/fake/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code_url: transaction!.codeUrl }),
      });
      expect(await scanned.json()).toMatchObject({ notified: 200 });

      const success = page.getByTestId('payment-success');
      await success.waitFor();
      await expect(success.innerText()).resolves.toContain(text.paid);
      await screenshot(page, `pay-wechat-qr-paid-${lang}`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
