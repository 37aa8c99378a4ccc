import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import type { MessageCode } from '#contract/messages';
import { decryptPassword } from '#contract/password-crypto';
import { getEnv } from '@/config/env';
import { readStoredToken, saveUserData, USER_DATA_KEY } from '@/lib/user-data';
import { useAppStore, type Language } from '@/stores/app-store';
import {
  CENTRE_NOW,
  ENTRY_PAID,
  ENTRY_WAITING,
  ENTRY_WON,
  ORDER_PAID,
  ORDER_UNPAID,
  centreHandlers,
  centreMock,
  resetCentreMock,
} from '@/testing/mocks/handlers/centre';
import { api } from '@/testing/mocks/base-url';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';
import { browser } from '../utils/browser';
import { PAYMENT_POLL } from './order-page';

const message = (code: MessageCode) => i18n.t(`messages.${code}`);
const open = (path: string, language: Language) => {
  saveUserData({ token: VALID_TOKEN });
  return renderApp({ path, language, token: VALID_TOKEN });
};

const T = {
  zh: {
    menu: ['我的报名', '个人资料', '修改密码', '退出登录'],
    won: '已中签（报名成功）',
    submitted: '已提交，等待抽签',
    placed: '报名成功',
    awaitingPayment: '已提交，待支付',
    awaiting: '待支付',
    paid: '已支付',
    countdown: '剩余支付时间 1 天 02:03:04',
    countdownNext: '剩余支付时间 1 天 02:03:03',
    amount: '¥200.00',
    waitList: '候补第 3 位',
    ballot: '查看抽签公示',
    charity: '公益名额',
    labels: ['订单号', '子订单号', '创建时间', '流水号', '支付时间', '实付金额', '订单金额', '优惠券', '优惠金额'],
    registered: '支付成功，报名成功！',
    awaitingDraw: '支付成功，请等待抽签结果。',
    notConfirmed: '暂未确认到支付结果',
    cancelledNote: '该订单未在支付截止时间前支付，已自动取消，名额已释放。',
    empty: '您还没有报名记录。',
    signUp: '去报名',
    locked: '证件信息已设置，不能修改。如需更正，请联系赛事组委会。',
  },
  en: {
    menu: ['My registrations', 'Profile', 'Password', 'Log out'],
    won: 'Won the lottery (registered successfully)',
    submitted: 'Submitted, awaiting the draw',
    placed: 'Registered successfully',
    awaitingPayment: 'Submitted, awaiting payment',
    awaiting: 'Awaiting payment',
    paid: 'Paid',
    countdown: 'Time left to pay: 1 d 02:03:04',
    countdownNext: 'Time left to pay: 1 d 02:03:03',
    amount: '¥200.00',
    waitList: 'Position 3 on the wait list',
    ballot: 'See the ballot',
    charity: 'Charity place',
    labels: [
      'Order number',
      'Sub-order number',
      'Create time',
      'Serial number',
      'Payment time',
      'Amount paid',
      'Order amount',
      'Coupon',
      'Discount',
    ],
    registered: 'Payment received: you are registered successfully!',
    awaitingDraw: 'Payment received: please wait for the draw.',
    notConfirmed: 'Payment not confirmed yet',
    cancelledNote:
      'This order was not paid before its deadline and was cancelled automatically; its place was released.',
    empty: 'You have no registrations yet.',
    signUp: 'Sign up',
    locked: 'The certificate is set and cannot be changed. To correct it, please contact the organising committee.',
  },
} as const;

