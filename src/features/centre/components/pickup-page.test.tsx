import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Language } from '@/stores/app-store';
import { saveUserData } from '@/lib/user-data';
import { sessionStore } from '@/lib/storage';
import { centreHandlers, resetCentreMock } from '@/testing/mocks/handlers/centre';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { PICKUP_PASS, PICKUP_STAFF_KEY, pickupMock, resetPickupMock } from '@/testing/mocks/handlers/pickup';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';
import { STAFF_KEY_STORAGE } from './pickup-check-in-page';

/** A button by its text: antd puts a space between the two characters of a Chinese two-character label. */
const spaced = (text: string) => new RegExp(`^${[...text].join('\\s?')}$`);

const open = (path: string, language: Language) => {
  saveUserData({ token: VALID_TOKEN });
  return renderApp({ path, language, token: VALID_TOKEN });
};

const T = {
  zh: {
    location: '青川国际会展中心 2 号馆',
    deadline: '预约、改约和取消截止：2027-04-14 18:00',
    full: '已约满',
    left: '剩余 2 个名额',
    book: '预约',
    change: '改约到此时段',
    ok: '确定',
    confirmBook: '确认预约 2027-04-15 11:00–13:00 领取参赛包？',
    confirmChange: '确认将领物时段从 2027-04-15 11:00–13:00 改为 2027-04-16 09:00–11:00？原时段的名额将被释放。',
    yours: '当前预约',
    cancel: '取消预约',
    blocked: '该报名尚未支付报名费，支付完成后才能预约领物。',
    unblock: '去支付',
    checkOk: '核验通过，请发放参赛包',
    refused: '不能发放',
    collected: '该参赛包已于 2027-04-15 09:30 领取',
    checkSlot: '预约时段2027-04-15 11:00–13:00',
    badKey: '工作人员密钥错误或已停用',
  },
  en: {
    location: 'Hall 2, Qingchuan International Expo Centre',
    deadline: 'Booking, changing and cancelling close at 2027-04-14 18:00',
    full: 'Full',
    left: '2 places left',
    book: 'Book',
    change: 'Change to this slot',
    ok: 'Confirm',
    confirmBook: 'Book pack pick-up on 2027-04-15 11:00–13:00?',
    confirmChange:
      'Change your pick-up slot from 2027-04-15 11:00–13:00 to 2027-04-16 09:00–11:00? Your place in the current slot is given up.',
    yours: 'Your slot',
    cancel: 'Cancel booking',
    blocked: 'The registration fee of this entry is not paid yet: pay it, then book pick-up.',
    unblock: 'Pay now',
    checkOk: 'Checked in: hand over the race pack',
    refused: 'Do not hand over',
    checkSlot: 'Booked slot2027-04-15, 11:00–13:00',
    collected: 'This race pack was already collected at 2027-04-15 09:30',
    badKey: 'The staff key is wrong or has been revoked',
  },
} as const;

beforeEach(() => {
  resetCentreMock();
  resetPickupMock();
  sessionStore.removeItem(STAFF_KEY_STORAGE);
  // The pick-up handlers are among the shared ones; the centre's answer the entries' orders.
  server.use(...centreHandlers);
});

