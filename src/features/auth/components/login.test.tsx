import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { useAppStore } from '@/stores/app-store';
import { authCalls, DEMO, LOGIN_TOKEN } from '@/testing/mocks/handlers/auth';
import { openDrawer, showTab } from '@/testing/auth-drawer';
import { decryptPassword } from '#contract/password-crypto';
import { getEnv } from '@/config/env';
import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

const key = () => getEnv().passwordKey;
const callsTo = (path: string) => authCalls.filter((c) => c.path === path);

beforeEach(() => {
  authCalls.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('login drawer: logging in', () => {
  it('logs in with phone and password, encrypted, closes the drawer and shows personal centre', async () => {
    const { user } = await openDrawer();
    const form = screen.getByTestId('form-password');
    await user.type(within(form).getByLabelText('手机号'), DEMO.phone);
    await user.type(within(form).getByLabelText('密码'), DEMO.password);
    await user.click(screen.getByRole('checkbox'));
    await user.click(within(form).getByTestId('submit'));
    await waitFor(() => expect(screen.getByTestId('login-entry')).toHaveTextContent('个人中心'));
    const { body } = callsTo(API_PATHS.login)[0];
    expect(body).toMatchObject({ osId: '1002', loginType: '0', phone: DEMO.phone, encryptType: '1' });
    expect(body.password).not.toBe(DEMO.password);
    expect(decryptPassword(String(body.password), key())).toBe(DEMO.password);
    expect(useAppStore.getState().token).toBe(LOGIN_TOKEN);
    expect(useAppStore.getState().loginDrawerOpen).toBe(false);
    expect(JSON.parse(localStorage.getItem('userData')!)).toMatchObject({ token: LOGIN_TOKEN });
    expect(localStorage.getItem('token')).toBe(LOGIN_TOKEN);
  });

  it('logs in by email with loginType 5 and the encrypted password', async () => {
    const { user } = await openDrawer('en');
    const form = await showTab(user, 'Email login', 'form-email');
    await user.type(within(form).getByLabelText('Email address'), DEMO.email);
    await user.type(within(form).getByLabelText('Password'), DEMO.password);
    await user.click(screen.getByRole('checkbox'));
    await user.click(within(form).getByTestId('submit'));
    await waitFor(() => expect(screen.getByTestId('login-entry')).toHaveTextContent('Personal Centre'));
    const { body } = callsTo(API_PATHS.login)[0];
    expect(body).toMatchObject({ osId: '1002', loginType: '5', accountEmail: DEMO.email, encryptType: '1' });
    expect(body).not.toHaveProperty('phone');
    expect(decryptPassword(String(body.password), key())).toBe(DEMO.password);
  });

  it('logs in with phone and code: loginType 1, no password', async () => {
    const { user } = await openDrawer();
    const form = await showTab(user, '验证码登录', 'form-code');
    await user.type(within(form).getByPlaceholderText('请输入手机号'), DEMO.phone);
    await user.type(within(form).getByPlaceholderText('请输入验证码'), DEMO.code);
    await user.click(screen.getByRole('checkbox'));
    await user.click(within(form).getByTestId('submit'));
    await waitFor(() => expect(screen.getByTestId('login-entry')).toHaveTextContent('个人中心'));
    expect(callsTo(API_PATHS.login)[0].body).toEqual({
      osId: '1002',
      loginType: '1',
      phone: DEMO.phone,
      captcha: DEMO.code,
    });
  });

  it("shows the server's message and stays open when the login is refused", async () => {
    const { user } = await openDrawer();
    const form = screen.getByTestId('form-password');
    await user.type(within(form).getByLabelText('手机号'), DEMO.phone);
    await user.type(within(form).getByLabelText('密码'), 'Wrong1234');
    await user.click(screen.getByRole('checkbox'));
    await user.click(within(form).getByTestId('submit'));
    await waitFor(() => expect(screen.getByText('Account or password error')).toBeInTheDocument());
    expect(useAppStore.getState().loginDrawerOpen).toBe(true);
    expect(useAppStore.getState().token).toBeNull();
  });

  it('logs in with a debug quick-login button', async () => {
    const { user } = await openDrawer();
    await user.click(within(screen.getByTestId('quick-login')).getByRole('button', { name: '演示账号 · 邮箱' }));
    await waitFor(() => expect(screen.getByTestId('login-entry')).toHaveTextContent('个人中心'));
    expect(callsTo(API_PATHS.login)[0].body).toMatchObject({ loginType: '5', accountEmail: DEMO.email });
  });

  it('logs out from the banner: calls logout with the token and shows the login prompt again', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', LOGIN_TOKEN);
    await renderApp({ token: LOGIN_TOKEN });
    await user.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(screen.getByTestId('login-entry')).toHaveTextContent('请登录'));
    expect(callsTo(API_PATHS.logout)[0].token).toBe(LOGIN_TOKEN);
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.queryByTestId('logout')).not.toBeInTheDocument();
  });

  it.each([
    ['zh', '您的登录已过期，请重新登录', '重新登录', '请登录'],
    ['en', 'Your login has expired, please log in again', 'Log in again', 'Please log in'],
  ] as const)(
    '%s: asks to log in again when an answer says the login expired; OK clears it and opens the drawer',
    async (language, text, ok, prompt) => {
      const user = userEvent.setup();
      localStorage.setItem('userData', JSON.stringify({ token: 'stale-token' }));
      localStorage.setItem('token', 'stale-token');
      await renderApp({ token: 'stale-token', language });
      expect(document.querySelector('.auth-drawer-root')).toBeNull();
      await act(() => apiRequest({ method: 'POST', url: API_PATHS.commonInfo, silent: true }).catch(() => undefined));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText(text)).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: ok }));
      await waitFor(() => expect(screen.getByTestId('form-password')).toBeInTheDocument());
      expect(useAppStore.getState().token).toBeNull();
      expect(localStorage.getItem('userData')).toBeNull();
      expect(screen.getByTestId('login-entry')).toHaveTextContent(prompt);
    },
  );
});
