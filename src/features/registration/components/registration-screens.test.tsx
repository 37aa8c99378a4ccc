import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import type { MessageCode } from '#contract/messages';
import type { DirectApplication } from '#contract/registration-screens';
import { useAppStore, type Language } from '@/stores/app-store';
import { dragSliderTo } from '@/testing/auth-drawer';
import { MASKED_ID, RUNNER } from '@/testing/fixtures/registration';
import { api } from '@/testing/mocks/base-url';
import { SLIDER } from '@/testing/mocks/handlers/auth';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { receivedUploads } from '@/testing/mocks/handlers/uploads';
import { registrationMock, resetRegistrationMock } from '@/testing/mocks/handlers/registration';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const message = (code: MessageCode) => i18n.t(`messages.${code}`);
const open = (path: string, language: Language = 'zh') => renderApp({ path, language, token: VALID_TOKEN });

const T = {
  zh: {
    notice: '申请须知',
    next: '我已阅读，下一步',
    waiting: '待提交',
    submittedList: '已提交',
    awaiting: '已提交待审核',
    approved: '审核通过',
    rejected: '审核未通过',
    ended: '申请已结束',
    resubmit: '修改并重新提交',
    cont: '继续填写',
    notYet: '申请尚未开始，请在申请时间内提交',
    retry: '重试',
  },
  en: {
    notice: 'Before you apply',
    next: 'I have read it, next',
    waiting: 'Waiting to submit',
    submittedList: 'Submitted',
    awaiting: 'Submitted, awaiting review',
    approved: 'Approved',
    rejected: 'Rejected',
    ended: 'Application ended',
    resubmit: 'Correct and resubmit',
    cont: 'Continue',
    notYet: 'The application period has not started yet; please apply within the period',
    retry: 'Retry',
  },
} as const;

const application = (status: 0 | 1 | 2 | 3, extra: Partial<DirectApplication> = {}): DirectApplication => ({
  id: 7,
  status,
  values: { name: RUNNER.name, certificateType: 1, certificateNumber: MASKED_ID },
  createdAt: Date.UTC(2027, 0, 5, 2),
  updatedAt: Date.UTC(2027, 0, 5, 3),
  ...(status > 0 ? { submittedAt: Date.UTC(2027, 0, 5, 3) } : {}),
  ...extra,
});

beforeEach(() => {
  resetRegistrationMock();
  receivedUploads.length = 0;
});