describe.each(['zh', 'en'] as const)('pack pick-up in %s', (language) => {
  const t = T[language];

  it('books a slot after confirming, shows the pass with its QR code, changes the slot keeping the code, and cancels', async () => {
    const user = userEvent.setup();
    await open('/my/pickup', language);
    const page = await screen.findByTestId('pickup-page');
    const info = await within(page).findByTestId('pickup-info');
    expect(info).toHaveTextContent(t.location);
    expect(within(page).getByTestId('pickup-deadline')).toHaveTextContent(t.deadline);

    const full = within(page).getByTestId('pickup-slot-2027-04-15 09:00');
    expect(full).toHaveTextContent(t.full);
    expect(within(full).getByTestId('pickup-book')).toBeDisabled();
    const free = within(page).getByTestId('pickup-slot-2027-04-15 11:00');
    expect(free).toHaveTextContent(t.left);

    await user.click(within(free).getByTestId('pickup-book'));
    await waitFor(() => expect(screen.getByText(t.confirmBook)).toBeInTheDocument());
    await user.click(screen.getAllByRole('button', { name: spaced(t.ok) }).at(-1)!);
    const pass = await within(page).findByTestId('pickup-pass');
    expect(within(pass).getByTestId('pickup-pass-code')).toHaveTextContent('ABCDE 23456');
    expect(within(pass).getByTestId('pickup-pass-slot')).toHaveTextContent('2027-04-15 11:00–13:00');
    expect(await within(pass).findByTestId('pickup-qr')).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png/),
    );
    expect(pickupMock.bookCalls).toEqual([{ entryNo: 'E1002', slotId: '2027-04-15 11:00' }]);
    expect(within(page).getByTestId('pickup-slot-2027-04-15 11:00')).toHaveTextContent(t.yours);

    // The second day's tab: change to its first slot.
    await user.click(within(page).getByTestId('pickup-day-2027-04-16'));
    const other = await within(page).findByTestId('pickup-slot-2027-04-16 09:00');
    await user.click(within(other).getByTestId('pickup-book'));
    await waitFor(() => expect(screen.getByText(t.confirmChange)).toBeInTheDocument());
    await user.click(screen.getAllByRole('button', { name: spaced(t.ok) }).at(-1)!);
    await waitFor(() =>
      expect(within(page).getByTestId('pickup-pass-slot')).toHaveTextContent('2027-04-16 09:00–11:00'),
    );
    expect(within(page).getByTestId('pickup-pass-code')).toHaveTextContent('ABCDE 23456');

    await user.click(within(page).getByTestId('pickup-cancel'));
    await user.click(screen.getAllByRole('button', { name: spaced(t.ok) }).at(-1)!);
    await waitFor(() => expect(within(page).queryByTestId('pickup-pass')).not.toBeInTheDocument());
    expect(pickupMock.cancelCalls).toEqual(['E1002']);
  });

  it('says why an unpaid entry cannot book and links to its order', async () => {
    const user = userEvent.setup();
    const { router } = await open('/my/pickup?entryNo=E1001', language);
    const blocked = await screen.findByTestId('pickup-blocked');
    expect(blocked).toHaveTextContent(t.blocked);
    for (const button of within(screen.getByTestId('pickup-slots')).getAllByTestId('pickup-book')) {
      expect(button).toBeDisabled();
    }
    await user.click(within(blocked).getByRole('link', { name: t.unblock }));
    expect(router.state.location.pathname).toBe('/my/order/O20270110001');
  });

  it('lets staff check a pass in once, keeping the key for the session, and refuses a second collection', async () => {
    pickupMock.answer.entries[0]!.booking = {
      slotId: '2027-04-15 11:00',
      status: 'booked',
      passCode: PICKUP_PASS,
      bookedAt: 0,
      collectedAt: null,
    };
    const user = userEvent.setup();
    await renderApp({ path: '/pickup-check-in', language, token: null });
    await user.type(await screen.findByTestId('pickup-check-key'), `${PICKUP_STAFF_KEY}{Enter}`);
    // Kept once the server has taken it.
    await waitFor(() => expect(sessionStore.getItem(STAFF_KEY_STORAGE)).toBe(PICKUP_STAFF_KEY));
    // A scanner types the code and Enter.
    await user.type(await screen.findByTestId('pickup-check-pass'), 'abcde 23456{Enter}');
    const result = await screen.findByTestId('pickup-check-result');
    expect(result).toHaveTextContent(t.checkOk);
    expect(result).toHaveTextContent('张三');
    expect(result).toHaveTextContent('1101**********1234');
    expect(result).toHaveTextContent('C0815');
    // The slot by its day, start and end, not its id.
    expect(result).toHaveTextContent(t.checkSlot);
    expect(pickupMock.checkIns[0]).toEqual({ passCode: PICKUP_PASS, staffKey: PICKUP_STAFF_KEY });

    await user.type(screen.getByTestId('pickup-check-pass'), `${PICKUP_PASS}{Enter}`);
    await waitFor(() => expect(screen.getByTestId('pickup-check-result')).toHaveTextContent(t.refused));
    expect(screen.getByTestId('pickup-check-reason')).toHaveTextContent(t.collected);
  });

  it('checks the staff key before any scan: a kept one when the screen opens, a typed one before it is kept', async () => {
    sessionStore.setItem(STAFF_KEY_STORAGE, 'revoked-key');
    const user = userEvent.setup();
    await renderApp({ path: '/pickup-check-in', language, token: null });
    // Said at once, without a scan: the key is forgotten and asked for again.
    expect(await screen.findByTestId('pickup-check-key-error')).toHaveTextContent(t.badKey);
    expect(screen.getByTestId('pickup-check-key')).toBeInTheDocument();
    expect(screen.queryByTestId('pickup-check-pass')).toBeNull();
    expect(sessionStore.getItem(STAFF_KEY_STORAGE)).toBeNull();
    await user.type(screen.getByTestId('pickup-check-key'), 'wrong-key{Enter}');
    await waitFor(() => expect(screen.getByTestId('pickup-check-start')).not.toHaveClass('ant-btn-loading'));
    expect(screen.getByTestId('pickup-check-key-error')).toHaveTextContent(t.badKey);
    expect(screen.queryByTestId('pickup-check-pass')).toBeNull();
    expect(sessionStore.getItem(STAFF_KEY_STORAGE)).toBeNull();
    expect(pickupMock.checkIns).toEqual([]);
  });
});
