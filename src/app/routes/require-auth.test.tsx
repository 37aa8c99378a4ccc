import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { useAppStore } from '@/stores/app-store';
import { DEMO, LOGIN_TOKEN } from '@/testing/mocks/handlers/auth';
import { createAppRoutes } from '@/app/router';
import type { RouteHandle } from './route-model';

type User = ReturnType<typeof userEvent.setup>;

async function logInThroughDrawer(user: User) {
  const form = await screen.findByTestId('form-password');
  await user.type(within(form).getByLabelText('手机号'), DEMO.phone);
  await user.type(within(form).getByLabelText('密码'), DEMO.password);
  await user.click(screen.getByRole('checkbox'));
  await user.click(within(form).getByTestId('submit'));
}

const drawerOpen = () => useAppStore.getState().loginDrawerOpen;

describe('login guard of routes that need login', () => {
  it('opens the login drawer for a logged-out visitor instead of the page', async () => {
    await renderApp({ path: '/upload?race=2027&step=2' });
    // The first antd import in jsdom is slow.
    await screen.findByTestId('form-password');
    expect(drawerOpen()).toBe(true);
    // The page is not rendered behind the drawer; the "please log in" screen is.
    expect(screen.queryByTestId('upload-page')).toBeNull();
    expect(screen.getByTestId('login-required')).toBeInTheDocument();
  });

  it('lands back on the same route, path and query, once the visitor logs in through the drawer', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp({ path: '/upload?race=2027&step=2' });
    await logInThroughDrawer(user);
    await waitFor(() => expect(useAppStore.getState().token).toBe(LOGIN_TOKEN));
    await waitFor(() => expect(drawerOpen()).toBe(false));
    expect(router.state.location.pathname).toBe('/upload');
    expect(router.state.location.search).toBe('?race=2027&step=2');
    // The page renders now that the visitor is in.
    await waitFor(() => expect(screen.getByTestId('upload-page')).toBeInTheDocument());
    expect(screen.queryByTestId('login-required')).toBeNull();
    expect(screen.getByTestId('login-entry')).toHaveTextContent('个人中心');
  });

  it('shows the page at once to a logged-in visitor, without the drawer', async () => {
    await renderApp({ path: '/direct', token: LOGIN_TOKEN });
    await waitFor(() => expect(screen.getByTestId('direct-page')).toBeInTheDocument());
    expect(drawerOpen()).toBe(false);
    expect(screen.queryByTestId('login-required')).toBeNull();
  });

  it.each([
    ['zh', '请先登录', '立即登录', '返回首页', '关闭'],
    ['en', 'Please log in', 'Log in', 'Back to home', 'Close'],
  ] as const)(
    '%s: closing the drawer without logging in leaves a "please log in" screen that opens it again',
    async (language, title, login, backHome, close) => {
      const user = userEvent.setup();
      await renderApp({ path: '/post', language });
      await screen.findByTestId('form-password');
      await user.click(screen.getByRole('button', { name: close }));
      await waitFor(() => expect(drawerOpen()).toBe(false));
      const state = screen.getByTestId('login-required');
      expect(within(state).getByRole('heading', { level: 1 })).toHaveTextContent(title);
      expect(within(state).getByRole('link', { name: backHome })).toHaveAttribute('href', '/home');
      await user.click(within(state).getByRole('button', { name: login }));
      await waitFor(() => expect(drawerOpen()).toBe(true));
    },
  );

  it('never guards a route without requiresAuth: the language helper and the layout pages', async () => {
    const { unmount } = await renderApp({ path: '/i18NDemos' });
    await waitFor(() => expect(screen.getByTestId('i18n-page')).toBeInTheDocument());
    expect(drawerOpen()).toBe(false);
    expect(screen.queryByTestId('login-required')).toBeNull();
    unmount();
    await renderApp({ path: '/home' });
    await waitFor(() => expect(screen.getByTestId('home-page')).toBeInTheDocument());
    expect(drawerOpen()).toBe(false);
    expect(screen.queryByTestId('login-required')).toBeNull();
  });

  it('logging out on a guarded page shows the "please log in" screen without popping the drawer up', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/upload', token: LOGIN_TOKEN });
    await screen.findByTestId('upload-page');
    await user.click(screen.getByTestId('logout'));
    await waitFor(() => expect(screen.getByTestId('login-required')).toBeInTheDocument());
    expect(drawerOpen()).toBe(false);
  });

  it('renders the top-level routes in the bare layout: banner and page, no menu and no footer', async () => {
    await renderApp({ path: '/confirm', token: LOGIN_TOKEN });
    await screen.findByTestId('confirm-page');
    expect(document.querySelector('[data-layout="bare"]')).not.toBeNull();
    expect(screen.getByTestId('login-entry')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: '主导航' })).toBeNull();
    expect(document.querySelector('.footer')).toBeNull();
  });
});

describe('route meta', () => {
  const handles = () => {
    const routes = createAppRoutes(testConfig(), 'bound');
    const all = routes.flatMap((r) => r.children ?? []);
    return new Map(all.filter((r) => r.path).map((r) => [`/${r.path}`, r.handle as RouteHandle]));
  };

  it('names the layout and whether login is needed for every route', () => {
    const meta = handles();
    for (const path of ['/upload', '/direct', '/post', '/confirm']) {
      expect(meta.get(path)).toMatchObject({ layout: 'bare', requiresAuth: true });
    }
    expect(meta.get('/i18NDemos')).toMatchObject({ layout: 'bare', requiresAuth: false, name: 'I18NDemos' });
    expect(meta.get('/home')).toMatchObject({ layout: 'site' });
    expect(meta.get('/home')?.requiresAuth).toBeFalsy();
    // The sign-up page and the personal centre (issues 14, 15) need login in the site layout; the pick-up
    // staff's check-in screen takes a staff key instead.
    const siteWithLogin = [
      '/my/signup',
      '/my/my-index',
      '/my/order/:orderNo',
      '/my/profile',
      '/my/password',
      '/my/letter',
      '/my/pickup',
      '/my/participants',
      '/my/refund',
      '/my/messages',
    ];
    for (const path of siteWithLogin)
      expect(meta.get(path), path).toMatchObject({ layout: 'site', requiresAuth: true });
    const needLogin = ['/upload', '/direct', '/post', '/confirm', ...siteWithLogin];
    for (const [path, handle] of meta) {
      if (!needLogin.includes(path)) expect(handle.requiresAuth, path).toBeFalsy();
    }
  });

  it('guards a registration screen wherever the remote route list mounts it', async () => {
    const config = testConfig();
    config.remoteAsyncRoutes = [
      ...(config.remoteAsyncRoutes ?? []),
      { path: '/sign-up', name: 'signUp', component: 'Direct', meta: { title: '报名', titleEn: 'Sign up' } },
    ];
    const meta = new Map(
      createAppRoutes(config, 'bound')
        .flatMap((r) => r.children ?? [])
        .map((r) => [r.path, r.handle as RouteHandle]),
    );
    expect(meta.get('sign-up')).toMatchObject({ layout: 'bare', requiresAuth: true });
    await renderApp({ config, path: '/sign-up' });
    await screen.findByTestId('form-password');
    expect(screen.getByTestId('login-required')).toBeInTheDocument();
  });
});
