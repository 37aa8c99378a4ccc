import { screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { useAppStore } from '@/stores/app-store';
import { authCalls } from '@/testing/mocks/handlers/auth';
import { openDrawer, showTab } from '@/testing/auth-drawer';
import { API_PATHS } from '#contract/api';

const callsTo = (path: string) => authCalls.filter((c) => c.path === path);

beforeEach(() => {
  authCalls.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('login drawer: tabs and agreement', () => {
  it('loads the drawer only once it is opened', async () => {
    await renderApp();
    await screen.findByTestId('login-entry');
    expect(document.querySelector('.auth-drawer-root')).toBeNull();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });

  it('opens on the account-password tab with the app QR code and all three tabs', async () => {
    await openDrawer();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['验证码登录', '账号密码登录', '邮箱登录']);
    expect(screen.getByRole('tab', { name: '账号密码登录' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('扫码下载App，随时随地查看报名结果')).toBeInTheDocument();
  });

  it('shows everything in English', async () => {
    await openDrawer('en', { config: { ...testConfig(), appQrCode: 'demo/qr-app.svg' } });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Verification code login',
      'Account password login',
      'Email login',
    ]);
    expect(screen.getByRole('tab', { name: 'Account password login' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('img', { name: 'QR code to download the app' })).toHaveAttribute(
      'src',
      '/files/demo/qr-app.svg',
    );
    expect(
      screen.getByText('Scan the code to download the app and check your registration results anytime, anywhere'),
    ).toBeInTheDocument();
  });

  it('keeps the login button disabled until the agreement is ticked', async () => {
    const { user } = await openDrawer();
    const form = screen.getByTestId('form-password');
    expect(within(form).getByTestId('submit')).toBeDisabled();
    await user.click(within(form).getByTestId('submit-gate'));
    await waitFor(() => expect(screen.getByText('请先阅读并同意用户协议和隐私政策')).toBeInTheDocument());
    await user.click(screen.getByRole('checkbox'));
    expect(within(form).getByTestId('submit')).toBeEnabled();
  });

  it('explains the agreement gate in English', async () => {
    const { user } = await openDrawer('en');
    await user.click(within(screen.getByTestId('form-password')).getByTestId('submit-gate'));
    await waitFor(() =>
      expect(screen.getByText('Please agree to the user agreement and privacy policy first')).toBeInTheDocument(),
    );
  });

  it('links the agreements in a new tab: a named route of the config, else the /about-us placeholder', async () => {
    const config = testConfig();
    config.menuGroups![0].children!.push({
      path: 'user-agreement',
      name: 'userAgreement',
      component: 'DocumentPage',
      meta: { title: '用户协议', dataPath: 'raceInformation.userAgreement' },
    });
    await openDrawer('zh', { config });
    const user = screen.getByRole('link', { name: '《用户协议》' });
    expect(user).toHaveAttribute('href', '#/race-information/user-agreement');
    expect(user).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: '《隐私政策》' })).toHaveAttribute('href', '#/about-us/privacy-policy');
  });

  it('offers "register now" on the email tab only and "forgot password" on the email and password tabs', async () => {
    const { user } = await openDrawer();
    expect(within(screen.getByTestId('form-password')).getByRole('button', { name: '忘记密码？' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '立即注册' })).not.toBeInTheDocument();
    const email = await showTab(user, '邮箱登录', 'form-email');
    expect(within(email).getByRole('button', { name: '立即注册' })).toBeInTheDocument();
    expect(within(email).getByRole('button', { name: '忘记密码？' })).toBeInTheDocument();
    const code = await showTab(user, '验证码登录', 'form-code');
    expect(within(code).queryByRole('button', { name: '忘记密码？' })).not.toBeInTheDocument();
    expect(within(code).queryByRole('button', { name: '立即注册' })).not.toBeInTheDocument();
  });

  it('closes with the close icon', async () => {
    const { user } = await openDrawer();
    await user.click(screen.getByRole('button', { name: /关闭|Close/ }));
    await waitFor(() => expect(useAppStore.getState().loginDrawerOpen).toBe(false));
  });
});

describe('login drawer: validation messages', () => {
  it.each([
    ['zh', '请输入手机号', '请输入密码', '请输入6-20位数字和字母组合的密码'],
    [
      'en',
      'Please enter phone number',
      'Please enter password',
      'Please enter a 6-20 digit password combining digits and letters',
    ],
  ] as const)(
    'password tab (%s): phone and password required, 6-20 letters and digits',
    async (lang, phone, password, rule) => {
      const { user } = await openDrawer(lang);
      const form = screen.getByTestId('form-password');
      await user.click(screen.getByRole('checkbox'));
      await user.click(within(form).getByTestId('submit'));
      expect(await within(form).findByText(phone)).toBeInTheDocument();
      expect(within(form).getByText(password)).toBeInTheDocument();
      await user.type(
        within(form).getByPlaceholderText(lang === 'zh' ? '请输入密码' : 'Please enter password'),
        'abcdefgh',
      );
      expect(await within(form).findByText(rule)).toBeInTheDocument();
      expect(callsTo(API_PATHS.login)).toHaveLength(0);
    },
  );

  it.each([
    ['zh', '请输入邮箱地址', '请输入有效的邮箱地址'],
    ['en', 'Please enter email address', 'Please enter a valid email address'],
  ] as const)('email tab (%s): email required and valid', async (lang, required, invalid) => {
    const { user } = await openDrawer(lang);
    const form = await showTab(user, lang === 'zh' ? '邮箱登录' : 'Email login', 'form-email');
    await user.click(screen.getByRole('checkbox'));
    await user.click(within(form).getByTestId('submit'));
    expect(await within(form).findByText(required)).toBeInTheDocument();
    await user.type(
      within(form).getByPlaceholderText(lang === 'zh' ? '请输入邮箱地址' : 'Please enter email address'),
      'runner@',
    );
    expect(await within(form).findByText(invalid)).toBeInTheDocument();
  });

  it.each([
    ['zh', '请输入验证码'],
    ['en', 'Please enter verification code'],
  ] as const)(
    'code tab (%s): a blank code is refused, and no code is sent without a phone',
    async (lang, codeRequired) => {
      const { user } = await openDrawer(lang);
      const form = await showTab(user, lang === 'zh' ? '验证码登录' : 'Verification code login', 'form-code');
      await user.click(within(form).getByTestId('send-code'));
      expect(
        await within(form).findByText(lang === 'zh' ? '请输入手机号' : 'Please enter phone number'),
      ).toBeInTheDocument();
      expect(screen.queryByTestId('slider-captcha')).not.toBeInTheDocument();
      await user.type(within(form).getByPlaceholderText(codeRequired), '   ');
      await user.click(screen.getByRole('checkbox'));
      await user.click(within(form).getByTestId('submit'));
      expect(await within(form).findByText(codeRequired)).toBeInTheDocument();
    },
  );
});