describe.each(['zh', 'en'] as const)('/direct in %s', (language) => {
  const t = T[language];

  it('shows the window, step 1 (the notice), then step 2 (the direct form); a draft saves as waiting to submit', async () => {
    const user = userEvent.setup();
    await open('/direct', language);
    const page = await screen.findByTestId('direct-page');
    expect(await within(page).findByTestId('direct-window')).toHaveTextContent('2027-01-01 00:00:00');
    expect(within(page).getByTestId('direct-window')).toHaveTextContent('2027-02-28 23:59:59');
    expect(within(page).getByRole('heading', { name: t.notice })).toBeInTheDocument();
    await user.click(within(page).getByRole('button', { name: t.next }));
    const name = await within(page).findByLabelText(language === 'zh' ? '姓名' : 'Name');
    await user.type(name, RUNNER.name);
    await user.click(within(page).getByTestId('save-draft'));
    await waitFor(() => expect(registrationMock.savedDirect).toHaveLength(1));
    expect(registrationMock.savedDirect[0]).toMatchObject({ submit: false, values: { name: RUNNER.name } });
    expect(await within(page).findByTestId('direct-list-status')).toHaveTextContent(t.waiting);
  });

  it.each([
    [1, 'awaiting', 'submittedList'],
    [2, 'approved', 'submittedList'],
    [3, 'rejected', 'submittedList'],
    [0, 'waiting', 'waiting'],
  ] as const)('shows an application of status %s with its label, and the list label', async (status, detail, list) => {
    registrationMock.application = application(status, status === 3 ? { rejectReason: '成绩证书不清晰' } : {});
    await open('/direct', language);
    const box = await screen.findByTestId('direct-status');
    expect(within(box).getByTestId('direct-status-label')).toHaveTextContent(t[detail]);
    expect(screen.getByTestId('direct-list-status')).toHaveTextContent(t[list]);
    if (status === 3) {
      expect(within(box).getByTestId('direct-reject-reason')).toHaveTextContent('成绩证书不清晰');
      const user = userEvent.setup();
      await user.click(within(box).getByRole('button', { name: t.resubmit }));
      // The form again, with the values kept; the masked number, sent back unchanged, stands for the stored one.
      await waitFor(() => expect(screen.getByDisplayValue(RUNNER.name)).toBeInTheDocument());
      expect(screen.getByDisplayValue(MASKED_ID)).toBeInTheDocument();
      expect(screen.getByText('成绩证书不清晰')).toBeInTheDocument();
    } else if (status === 0) {
      expect(within(box).getByRole('button', { name: t.cont })).toBeInTheDocument();
    } else {
      expect(within(box).queryByRole('button')).toBeNull();
    }
  });

  it('says "application ended" after the window and "not yet" before it, without the form', async () => {
    registrationMock.window = { ...registrationMock.window, state: 'ended' };
    const { unmount } = await open('/direct', language);
    expect(await screen.findByTestId('direct-ended')).toHaveTextContent(t.ended);
    expect(screen.queryByTestId('direct-notice')).toBeNull();
    unmount();
    registrationMock.window = { ...registrationMock.window, state: 'notYet' };
    await open('/direct', language);
    expect(await screen.findByTestId('direct-not-yet')).toHaveTextContent(t.notYet);
    expect(screen.queryByTestId('direct-notice')).toBeNull();
  });

  it('keeps a draft left when the window closed readable, with "application ended" and no way to continue', async () => {
    registrationMock.window = { ...registrationMock.window, state: 'ended' };
    registrationMock.application = application(0);
    await open('/direct', language);
    expect(await screen.findByTestId('direct-ended')).toHaveTextContent(t.ended);
    expect(screen.getByTestId('direct-status-label')).toHaveTextContent(t.waiting);
    expect(screen.queryByRole('button', { name: t.cont })).toBeNull();
  });

  it("shows the server's field refusals on their fields", async () => {
    const user = userEvent.setup();
    registrationMock.refuseFields = { certificateNumber: { code: 'directCertificateUsed' } };
    await open('/direct', language);
    await user.click(await screen.findByRole('button', { name: t.next }));
    await user.click(await screen.findByTestId('save-draft'));
    await waitFor(() =>
      expect(
        document.getElementById('direct-form_certificateNumber_label')?.closest('.ant-form-item'),
      ).toHaveTextContent(message('directCertificateUsed')),
    );
  });

  it('shows a failed load with a retry that loads again', async () => {
    let calls = 0;
    server.use(
      http.get(api(API_PATHS.directMine), () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ code: 500, msg: 'boom', data: null }, { status: 500 })
          : HttpResponse.json({
              code: 0,
              msg: 'success',
              data: { window: registrationMock.window, formChannel: 'direct' },
            });
      }),
    );
    const user = userEvent.setup();
    await open('/direct', language);
    const error = await screen.findByTestId('screen-error');
    await user.click(within(error).getByRole('button', { name: t.retry }));
    await waitFor(() => expect(screen.getByTestId('direct-notice')).toBeInTheDocument());
  });
});

describe.each(['zh', 'en'] as const)('/confirm in %s', (language) => {
  const zh = language === 'zh';

  it('passes the slider, finds the registration (masked), confirms it and shows the time', async () => {
    const user = userEvent.setup();
    await open('/confirm', language);
    const page = await screen.findByTestId('confirm-page');
    const search = await within(page).findByTestId('confirm-search');
    expect(search).toBeDisabled();
    await user.type(within(page).getByLabelText(zh ? '姓名' : 'Name'), RUNNER.name);
    await user.type(within(page).getByLabelText(zh ? '证件号码' : 'Certificate number'), RUNNER.certificateNumber);
    await dragSliderTo(SLIDER.targetX);
    await waitFor(() => expect(search).toBeEnabled());
    await user.click(search);
    const result = await screen.findByTestId('confirm-result');
    expect(registrationMock.confirmAsked[0]).toMatchObject({
      ...RUNNER,
      raceId: 'test-race-2027',
      captcha: { token: 'nc-token-1', sig: 'sig-1', sessionId: SLIDER.sessionId, scene: SLIDER.scene },
    });
    expect(within(result).getByTestId('confirm-certificate')).toHaveTextContent(MASKED_ID);
    expect(within(result).getByTestId('confirm-bib')).toHaveTextContent('A0012');
    expect(within(result).getByTestId('confirm-status')).toHaveTextContent(zh ? '中签（报名成功）' : /Won the lottery/);
    expect(within(result).getByText(zh ? '官网' : 'Website')).toBeInTheDocument();
    // The slider pass is used: a fresh slider for the next search.
    expect(search).toBeDisabled();
    await user.click(within(result).getByTestId('confirm-button'));
    expect(await within(result).findByTestId('confirm-done')).toHaveTextContent('2027-01-10 10:02:00');
  });

  it('says "Registration information does not exist" for someone else', async () => {
    const user = userEvent.setup();
    await open('/confirm', language);
    const page = await screen.findByTestId('confirm-page');
    await user.type(within(page).getByLabelText(zh ? '姓名' : 'Name'), '王五');
    await user.type(within(page).getByLabelText(zh ? '证件号码' : 'Certificate number'), RUNNER.certificateNumber);
    await dragSliderTo(SLIDER.targetX);
    const search = within(page).getByTestId('confirm-search');
    await waitFor(() => expect(search).toBeEnabled());
    await user.click(search);
    expect(await screen.findByTestId('confirm-failure')).toHaveTextContent(message('registrationMissing'));
  });
});

