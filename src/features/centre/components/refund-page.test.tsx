import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { centreHandlers, resetCentreMock } from '@/testing/mocks/handlers/centre';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { refundHandlers, refundMock, resetRefundMock } from '@/testing/mocks/handlers/refund';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';
import { saveUserData } from '@/lib/user-data';
import type { Language } from '@/stores/app-store';

const open = (path: string, language: Language) => {
  saveUserData({ token: VALID_TOKEN });
  return renderApp({ path, language, token: VALID_TOKEN });
};

const T = {
  zh: {
    title: '退款申请',
    terms: '退款申请截止时间：2027-03-01 18:00；审核通过后退还已付报名费的 80%。',
    tooShort: '请至少输入2个字符',
    confirm: '审核通过后将退还 ¥64.00（已付 ¥80.00 的 80%）',
    review: '退款审核中',
    underReview: '审核中',
    rejected: '未通过原因：已超过退款期限',
    request: '申请退款',
    send: '确认提交',
    deferral: '申请延期至下届',
    excluded: '公益名额和邀请码名额不可延期。',
    deferred: '已批准延期：本届报名已取消',
    deferralTitle: '延期申请',
    deferralTerms: '延期规则',
    deferralHow: '审核通过后本届报名取消、名额释放',
  },
  en: {
    title: 'Refund request',
    terms: 'Refund requests until 2027-03-01 18:00; once approved, 80% of the entry fee paid is returned.',
    tooShort: 'Please enter at least 2 characters',
    confirm: 'Once approved, ¥64.00 (80% of the ¥80.00 paid) is returned',
    review: 'Refund under review',
    underReview: 'Under review',
    rejected: 'Reason for rejection: 已超过退款期限',
    request: 'Request a refund',
    send: 'Send request',
    deferral: 'Defer to next year',
    excluded: 'Charity and invitation-code places cannot be deferred.',
    deferred: 'Deferral approved: this registration is cancelled',
    deferralTitle: 'Deferral request',
    deferralTerms: 'Deferral terms',
    deferralHow: 'this registration is cancelled, its place is released',
  },
} as const;

beforeEach(() => {
  resetCentreMock();
  resetRefundMock();
  server.use(...centreHandlers, ...refundHandlers);
});

