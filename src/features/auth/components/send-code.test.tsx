import { act, screen, waitFor, within } from '@testing-library/react';
import { authCalls, DEMO, SLIDER } from '@/testing/mocks/handlers/auth';
import { dragSliderTo, openDrawer, showTab } from '@/testing/auth-drawer';
import { API_PATHS } from '#contract/api';

const callsTo = (path: string) => authCalls.filter((c) => c.path === path);

beforeEach(() => {
  authCalls.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('login drawer: send code with the slider check', () => {
  it.each([
    ['zh', '获取验证码', '请先拖动滑块完成验证', '60秒后重试', '59秒后重试', '重新获取'],
    [
      'en',
      'Get verification code',
      'Please slide the slider to verify first',
      'Retrieve in 60 seconds',
      'Retrieve in 59 seconds',
      'Get code again',
    ],
  ] as const)(
    '%s: slider → code sent → countdown → get code again',
    async (lang, idle, sliderFirst, at60, at59, again) => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
      const { user } = await openDrawer(lang);
      const form = await showTab(user, lang === 'zh' ? '验证码登录' : 'Verification code login', 'form-code');
      const send = within(form).getByTestId('send-code');
      expect(send).toHaveTextContent(idle);
      await user.type(
        within(form).getByPlaceholderText(lang === 'zh' ? '请输入手机号' : 'Please enter phone number'),
        DEMO.phone,
      );
      await user.click(send);
      await waitFor(() => expect(screen.getByTestId('slider-captcha')).toBeInTheDocument());
      await user.click(send);
      await waitFor(() => expect(screen.getByText(sliderFirst)).toBeInTheDocument());
      expect(callsTo(API_PATHS.sendPhoneCode)).toHaveLength(0);

      await dragSliderTo(SLIDER.targetX);
      await waitFor(() => expect(send).toHaveTextContent(at60));
      expect(send).toBeDisabled();
      expect(screen.queryByTestId('slider-captcha')).not.toBeInTheDocument();
      const verify = callsTo(API_PATHS.captchaVerify)[0].body;
      expect(verify).toMatchObject({ sessionId: SLIDER.sessionId, x: SLIDER.targetX });
      expect((verify.trail as unknown[]).length).toBeGreaterThanOrEqual(5);
      expect(callsTo(API_PATHS.sendPhoneCode)[0].body).toEqual({
        captchaType: '2',
        nc_token: 'nc-token-1',
        sig: 'sig-1',
        sessionId: SLIDER.sessionId,
        scene: SLIDER.scene,
        userPhone: DEMO.phone,
        raceAppBusinessType: 1,
        cloudType: 'aliyun',
      });

      act(() => vi.advanceTimersByTime(1000));
      expect(send).toHaveTextContent(at59);
      act(() => vi.advanceTimersByTime(59_000));
      expect(send).toHaveTextContent(again);
      expect(send).toBeEnabled();
    },
  );

  it('does not send the code when the slider is dropped off target', async () => {
    const { user } = await openDrawer();
    const form = await showTab(user, '验证码登录', 'form-code');
    await user.type(within(form).getByPlaceholderText('请输入手机号'), DEMO.phone);
    await user.click(within(form).getByTestId('send-code'));
    await dragSliderTo(40);
    await waitFor(() => expect(screen.getByText('验证失败，请重试')).toBeInTheDocument());
    expect(callsTo(API_PATHS.sendPhoneCode)).toHaveLength(0);
    // A new challenge is loaded for the next try.
    await waitFor(() => expect(screen.getByTestId('slider-captcha')).toHaveAttribute('data-phase', 'ready'));
  });
});