describe.each(['zh', 'en'] as const)('/post in %s', (language) => {
  const zh = language === 'zh';

  it('shows the notice and deadline, takes a mailing address with the region picker, then shows the saved choice', async () => {
    const user = userEvent.setup();
    await open('/post', language);
    const page = await screen.findByTestId('post-page');
    expect(await within(page).findByTestId('post-notice')).toHaveTextContent(zh ? '快递到付' : 'cash on delivery');
    expect(within(page).getByTestId('post-deadline')).toHaveTextContent('2027-03-20 18:00:00');
    await user.type(within(page).getByLabelText(zh ? '收件人' : 'Recipient'), RUNNER.name);
    await user.type(within(page).getByLabelText(zh ? '收件人手机号码' : "Recipient's mobile phone"), '13800138000');
    const region = within(page).getByLabelText(zh ? '所在省市区' : 'Province / city / district');
    await waitFor(() => expect(region).toBeEnabled());
    await user.type(region, zh ? '海淀' : 'haidian');
    await user.click(
      await screen.findByText(
        (_, el) =>
          el?.tagName === 'LI' &&
          el.textContent === (zh ? '北京市 / 北京市 / 海淀区' : 'Beijing / Beijing / Haidian District'),
      ),
    );
    await user.type(within(page).getByLabelText(zh ? '详细地址' : 'Street address'), '中关村大街1号');
    await user.click(within(page).getByTestId('post-save'));
    const saved = await within(page).findByTestId('post-saved');
    expect(registrationMock.mailingSaved[0]).toEqual({
      raceId: 'test-race-2027',
      method: 'mail',
      name: RUNNER.name,
      phone: '13800138000',
      region: ['110000', '110100', '110108'],
      address: '中关村大街1号',
    });
    expect(within(saved).getByTestId('post-saved-method')).toHaveTextContent(zh ? '快递邮寄' : 'Mail it to me');
    expect(within(saved).getByTestId('post-saved-address')).toHaveTextContent('中关村大街1号');
  });

  it('refuses a mailing without an address with the address message', async () => {
    const user = userEvent.setup();
    await open('/post', language);
    const page = await screen.findByTestId('post-page');
    await user.click(await within(page).findByTestId('post-save'));
    expect(await within(page).findByText(message('addressRequired'))).toBeInTheDocument();
    expect(registrationMock.mailingSaved).toEqual([]);
  });

  it('shows the parcel above the choice: waiting for dispatch, then shipped with a tracking number to copy', async () => {
    const choice = {
      method: 'mail' as const,
      name: RUNNER.name,
      phone: '138****8000',
      region: ['110000', '110100', '110108'] as [string, string, string],
      address: '中关村大街1号',
      updatedAt: Date.UTC(2027, 0, 5, 2),
    };
    registrationMock.mailing = {
      ...registrationMock.mailing,
      choice,
      parcel: { state: 'waiting', carrier: null, trackingNo: null, shippedAt: null },
    };
    const { unmount } = await open('/post', language);
    const waiting = await screen.findByTestId('post-parcel');
    expect(waiting).toHaveTextContent(zh ? '等待寄出' : 'Waiting for dispatch');
    expect(screen.getByTestId('post-notice')).toHaveTextContent(zh ? '快递到付' : 'cash on delivery');
    expect(screen.getByTestId('post-change')).toBeInTheDocument();
    unmount();

    registrationMock.mailing = {
      ...registrationMock.mailing,
      parcel: {
        state: 'shipped',
        carrier: '顺丰速运',
        trackingNo: 'SF1234567890123',
        shippedAt: Date.UTC(2027, 1, 3, 2),
      },
    };
    const writeText = vi.fn(() => Promise.resolve());
    const user = userEvent.setup();
    await open('/post', language);
    const shipped = await screen.findByTestId('post-parcel');
    expect(shipped).toHaveTextContent(zh ? '已寄出' : 'Shipped');
    expect(within(shipped).getByTestId('post-parcel-carrier')).toHaveTextContent('顺丰速运');
    expect(within(shipped).getByTestId('post-parcel-tracking')).toHaveTextContent('SF1234567890123');
    expect(screen.getByTestId('post-notice')).toHaveTextContent(zh ? '快递到付' : 'cash on delivery');
    // A shipped parcel's details no longer change.
    expect(screen.queryByTestId('post-change')).toBeNull();
    expect(screen.queryByTestId('post-save')).toBeNull();
    // After userEvent.setup(), which puts its own clipboard in place.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(
      within(shipped).getByRole('button', {
        name: zh ? '复制运单号 SF1234567890123' : 'Copy the tracking number SF1234567890123',
      }),
    );
    expect(writeText).toHaveBeenCalledWith('SF1234567890123');
    await waitFor(() => expect(screen.getByText(zh ? '运单号已复制' : 'Tracking number copied')).toBeInTheDocument());
  });

  it('shows the ended state after the deadline, and the closed state when mailing is not offered', async () => {
    registrationMock.mailing = {
      ...registrationMock.mailing,
      settings: { ...registrationMock.mailing.settings, state: 'ended' },
    };
    const { unmount } = await open('/post', language);
    expect(await screen.findByTestId('post-ended')).toHaveTextContent(message('mailingEnded'));
    expect(screen.queryByTestId('post-save')).toBeNull();
    unmount();
    registrationMock.mailing = {
      ...registrationMock.mailing,
      settings: { ...registrationMock.mailing.settings, state: 'closed' },
    };
    await open('/post', language);
    expect(await screen.findByTestId('post-closed')).toHaveTextContent(message('mailingClosed'));
  });
});

