import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { renderApp } from '@/testing/test-utils';
import { useAppStore } from '@/stores/app-store';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

function onPath(pathname: string) {
  window.history.replaceState(null, '', pathname);
}

afterEach(() => {
  onPath('/');
  Cookies.remove('site', { path: '/' });
  vi.restoreAllMocks();
});

describe('mobile shell (/m/)', () => {
  beforeEach(() => onPath('/m/'));

  it('shows the mobile top bar instead of the banner and the hover menu', async () => {
    await renderApp();
    const bar = await screen.findByTestId('mobile-top-bar');
    expect(within(bar).getByRole('img', { name: '2027测试城市马拉松' })).toBeInTheDocument();
    expect(within(bar).getByTestId('language-toggle')).toHaveTextContent('En');
    expect(within(bar).getByTestId('login-entry')).toHaveTextContent('请登录');
    expect(screen.queryByTestId('site-menu')).toBeNull();
    expect(document.querySelector('.banner')).toBeNull();
  });

  it('leads from the menu sheet to the language page (I18NDemos, spec §2)', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp();
    await user.click(await screen.findByRole('button', { name: '打开菜单' }));
    const sheet = screen.getByRole('dialog', { name: '导航菜单' });
    await user.click(within(sheet).getByRole('link', { name: '语言选择' }));
    expect(router.state.location.pathname).toBe('/i18NDemos');
    expect(screen.queryByRole('dialog', { name: '导航菜单' })).toBeNull();
  });

  it('opens the menu sheet with every group expanded, and a link followed closes it', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp();
    const button = await screen.findByRole('button', { name: '打开菜单' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    const sheet = screen.getByRole('dialog', { name: '导航菜单' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(within(sheet).getByText('赛事信息')).toBeInTheDocument();
    expect(within(sheet).getByRole('link', { name: '竞赛规程' })).toBeInTheDocument();
    expect(within(sheet).getByRole('link', { name: '赛事路线' })).toBeInTheDocument();
    const shop = within(sheet).getByRole('link', { name: '官方商城' });
    expect(shop).toHaveAttribute('target', '_blank');
    await user.click(within(sheet).getByRole('link', { name: '赛事新闻' }));
    expect(screen.queryByTestId('mobile-menu-sheet')).toBeNull();
    expect(router.state.location.pathname).not.toBe('/home');
  });

  it('closes the sheet with Escape and returns focus to the menu button', async () => {
    const user = userEvent.setup();
    await renderApp({ language: 'en' });
    const button = await screen.findByRole('button', { name: 'Open the menu' });
    await user.click(button);
    expect(screen.getByRole('dialog', { name: 'Menu' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close the menu' })).toHaveFocus();
    // The focus stays in the sheet: Shift+Tab from its first control goes to its last link.
    await user.tab({ shift: true });
    expect(screen.getByRole('dialog')).toContainElement(document.activeElement as HTMLElement);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close the menu' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('toggles the language from the top bar', async () => {
    const user = userEvent.setup();
    await renderApp();
    await user.click(await screen.findByTestId('language-toggle'));
    expect(Cookies.get('language')).toBe('en');
    expect(screen.getByTestId('login-entry')).toHaveTextContent('Please log in');
    expect(screen.getByTestId('language-toggle')).toHaveTextContent('中');
    await user.click(screen.getByTestId('language-toggle'));
    expect(Cookies.get('language')).toBe('zh');
    await waitFor(() => expect(screen.getByText('已切换为中文')).toBeInTheDocument());
  });

  it('opens the login drawer from the login entry', async () => {
    const user = userEvent.setup();
    await renderApp();
    await user.click(await screen.findByTestId('login-entry'));
    expect(useAppStore.getState().loginDrawerOpen).toBe(true);
    await waitFor(() => expect(screen.getByTestId('login-drawer')).toBeInTheDocument());
  }, 30_000);

  it('opens the personal centre in the same tab when logged in', async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { router } = await renderApp({ token: VALID_TOKEN });
    const entry = await screen.findByTestId('login-entry');
    expect(entry).toHaveTextContent('个人中心');
    await user.click(entry);
    expect(router.state.location.pathname).toBe('/my/my-index');
    expect(open).not.toHaveBeenCalled();
  });

  it('shows the mobile copyright image and the desktop link, which remembers the choice', async () => {
    const user = userEvent.setup();
    await renderApp();
    const footer = await screen.findByTestId('site-footer');
    expect(within(footer).getByRole('img', { name: '版权信息' }).getAttribute('src')).toBe(
      '/files/demo/copyright-h5.svg',
    );
    const link = within(footer).getByRole('link', { name: '电脑版' });
    expect(link).toHaveAttribute('href', '/');
    // jsdom cannot navigate: the click stores the choice (the navigation itself is the browser test's).
    await user.click(link).catch(() => undefined);
    expect(Cookies.get('site')).toBe('desktop');
  });
});

describe('desktop site', () => {
  it('shows no site link to a desktop browser', async () => {
    await renderApp();
    const footer = await screen.findByTestId('site-footer');
    expect(within(footer).queryByTestId('site-switch')).toBeNull();
    expect(screen.getByTestId('site-menu')).toBeInTheDocument();
  });

  it('offers the mobile site to a phone whose visitor chose the desktop site', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
    Cookies.set('site', 'desktop', { path: '/' });
    await renderApp({ language: 'en' });
    const footer = await screen.findByTestId('site-footer');
    expect(within(footer).getByRole('link', { name: 'Mobile site' })).toHaveAttribute('href', '/m/');
  });
});