beforeEach(() => {
  resetCentreMock();
  server.use(...centreHandlers);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe.each(['zh', 'en'] as const)('my registrations in %s', (language) => {
  const t = T[language];

  it('lists the entries per race with status, timeline, masked certificate, bib, wait list, ballot link and the order', async () => {
    // The clock stands still at the server's time, so the countdown reads exactly; one second later it ticks.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], now: CENTRE_NOW });
    await open('/my/my-index', language);
    const page = await screen.findByTestId('my-index-page');
    await within(page).findByTestId(`entry-${ENTRY_WON.entryNo}`);
    const menu = screen.getByRole('navigation', { name: i18n.t('centre.menu.title') });
    for (const item of t.menu) expect(within(menu).getByText(item)).toBeInTheDocument();
    expect(within(page).getByTestId('race-test-race-2027')).toBeInTheDocument();
    expect(within(page).getByTestId('race-other-race-2026')).toBeInTheDocument();

    const won = await within(page).findByTestId(`entry-${ENTRY_WON.entryNo}`);
    expect(within(won).getByTestId('entry-status')).toHaveTextContent(t.won);
    expect(within(won).getByTestId('entry-certificate')).toHaveTextContent('1101**********1234');
    expect(within(won).getByTestId('timeline-submitted')).toHaveTextContent('2027-01-02 02:00:00');
    expect(within(won).getByTestId('timeline-won')).toHaveTextContent('2027-01-10 09:00:00');
    expect(within(won).getByTestId('entry-ballot-link')).toHaveTextContent(t.ballot);
    const order = within(won).getByTestId(`order-${ORDER_UNPAID.orderNo}`);
    expect(within(order).getByTestId('order-status')).toHaveTextContent(t.awaiting);
    expect(within(order).getByTestId('order-amount')).toHaveTextContent(t.amount);
    expect(within(order).getByTestId('order-countdown')).toHaveTextContent(t.countdown);
    await act(() => vi.advanceTimersByTime(1000));
    expect(within(order).getByTestId('order-countdown')).toHaveTextContent(t.countdownNext);

    const paid = within(page).getByTestId(`entry-${ENTRY_PAID.entryNo}`);
    expect(within(paid).getByTestId('entry-bib')).toHaveTextContent('C0815');
    expect(paid).toHaveTextContent(t.charity);
    expect(within(paid).queryByTestId('entry-ballot-link')).not.toBeInTheDocument();
    expect(within(paid).getByTestId('order-status')).toHaveTextContent(t.paid);
    expect(within(paid).queryByTestId('order-pay')).not.toBeInTheDocument();

    const waiting = within(page).getByTestId(`entry-${ENTRY_WAITING.entryNo}`);
    expect(within(waiting).getByTestId('entry-status')).toHaveTextContent(t.submitted);
    expect(within(waiting).getByTestId('entry-wait-list')).toHaveTextContent(t.waitList);
    expect(within(waiting).queryByTestId('order-status')).not.toBeInTheDocument();
  });

  it('words a first-come entry (and a guaranteed place) as registered or awaiting payment, never as a ballot', async () => {
    centreMock.entries = [
      ...centreMock.entries,
      { ...ENTRY_PAID, entryNo: 'E1009', channel: 'public', status: 0, bib: null, orderNo: ORDER_UNPAID.orderNo },
      { ...ENTRY_WON, entryNo: 'E1010', channel: 'code', status: 1, timeline: [] },
    ];
    await open('/my/my-index', language);
    const page = await screen.findByTestId('my-index-page');
    const status = async (entryNo: string) =>
      (await within(page).findByTestId(`entry-${entryNo}`)).querySelector('[data-testid="entry-status"]')?.textContent;
    // 10 km, first come: paid (a charity place) and unpaid.
    expect(await status(ENTRY_PAID.entryNo)).toBe(t.placed);
    expect(await status('E1009')).toBe(t.awaitingPayment);
    // The marathon's ballot: drawn publicly, or a place by invitation code.
    expect(await status(ENTRY_WON.entryNo)).toBe(t.won);
    expect(await status('E1010')).toBe(t.placed);
    expect(await status(ENTRY_WAITING.entryNo)).toBe(t.submitted);
    // The public ballot page is linked from the entries by draw only.
    const ballotLink = async (entryNo: string) =>
      within(await within(page).findByTestId(`entry-${entryNo}`)).queryByTestId('entry-ballot-link');
    expect(await ballotLink(ENTRY_WON.entryNo)).not.toBeNull();
    expect(await ballotLink('E1010')).toBeNull();
    expect(await ballotLink('E1009')).toBeNull();
  });

  it('pays: orderPay, then the browser goes to the cashier page', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const user = userEvent.setup();
    await open('/my/my-index', language);
    const won = await screen.findByTestId(`entry-${ENTRY_WON.entryNo}`);
    await user.click(within(won).getByTestId('order-pay'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/pay/sandbox/cashier?paymentId=P1'));
    expect(centreMock.payCalls).toEqual([{ orderNo: ORDER_UNPAID.orderNo, site: 'desktop' }]);
  });

  it('pays from the mobile site: the cashier is asked to send the runner back to it', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const page = window.location.pathname;
    window.history.replaceState(null, '', '/m/');
    try {
      const user = userEvent.setup();
      await open('/my/my-index', language);
      const won = await screen.findByTestId(`entry-${ENTRY_WON.entryNo}`);
      await user.click(within(won).getByTestId('order-pay'));
      await waitFor(() => expect(assign).toHaveBeenCalled());
      expect(centreMock.payCalls).toEqual([{ orderNo: ORDER_UNPAID.orderNo, site: 'mobile' }]);
    } finally {
      window.history.replaceState(null, '', page);
    }
  });

  it('links a won entry to the services its race offers, each with the entry preselected, and a click goes there', async () => {
    const services = {
      zh: { letter: '电子承诺书', pickup: '领物预约', refund: '退款申请', mailing: '赛事包邮寄' },
      en: { letter: 'Commitment letter', pickup: 'Book pack pick-up', refund: 'Refund', mailing: 'Race pack delivery' },
    }[language];
    centreMock.entries = [
      { ...ENTRY_PAID, services: ['letter', 'pickup', 'refund', 'mailing'] },
      { ...ENTRY_WAITING, services: [] },
    ];
    const { router } = await open('/my/my-index', language);
    const paid = await screen.findByTestId(`entry-${ENTRY_PAID.entryNo}`);
    const nav = within(paid).getByRole('navigation', { name: language === 'zh' ? '参赛服务' : 'Services' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      services.letter,
      services.pickup,
      services.refund,
      services.mailing,
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/my/letter?entryNo=E1002',
      '/my/pickup?entryNo=E1002',
      '/my/refund?entryNo=E1002',
      '/post',
    ]);
    const waiting = screen.getByTestId(`entry-${ENTRY_WAITING.entryNo}`);
    expect(within(waiting).queryByTestId('entry-services')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(nav).getByRole('link', { name: services.refund }));
    expect(router.state.location.pathname).toBe('/my/refund');
    expect(router.state.location.search).toBe('?entryNo=E1002');
  });

  it('says "Request deferral" on the link of a race that offers deferral but no refunds', async () => {
    centreMock.entries = [{ ...ENTRY_PAID, services: ['deferral'] }];
    await open('/my/my-index', language);
    const link = await screen.findByTestId('entry-service-deferral');
    expect(link).toHaveTextContent(language === 'zh' ? '申请延期' : 'Request deferral');
    expect(link).toHaveAttribute('href', '/my/refund?entryNo=E1002');
  });

  it('with no registration links to the sign-up page', async () => {
    centreMock.entries = [];
    centreMock.orders = [];
    const { router } = await open('/my/my-index', language);
    const empty = await screen.findByTestId('my-index-empty');
    expect(empty).toHaveTextContent(t.empty);
    const user = userEvent.setup();
    await user.click(within(empty).getByRole('link', { name: t.signUp }));
    expect(router.state.location.pathname).toBe('/my/signup');
  });

  it('asks for a login when logged out', async () => {
    await renderApp({ path: '/my/my-index', language, token: null });
    await waitFor(() => expect(screen.getByTestId('login-required')).toBeInTheDocument());
    expect(useAppStore.getState().loginDrawerOpen).toBe(true);
  });
});

describe.each(['zh', 'en'] as const)('one order in %s', (language) => {
  const t = T[language];

  it("shows the spec's order labels, the lines and the pay button", async () => {
    await open(`/my/order/${ORDER_PAID.orderNo}`, language);
    const page = await screen.findByTestId('order-page');
    const order = await within(page).findByTestId(`order-${ORDER_PAID.orderNo}`);
    for (const label of t.labels) expect(order).toHaveTextContent(label);
    expect(within(order).getByTestId('order-serial')).toHaveTextContent('SB202701050001');
    expect(within(order).getByTestId('order-paid')).toHaveTextContent('¥80.00');
    expect(within(order).getByTestId('order-paid-at')).toHaveTextContent('2027-01-05 11:00:00');
    expect(within(order).getByTestId('order-lines')).toHaveTextContent('O20270105002-1');
    expect(within(order).queryByTestId('order-pay')).not.toBeInTheDocument();
  });

  it('explains a cancelled order', async () => {
    centreMock.orders = [{ ...ORDER_UNPAID, status: 4, deadlineAt: null }];
    await open(`/my/order/${ORDER_UNPAID.orderNo}`, language);
    expect(await screen.findByTestId('order-cancelled-note')).toHaveTextContent(t.cancelledNote);
    expect(screen.queryByTestId('order-pay')).not.toBeInTheDocument();
  });

  it('back from the cashier asks every second until the order is paid: registered successfully', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const paid = { ...ORDER_UNPAID, status: 3 as const, paidFen: 20000, paidAt: CENTRE_NOW, deadlineAt: null };
    centreMock.orderAnswers = [ORDER_UNPAID, ORDER_UNPAID, paid];
    await open(`/my/order/${ORDER_UNPAID.orderNo}?paid=1`, language);
    await waitFor(() => expect(screen.getByTestId('payment-checking')).toBeInTheDocument());
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL.intervalMs));
    await waitFor(() => expect(centreMock.orderGets).toBe(2));
    expect(screen.getByTestId('payment-checking')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL.intervalMs));
    expect(await screen.findByTestId('payment-success')).toHaveTextContent(t.registered);
    expect(centreMock.orderGets).toBe(3);
    expect(screen.getByTestId('order-status')).toHaveTextContent(t.paid);
  });

  it('says "paid, waiting for the draw" while the entry awaits the ballot', async () => {
    centreMock.entries = [{ ...ENTRY_WON, status: 0 }];
    centreMock.orders = [{ ...ORDER_UNPAID, status: 3, paidFen: 20000, deadlineAt: null }];
    await open(`/my/order/${ORDER_UNPAID.orderNo}?paid=1`, language);
    expect(await screen.findByTestId('payment-success')).toHaveTextContent(t.awaitingDraw);
  });

  it('says "payment not confirmed yet" after 15 seconds, and refresh asks again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    await open(`/my/order/${ORDER_UNPAID.orderNo}?paid=1`, language);
    await waitFor(() => expect(screen.getByTestId('payment-checking')).toBeInTheDocument());
    for (let poll = 1; poll <= PAYMENT_POLL.maxPolls; poll += 1) {
      await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL.intervalMs));
      await waitFor(() => expect(centreMock.orderGets).toBe(poll + 1));
    }
    expect(await screen.findByTestId('payment-unconfirmed')).toHaveTextContent(t.notConfirmed);
    await act(() => vi.advanceTimersByTimeAsync(5 * PAYMENT_POLL.intervalMs));
    expect(centreMock.orderGets).toBe(PAYMENT_POLL.maxPolls + 1);

    centreMock.orderAnswers = [{ ...ORDER_UNPAID, status: 3, paidFen: 20000, deadlineAt: null }];
    centreMock.orderGets = 0;
    fireEvent.click(screen.getByTestId('payment-refresh'));
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL.intervalMs));
    expect(await screen.findByTestId('payment-success')).toHaveTextContent(t.registered);
  });
});