describe.each(['zh', 'en'] as const)('the refund page in %s', (language) => {
  const t = T[language];

  it('shows the terms and the amounts, and the organiser’s reason of a rejected request of the entry chosen by ?entryNo=', async () => {
    await open('/my/refund?entryNo=E1004', language);
    const page = await screen.findByTestId('refund-page');
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent(t.title);
    expect(await within(page).findByTestId('refund-terms-refund')).toHaveTextContent(t.terms);
    const entry = within(page).getByTestId('refund-entry-E1004');
    expect(within(entry).getByTestId('refund-paid')).toHaveTextContent('¥80.00');
    expect(within(entry).getByTestId('refund-amount')).toHaveTextContent('¥64.00');
    expect(within(entry).getByTestId('refund-reject-reason')).toHaveTextContent(t.rejected);
    // Registered again after the rejection: it may ask once more; the race offers no deferral.
    expect(within(entry).getByTestId('refund-request')).toHaveTextContent(t.request);
    expect(within(entry).queryByTestId('refund-request-deferral')).not.toBeInTheDocument();
  });

  it('asks for a reason, confirms the amount in a dialog, sends the request and shows it under review', async () => {
    const user = userEvent.setup();
    await open('/my/refund', language);
    const entry = await screen.findByTestId('refund-entry-E1002');
    await user.click(within(entry).getByTestId('refund-request'));
    expect(within(entry).getByTestId('refund-reason-error')).toHaveTextContent(t.tooShort);
    expect(refundMock.requests).toEqual([]);

    await user.type(within(entry).getByTestId('refund-reason'), '临时出差');
    await user.click(within(entry).getByTestId('refund-request'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('refund-confirm-text')).toHaveTextContent(t.confirm);
    await user.click(within(dialog).getByRole('button', { name: t.send }));

    await waitFor(() =>
      expect(refundMock.requests).toEqual([
        { raceId: expect.any(String), entryNo: 'E1002', kind: 'refund', reason: '临时出差' },
      ]),
    );
    expect(await within(entry).findByTestId('refund-entry-status')).toHaveTextContent(t.review);
    expect(within(entry).getByTestId('refund-request-status')).toHaveTextContent(t.underReview);
    expect(within(entry).queryByTestId('refund-form')).not.toBeInTheDocument();
    expect(within(entry).getByTestId('refund-blocked-inReview')).toBeInTheDocument();
  });

  it('offers the deferral when the race does, except for a charity place', async () => {
    refundMock.answer.deferral = { allowed: true, until: '2027-03-01 18:00:00', state: 'open' };
    const { router } = await open('/my/refund?entryNo=E1002', language);
    const charity = await screen.findByTestId('refund-entry-E1002');
    expect(within(charity).queryByTestId('refund-request-deferral')).not.toBeInTheDocument();
    expect(charity).toHaveTextContent(t.excluded);

    await act(() => router.navigate('/my/refund?entryNo=E1004'));
    const other = await screen.findByTestId('refund-entry-E1004');
    expect(within(other).getByTestId('refund-request-deferral')).toHaveTextContent(t.deferral);
  });

  it('still offers the deferral once the refund window has closed', async () => {
    refundMock.answer.refunds = { ...refundMock.answer.refunds, state: 'ended' };
    refundMock.answer.deferral = { allowed: true, until: '2027-03-01 18:00:00', state: 'open' };
    await open('/my/refund?entryNo=E1004', language);
    const entry = await screen.findByTestId('refund-entry-E1004');
    expect(within(entry).getByTestId('refund-request-deferral')).toHaveTextContent(t.deferral);
    expect(within(entry).queryByTestId('refund-request')).not.toBeInTheDocument();
    expect(within(entry).queryByTestId('refund-blocked-ended')).not.toBeInTheDocument();
  });

  it('says both ended once the deferral has closed too', async () => {
    refundMock.answer.refunds = { ...refundMock.answer.refunds, state: 'ended' };
    refundMock.answer.deferral = { allowed: true, until: '2027-03-01 18:00:00', state: 'ended' };
    await open('/my/refund?entryNo=E1004', language);
    const entry = await screen.findByTestId('refund-entry-E1004');
    expect(within(entry).getByTestId('refund-blocked-ended')).toBeInTheDocument();
    expect(within(entry).queryByTestId('refund-request-deferral')).not.toBeInTheDocument();
  });

  it('speaks of deferral when the race offers deferral but no refunds', async () => {
    refundMock.answer.refunds = { allowed: false, until: '', sharePercent: 0, state: 'closed' };
    refundMock.answer.deferral = { allowed: true, until: '2027-03-01 18:00:00', state: 'open' };
    await open('/my/refund?entryNo=E1004', language);
    const page = await screen.findByTestId('refund-page');
    await waitFor(() => expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent(t.deferralTitle));
    const terms = within(page).getByTestId('refund-terms');
    expect(within(terms).getByRole('heading', { level: 2 })).toHaveTextContent(t.deferralTerms);
    expect(terms).toHaveTextContent(t.deferralHow);
    const entry = within(page).getByTestId('refund-entry-E1004');
    expect(within(entry).queryByTestId('refund-amount')).not.toBeInTheDocument();
    expect(within(entry).queryByTestId('refund-request')).not.toBeInTheDocument();
    expect(within(entry).getByTestId('refund-request-deferral')).toHaveTextContent(t.deferral);
  });

  it('says a deferred entry is cancelled and its code for the next race is on its way', async () => {
    const deferred = refundMock.answer.entries[1]!;
    deferred.status = 3;
    deferred.requests = [{ ...deferred.requests[0]!, kind: 'deferral', status: 'approved', amountFen: 0 }];
    await open('/my/refund?entryNo=E1004', language);
    const entry = await screen.findByTestId('refund-entry-E1004');
    expect(within(entry).getByTestId('refund-blocked-deferred')).toHaveTextContent(t.deferred);
    expect(within(entry).queryByTestId('refund-form')).not.toBeInTheDocument();
  });
});
