import { screen, waitFor, within } from '@testing-library/react';
import { authCalls, DEMO, LOGIN_TOKEN, SLIDER } from '@/testing/mocks/handlers/auth';
import { openDrawer, openScreen, sendCode } from '@/testing/auth-drawer';
import { decryptPassword } from '#contract/password-crypto';
import { getEnv } from '@/config/env';
import { API_PATHS } from '#contract/api';

const key = () => getEnv().passwordKey;
const callsTo = (path: string) => authCalls.filter((c) => c.path === path);

beforeEach(() => {
  authCalls.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('login drawer: registration and password reset', () => {
  it.each([
    ['zh', '邮箱注册', '返回登录', '《注册协议》'],
    ['en', 'Register by email', 'Back to login', 'Registration Agreement'],
  ] as const)(
    'registration screen (%s) has a back link and the registration agreement',
    async (lang, title, back, agreement) => {
      const { user } = await openDrawer(lang);
      const screenEl = await openScreen(user, lang, 'register');
      expect(within(screenEl).getByRole('heading', { name: title })).toBeInTheDocument();
      expect(within(screenEl).getByRole('link', { name: agreement })).toHaveAttribute('target', '_blank');
      await user.click(within(screenEl).getByRole('button', { name: new RegExp(back) }));
      await waitFor(() => expect(screen.getByTestId('form-email')).toBeInTheDocument());
    },
  );

  it.each([
    ['zh', '请输入正确的邮箱地址', '该邮箱已被注册', '请输入确认密码', '两次输入的密码不一致'],
    [
      'en',
      'Please enter a correct email address',
      'This email has been registered',
      'Please enter confirm password',
      'The two passwords do not match',
    ],
  ] as const)(
    'registration (%s): email, registered email and confirm password messages',
    async (lang, incorrect, registered, confirmRequired, mismatch) => {
      const { user } = await openDrawer(lang);
      const screenEl = await openScreen(user, lang, 'register');
      const email = within(screenEl).getByPlaceholderText(
        lang === 'zh' ? '请输入邮箱地址' : 'Please enter email address',
      );
      await user.type(email, 'runner@example');
      expect(await within(screenEl).findByText(incorrect)).toBeInTheDocument();
      await user.clear(email);
      await user.type(email, DEMO.email);
      await user.tab();
      expect(await within(screenEl).findByText(registered)).toBeInTheDocument();
      const [password, confirm] = within(screenEl).getAllByPlaceholderText(/6-20|again|再次/);
      await user.type(password, 'Newpass123');
      await user.click(within(screenEl).getByRole('checkbox'));
      await user.click(within(screenEl).getByTestId('submit'));
      expect(await within(screenEl).findByText(confirmRequired)).toBeInTheDocument();
      await user.type(confirm, 'Newpass124');
      expect(await within(screenEl).findByText(mismatch)).toBeInTheDocument();
      expect(callsTo(API_PATHS.register)).toHaveLength(0);
    },
  );

  it('registers: code by email (emailSendType 1), encrypted password, then back to login with a message', async () => {
    const { user } = await openDrawer();
    const screenEl = await openScreen(user, 'zh', 'register');
    await user.type(within(screenEl).getByPlaceholderText('请输入邮箱地址'), 'new@example.com');
    await sendCode(user, screenEl);
    expect(callsTo(API_PATHS.sendEmailCode)[0].body).toMatchObject({
      captchaType: '20',
      nc_token: 'nc-token-1',
      accountEmail: 'new@example.com',
      emailSendType: 1,
      cloudType: 'aliyun',
    });
    await user.type(within(screenEl).getByPlaceholderText('请输入验证码'), DEMO.code);
    // A new account's password is its password, not a "new" one (issue 28); the browser still suggests one.
    expect(within(screenEl).queryByLabelText('新密码')).toBeNull();
    expect(within(screenEl).getByLabelText('密码')).toHaveAttribute('autocomplete', 'new-password');
    await user.type(within(screenEl).getByLabelText('密码'), 'Newpass123');
    await user.type(within(screenEl).getByLabelText('确认密码'), 'Newpass123');
    await user.click(within(screenEl).getByRole('checkbox'));
    await user.click(within(screenEl).getByTestId('submit'));
    await waitFor(() => expect(screen.getByText('注册成功，请登录')).toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId('form-email')).toBeInTheDocument());
    const { body } = callsTo(API_PATHS.register)[0];
    expect(body).toMatchObject({
      accountEmail: 'new@example.com',
      captcha: DEMO.code,
      encryptType: '1',
      verificationToken: 'vt-email',
      machineCode: '',
    });
    expect(decryptPassword(String(body.loginPassword), key())).toBe('Newpass123');
  });

  it.each([
    ['zh', '请输入手机号', '请输入正确的手机号'],
    ['en', 'Please enter phone number', 'Please enter a correct phone number'],
  ] as const)(
    'reset by phone (%s): phone required and a correct mainland number',
    async (lang, required, incorrect) => {
      const { user } = await openDrawer(lang);
      const screenEl = await openScreen(user, lang, 'resetPhone');
      await user.click(within(screenEl).getByTestId('send-code'));
      expect(await within(screenEl).findByText(required)).toBeInTheDocument();
      const phone = within(screenEl).getByPlaceholderText(required);
      await user.type(phone, '12800138000');
      expect(await within(screenEl).findByText(incorrect)).toBeInTheDocument();
      await user.clear(phone);
      await user.type(phone, DEMO.phone);
      await waitFor(() => expect(within(screenEl).queryByText(incorrect)).not.toBeInTheDocument());
    },
  );

  it('resets the password by phone: clears the stored login, confirms, back to login', async () => {
    localStorage.setItem('userData', JSON.stringify({ token: LOGIN_TOKEN }));
    localStorage.setItem('token', LOGIN_TOKEN);
    const { user } = await openDrawer();
    const screenEl = await openScreen(user, 'zh', 'resetPhone');
    expect(within(screenEl).getByRole('heading', { name: '通过手机号找回密码' })).toBeInTheDocument();
    await user.type(within(screenEl).getByPlaceholderText('请输入手机号'), DEMO.phone);
    await sendCode(user, screenEl);
    expect(callsTo(API_PATHS.sendResetPhoneCode)[0].body).toMatchObject({
      captchaType: '3',
      nc_token: 'nc-token-1',
      sig: 'sig-1',
      sessionId: SLIDER.sessionId,
      scene: SLIDER.scene,
      userPhone: DEMO.phone,
      raceAppBusinessType: 1,
      cloudType: 'aliyun',
    });
    await user.type(within(screenEl).getByPlaceholderText('请输入验证码'), DEMO.code);
    await user.type(within(screenEl).getByLabelText('新密码'), 'Newpass123');
    await user.type(within(screenEl).getByLabelText('确认密码'), 'Newpass123');
    await user.click(within(screenEl).getByTestId('submit'));
    await waitFor(() => expect(screen.getByText('密码修改成功，请重新登录')).toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId('form-email')).toBeInTheDocument());
    expect(localStorage.getItem('userData')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    const { body } = callsTo(API_PATHS.resetByPhone)[0];
    expect(body).toMatchObject({
      phone: DEMO.phone,
      encryptType: '1',
      enterprise: 0,
      verificationToken: 'vt-phone',
      captcha: DEMO.code,
    });
    expect(decryptPassword(String(body.loginPassword), key())).toBe('Newpass123');
    expect(decryptPassword(String(body.confirmPassword), key())).toBe('Newpass123');
  });

  it('resets the password by email: code with emailSendType 2 and the business type', async () => {
    const { user } = await openDrawer('en');
    const screenEl = await openScreen(user, 'en', 'resetEmail');
    expect(within(screenEl).getByRole('heading', { name: 'Reset password by email' })).toBeInTheDocument();
    await user.type(within(screenEl).getByPlaceholderText('Please enter email address'), DEMO.email);
    await sendCode(user, screenEl);
    expect(callsTo(API_PATHS.sendEmailCode)[0].body).toMatchObject({
      captchaType: '20',
      accountEmail: DEMO.email,
      emailSendType: 2,
      raceAppBusinessType: 1,
    });
    expect(within(screenEl).getByTestId('send-code')).toHaveTextContent(/Retrieve in \d+ seconds/);
    await user.type(within(screenEl).getByPlaceholderText('Please enter verification code'), DEMO.code);
    await user.type(within(screenEl).getByLabelText('New password'), 'Newpass123');
    await user.type(within(screenEl).getByLabelText('Confirm password'), 'Newpass123');
    await user.click(within(screenEl).getByTestId('submit'));
    await waitFor(() => expect(screen.getByText('Password changed, please log in again')).toBeInTheDocument());
    const { body } = callsTo(API_PATHS.resetByEmail)[0];
    expect(body).toMatchObject({
      accountEmail: DEMO.email,
      verificationToken: 'vt-email',
      captcha: DEMO.code,
      encryptType: '1',
    });
    expect(decryptPassword(String(body.confirmPassword), key())).toBe('Newpass123');
  });
});