describe.each(['zh', 'en'] as const)('profile in %s', (language) => {
  const t = T[language];

  it('checks the fields with the contract rules, saves, and shows the certificate masked and locked', async () => {
    const user = userEvent.setup();
    await open('/my/profile', language);
    const form = await screen.findByTestId('profile-form');
    const name = within(form).getByLabelText(i18n.t('centre.profile.userName'));
    await user.type(name, '" "');
    await user.tab();
    await waitFor(() => expect(within(form).getByText(message('nameInvalid'))).toBeInTheDocument());
    // A name as on a passport, with a space inside, is taken.
    await user.clear(name);
    await user.type(name, 'ZHANG Wei');
    await user.tab();
    await waitFor(() => expect(within(form).queryByText(message('nameInvalid'))).toBeNull());
    await user.clear(name);
    await user.type(name, '张三');
    // The account's masked login address is not offered as the profile's e-mail.
    const email = within(form).getByLabelText(i18n.t('centre.profile.email'));
    expect(email).toHaveValue('');
    await user.type(email, 'not-an-email');
    await user.tab();
    await waitFor(() => expect(within(form).getByText(message('badEmail'))).toBeInTheDocument());
    await user.clear(email);
    await user.type(email, 'zhang@example.com');
    const card = within(form).getByLabelText(i18n.t('centre.profile.cardNumber'));
    await user.type(card, '123');
    await user.tab();
    await waitFor(() => expect(within(form).getByText(message('idCardInvalid'))).toBeInTheDocument());
    await user.clear(card);
    await user.type(card, '110105199003071239');
    expect(within(form).getByTestId('profile-card-note')).toBeInTheDocument();
    await user.click(within(form).getByTestId('profile-save'));

    await waitFor(() => expect(centreMock.profileSaves).toHaveLength(1));
    expect(centreMock.profileSaves[0]).toMatchObject({
      userName: '张三',
      userEmail: 'zhang@example.com',
      cardType: 1,
      cardNumber: '110105199003071239',
    });
    const locked = await screen.findByTestId('profile-card-locked');
    expect(within(locked).getByTestId('profile-card-number')).toHaveTextContent('1101**********1239');
    expect(locked).toHaveTextContent(t.locked);
    expect(screen.queryByLabelText(i18n.t('centre.profile.cardNumber'))).not.toBeInTheDocument();
    // The stored user data follows the saved profile; the login stays.
    expect(JSON.parse(localStorage.getItem(USER_DATA_KEY)!).userInfo.userName).toBe('张三');
    expect(readStoredToken()).toBe(VALID_TOKEN);

    // A later save sends no certificate.
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() => expect(centreMock.profileSaves).toHaveLength(2));
    expect(centreMock.profileSaves[1]).not.toHaveProperty('cardNumber');
  });

  it("shows the server's field refusals on their fields: a region key on the region picker, cardType on the number", async () => {
    server.use(
      http.post(api(API_PATHS.profile), () =>
        HttpResponse.json({
          code: 400,
          msg: 'refused',
          msgCode: 'regionUnknown',
          data: { fields: { residentialCity: { code: 'regionUnknown' }, cardType: { code: 'idCardInvalid' } } },
        }),
      ),
    );
    const user = userEvent.setup();
    await open('/my/profile', language);
    const form = await screen.findByTestId('profile-form');
    await user.type(within(form).getByLabelText(i18n.t('centre.profile.userName')), '张三');
    await user.type(within(form).getByLabelText(i18n.t('centre.profile.cardNumber')), '110105199003071239');
    await user.click(within(form).getByTestId('profile-save'));
    const itemOf = (label: string) => within(form).getByText(label, { selector: 'label' }).closest('.ant-form-item')!;
    await waitFor(() => expect(itemOf(i18n.t('centre.profile.region'))).toHaveTextContent(message('regionUnknown')));
    expect(itemOf(i18n.t('centre.profile.cardNumber'))).toHaveTextContent(message('idCardInvalid'));
  });
});

