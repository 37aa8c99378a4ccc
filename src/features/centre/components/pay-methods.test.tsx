/**
 * The ways to pay on the order page (issue 31): one button per method the server takes, named in the
 * runner's language, the amount due; a method chosen is sent with orderPay; a method paid by scanning (display
 * 'qr') shows its QR code with the amount and asks for the order until it is paid, then the payment result.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import type { OrderPayAnswer } from '#contract/entry';
import { saveUserData } from '@/lib/user-data';
import type { Language } from '@/stores/app-store';
import { CENTRE_NOW, ORDER_UNPAID, centreHandlers, centreMock, resetCentreMock } from '@/testing/mocks/handlers/centre';
import { api } from '@/testing/mocks/base-url';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';
import { browser } from '../utils/browser';
import { QR_POLL_MS } from './order-page';

const T = {
  zh: {
    methods: ['微信支付', '支付宝', '测试支付'],
    due: '应付金额 ¥200.00',
    scan: '请使用微信扫码支付',
    registered: '支付成功，报名成功！',
  },
  en: {
    methods: ['WeChat Pay', 'Alipay', 'Test payment'],
    due: 'Amount due ¥200.00',
    scan: 'Scan with WeChat to pay',
    registered: 'Payment received: you are registered successfully!',
  },
} as const;

const METHODS = ['wechatpay', 'alipay', 'sandbox'];
const calls: { method?: string }[] = [];

beforeEach(() => {
  resetCentreMock();
  calls.length = 0;
  centreMock.orders = [{ ...ORDER_UNPAID, payMethods: METHODS }];
  server.use(...centreHandlers);
  // Added after the centre's own (msw tries the latest first): orderPay with a method.
  server.use(
    http.post(api(API_PATHS.orderPay), async ({ request }) => {
      const { orderNo, method } = (await request.json()) as { orderNo: string; method?: string };
      calls.push({ method });
      const qr = method === 'wechatpay';
      const answer: OrderPayAnswer = {
        orderNo,
        paymentId: 'P9',
        cashierUrl: qr ? '' : `https://pay.example/${method}`,
        qrContent: qr ? 'weixin://wxpay/bizpayurl?pr=abc' : '',
        deadlineAt: ORDER_UNPAID.deadlineAt!,
        method: method ?? 'wechatpay',
        display: qr ? 'qr' : 'redirect',
        amountFen: ORDER_UNPAID.amountFen,
      };
      return HttpResponse.json({ code: 0, msg: 'success', data: answer });
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const open = (language: Language) => {
  saveUserData({ token: VALID_TOKEN });
  return renderApp({ path: `/my/order/${ORDER_UNPAID.orderNo}`, language, token: VALID_TOKEN });
};

describe.each(['zh', 'en'] as const)('the ways to pay in %s', (language) => {
  const t = T[language];

  it('shows one button per method with its name, and the amount due; the method chosen goes to orderPay', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const user = userEvent.setup();
    await open(language);
    const order = await screen.findByTestId(`order-${ORDER_UNPAID.orderNo}`);
    expect(within(order).getByTestId('order-due')).toHaveTextContent(t.due);
    const group = within(order).getByTestId('order-pay-methods');
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent?.replace(/\s/g, '')),
    ).toEqual(t.methods.map((m) => m.replace(/\s/g, '')));
    await user.click(within(group).getByTestId('order-pay-alipay'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/alipay'));
    expect(calls).toEqual([{ method: 'alipay' }]);
  });

  it('shows the QR code of a method paid by scanning, asks until the order is paid, then the result', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await open(language);
    const order = await screen.findByTestId(`order-${ORDER_UNPAID.orderNo}`);
    const unpaid = { ...ORDER_UNPAID, payMethods: METHODS };
    const paid = { ...unpaid, status: 3 as const, paidFen: 20000, paidAt: CENTRE_NOW, deadlineAt: null };
    centreMock.orderGets = 0;
    centreMock.orderAnswers = [unpaid, paid];
    await user.click(within(order).getByTestId('order-pay-wechatpay'));
    const qr = await screen.findByTestId('pay-qr');
    expect(qr).toHaveTextContent(t.scan);
    expect(within(qr).getByTestId('pay-qr-amount')).toHaveTextContent(t.due);
    expect(assign).not.toHaveBeenCalled();
    expect(calls).toEqual([{ method: 'wechatpay' }]);
    await waitFor(() => expect(within(qr).getByTestId('pay-qr-image')).toBeInTheDocument());
    await act(() => vi.advanceTimersByTimeAsync(QR_POLL_MS));
    await act(() => vi.advanceTimersByTimeAsync(QR_POLL_MS));
    expect(await screen.findByTestId('payment-success')).toHaveTextContent(t.registered);
    expect(screen.queryByTestId('pay-qr')).not.toBeInTheDocument();
  });
});