describe.each(['zh', 'en'] as const)('/upload in %s', (language) => {
  const zh = language === 'zh';

  it('shows the note and deadline, uploads a file after the authenticity question and saves it', async () => {
    const user = userEvent.setup();
    await open('/upload', language);
    const page = await screen.findByTestId('upload-page');
    expect(await within(page).findByTestId('upload-note')).toHaveTextContent(zh ? '体检证明' : 'medical certificate');
    expect(within(page).getByTestId('upload-deadline')).toHaveTextContent('2027-03-31 18:00:00');
    const file = new File([new Uint8Array(10)], 'report.pdf', { type: 'application/pdf' });
    const chooser = page.querySelector<HTMLInputElement>('input[type="file"]')!;
    fireEvent.change(chooser, { target: { files: [file] } });
    await user.click(await screen.findByRole('button', { name: zh ? /^是$/ : 'Yes' }));
    await waitFor(() => expect(receivedUploads).toHaveLength(1));
    await waitFor(() => expect(page.querySelectorAll('.ant-upload-list-item-done')).toHaveLength(1));
    await user.click(within(page).getByTestId('upload-save'));
    await waitFor(() =>
      expect(registrationMock.documentsSaved).toEqual([{ raceId: 'test-race-2027', files: 'uploads/file-1' }]),
    );
    expect(await within(page).findByTestId('upload-saved-at')).toHaveTextContent('2027-01-10 10:04:00');
  });

  it('shows the ended state without a save, and the closed state', async () => {
    registrationMock.documents = {
      ...registrationMock.documents,
      settings: { ...registrationMock.documents.settings, state: 'ended' },
    };
    const { unmount } = await open('/upload', language);
    expect(await screen.findByTestId('upload-ended')).toHaveTextContent(message('documentsEnded'));
    expect(screen.queryByTestId('upload-save')).toBeNull();
    unmount();
    registrationMock.documents = {
      ...registrationMock.documents,
      settings: { ...registrationMock.documents.settings, state: 'closed' },
    };
    await open('/upload', language);
    expect(await screen.findByTestId('upload-closed')).toHaveTextContent(message('documentsClosed'));
  });
});

describe('/i18NDemos', () => {
  it('shows the current language and both choices; a switch changes the language with the success message', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/i18NDemos', language: 'zh' });
    const page = await screen.findByTestId('i18n-page');
    expect(within(page).getByTestId('current-language')).toHaveTextContent('当前语言：中文');
    await user.click(within(page).getByText('English'));
    await waitFor(() => expect(useAppStore.getState().language).toBe('en'));
    await waitFor(() => expect(screen.getByText('Switched to English')).toBeInTheDocument());
    expect(within(page).getByTestId('current-language')).toHaveTextContent('Current language: English');
    expect(document.cookie).toContain('language=en');
    await user.click(within(page).getByText('中文'));
    await waitFor(() => expect(useAppStore.getState().language).toBe('zh'));
    await waitFor(() => expect(screen.getByText('已切换为中文')).toBeInTheDocument());
  });

  it("names the bound event by its own configuration, in the page's language, never another event's name", async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/i18NDemos', language: 'zh' });
    const sample = await screen.findByTestId('sample-text');
    expect(sample).toHaveTextContent('欢迎参加2027测试城市马拉松');
    expect(screen.getByTestId('i18n-page')).not.toHaveTextContent(/青川|Qingchuan/);
    await user.click(within(screen.getByTestId('i18n-page')).getByText('English'));
    await waitFor(() =>
      expect(screen.getByTestId('sample-text')).toHaveTextContent('Welcome to 2027 Test City Marathon'),
    );
  });
});