describe.each(['zh', 'en'] as const)('password in %s', (language) => {
  const fill = async (user: ReturnType<typeof userEvent.setup>, values: [string, string, string]) => {
    const form = await screen.findByTestId('password-form');
    const labels = ['centre.password.old', 'centre.password.new', 'centre.password.confirm'] as const;
    for (const [i, label] of labels.entries()) {
      const input = within(form).getByLabelText(i18n.t(label));
      await user.clear(input);
      await user.type(input, values[i]!);
    }
    await user.tab();
    return form;
  };

  // A field's message is looked for and checked in one step: a check made again (the save button's, after the
  // field's own on leaving it) draws the message anew, and a node found before it is no longer in the page.
  it('checks the new password with the spec rules', async () => {
    const user = userEvent.setup();
    await open('/my/password', language);
    const form = await fill(user, ['Runner2027', 'abcdef', 'abcdef']);
    await user.click(within(form).getByTestId('password-save'));
    await waitFor(() => expect(within(form).getByText(message('passwordRule'))).toBeInTheDocument());
    await fill(user, ['Runner2027', 'NewPass456', 'NewPass457']);
    await user.click(within(form).getByTestId('password-save'));
    await waitFor(() => expect(within(form).getByText(message('passwordsDiffer'))).toBeInTheDocument());
    expect(centreMock.passwordChanges).toHaveLength(0);
  });

  it('changes the password encrypted, then clears the login and opens the login drawer', async () => {
    const user = userEvent.setup();
    await open('/my/password', language);
    const form = await fill(user, ['Runner2027', 'NewPass456', 'NewPass456']);
    await user.click(within(form).getByTestId('password-save'));
    await waitFor(() => expect(centreMock.passwordChanges).toHaveLength(1));
    const body = centreMock.passwordChanges[0]!;
    expect(body.encryptType).toBe('1');
    expect(JSON.stringify(body)).not.toContain('NewPass456');
    expect(decryptPassword(body.loginPassword as string, getEnv().passwordKey)).toBe('NewPass456');
    expect(decryptPassword(body.oldPassword as string, getEnv().passwordKey)).toBe('Runner2027');
    await waitFor(() => expect(useAppStore.getState().token).toBeNull());
    expect(localStorage.getItem(USER_DATA_KEY)).toBeNull();
    expect(readStoredToken()).toBeNull();
    expect(useAppStore.getState().loginDrawerOpen).toBe(true);
    await waitFor(() => expect(screen.getByTestId('login-required')).toBeInTheDocument());
  });

  it('shows the refusal of a wrong current password and keeps the login', async () => {
    centreMock.passwordRefusal = 'oldPasswordWrong';
    const user = userEvent.setup();
    await open('/my/password', language);
    const form = await fill(user, ['Wrong1234', 'NewPass456', 'NewPass456']);
    await user.click(within(form).getByTestId('password-save'));
    expect(await screen.findByTestId('password-failure')).toHaveTextContent(message('oldPasswordWrong'));
    expect(useAppStore.getState().token).toBe(VALID_TOKEN);
  });
});

describe('log out from the centre menu', () => {
  it('tells the server and clears the login', async () => {
    const calls: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (new URL(request.url).pathname === API_PATHS.logout) calls.push(request.headers.get('token') ?? '');
    });
    const user = userEvent.setup();
    await open('/my/profile', 'zh');
    await user.click(await screen.findByTestId('centre-logout'));
    await waitFor(() => expect(useAppStore.getState().token).toBeNull());
    expect(calls).toEqual([VALID_TOKEN]);
    await waitFor(() => expect(screen.getByTestId('login-required')).toBeInTheDocument());
    server.events.removeAllListeners();
  });
});
