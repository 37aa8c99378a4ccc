import { act, screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { renderApp } from '@/testing/test-utils';
import { testConfig, testRace } from '@/testing/fixtures/site';
import { useAppStore } from '@/stores/app-store';

describe('layout shell', () => {
  it('shows the logo, the menu with Chinese titles, the footer and the login prompt', async () => {
    await renderApp();
    expect(await screen.findByRole('img', { name: '2027测试城市马拉松' })).toHaveAttribute(
      'src',
      '/files/demo/logo.svg',
    );
    const menu = screen.getByTestId('site-menu');
    expect(within(menu).getByText('首页')).toBeInTheDocument();
    expect(within(menu).getByText('赛事信息')).toBeInTheDocument();
    expect(within(menu).getByText('新闻公告')).toBeInTheDocument();
    expect(screen.getByTestId('login-entry')).toHaveTextContent('请登录');
    expect(screen.getByTestId('language-toggle')).toHaveTextContent('En');
    const footer = screen.getByTestId('site-footer');
    expect(within(footer).getByRole('img', { name: '版权信息' })).toHaveAttribute('src', '/files/demo/copyright.svg');
    expect(within(footer).getByRole('link', { name: '测ICP备00000001号' })).toHaveAttribute(
      'href',
      '//beian.miit.gov.cn',
    );
    expect(document.title).toBe('2027测试城市马拉松');
  });

  it("shows the event's own slogan, organisers, hotline, e-mail and follow-us QR codes from its site config", async () => {
    await renderApp();
    const footer = await screen.findByTestId('site-footer');
    expect(within(footer).getByText('测试口号')).toBeInTheDocument();
    expect(within(footer).getByText('主办单位：').parentElement).toHaveTextContent('主办单位：测试市人民政府');
    expect(within(footer).getByRole('link', { name: '400-000-0001' })).toHaveAttribute('href', 'tel:4000000001');
    expect(within(footer).getByText('400-000-0001').parentElement).toHaveTextContent('（工作日 9:00-18:00）');
    expect(within(footer).getByRole('link', { name: 'help@test-race.example' })).toHaveAttribute(
      'href',
      'mailto:help@test-race.example',
    );
    const follow = within(footer).getByRole('region', { name: '关注我们' });
    expect(within(follow).getByRole('img', { name: '官方微信二维码' })).toHaveAttribute(
      'src',
      '/files/demo/qr-wechat.svg',
    );
    expect(within(follow).getByRole('img', { name: '官方微博二维码' })).toBeInTheDocument();
  });

  it('shows the English event lines, falling back to Chinese where the config has no English', async () => {
    await renderApp({ language: 'en' });
    const footer = await screen.findByTestId('site-footer');
    expect(within(footer).getByText('Test slogan')).toBeInTheDocument();
    expect(within(footer).getByText('Hosted by').parentElement).toHaveTextContent('Hosted by Test City Government');
    // No hotlineHoursEn: the Chinese hours are shown rather than nothing.
    expect(within(footer).getByText('400-000-0001').parentElement).toHaveTextContent('(工作日 9:00-18:00)');
    expect(within(footer).getByRole('img', { name: 'WeChat QR code' })).toBeInTheDocument();
  });

  it('shows no event lines and no QR codes in preview mode', async () => {
    await renderApp({ mode: 'preview' });
    const footer = await screen.findByTestId('site-footer');
    expect(within(footer).queryByTestId('footer-event-lines')).toBeNull();
    expect(within(footer).queryByRole('region', { name: '关注我们' })).toBeNull();
  });

  it('makes only ads with an http(s) or // link clickable', async () => {
    await renderApp();
    const sponsor = await screen.findByRole('img', { name: '赞助商' });
    expect(sponsor.closest('a')).toHaveAttribute('href', 'https://sponsor.example/');
    expect(sponsor.closest('a')).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('img', { name: '无链接广告' }).closest('a')).toBeNull();
  });

  it('shows English titles, the English ad link, the 中 toggle and the English copyright in English', async () => {
    await renderApp({ language: 'en' });
    const menu = await screen.findByTestId('site-menu');
    expect(within(menu).getByText('Home')).toBeInTheDocument();
    expect(within(menu).getByText('Race Info')).toBeInTheDocument();
    expect(screen.getByTestId('language-toggle')).toHaveTextContent('中');
    expect(screen.getByTestId('login-entry')).toHaveTextContent('Please log in');
    expect(screen.getByRole('img', { name: 'Sponsor' }).closest('a')).toHaveAttribute(
      'href',
      'https://sponsor.example/en',
    );
    expect(screen.getByRole('img', { name: 'Copyright' })).toHaveAttribute('src', '/files/demo/copyright-en.svg');
    expect(document.title).toBe('2027 Test City Marathon');
  });

  it('falls back to the Chinese title when a route has no English one', async () => {
    const user = userEvent.setup();
    await renderApp({ language: 'en' });
    await user.hover(await screen.findByText('Race Info'));
    await waitFor(() => expect(screen.getByText('赛事路线')).toBeInTheDocument());
    expect(screen.getByText('Competition Rules')).toBeInTheDocument();
  });

  it('opens external menu links in a new tab', async () => {
    await renderApp({ config: { ...testConfig(), menuGroups: [] } });
    const link = await screen.findByRole('link', { name: '官方商城' });
    expect(link).toHaveAttribute('href', 'https://shop.example/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  it.each([
    ['open', 1, true],
    ['closed by the organiser (entry-close)', 0, false],
  ] as const)(
    'shows an ad marked whileSignUpOpen only while sign-up is open: %s',
    async (_, signUpOpenStatus, shown) => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2027-01-10T12:00:00+08:00') });
      const config = testConfig();
      config.searchConfigList = (config.searchConfigList ?? []).map((m) =>
        m.moduleType === 1 ? { ...m, openStatus: 1 } : m,
      );
      config.bannerAdList = [
        { surfacePlotUrl: 'demo/ad-open.svg', title: '报名进行中', whileSignUpOpen: true },
        ...(config.bannerAdList ?? []),
      ];
      const race = {
        ...testRace,
        signUpStartTime: '2027-01-05 09:00:00',
        signUpEndTime: '2027-01-20 18:00:00',
        signUpOpenStatus,
      };
      await renderApp({ config, race });
      const banner = document.querySelector('.banner__ads')!;
      await screen.findByRole('img', { name: '赞助商' });
      expect(!!within(banner as HTMLElement).queryByRole('img', { name: '报名进行中' })).toBe(shown);
      vi.useRealTimers();
    },
  );

  it('leads from the language toggle to the language page (I18NDemos, spec §2)', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp({ language: 'en' });
    const link = await screen.findByTestId('language-page-link');
    expect(link).toHaveAccessibleName('Language options');
    await user.click(link);
    expect(router.state.location.pathname).toBe('/i18NDemos');
    await waitFor(() => expect(screen.getByTestId('i18n-page')).toBeInTheDocument());
  });

  it('switches language: cookie, labels, toggle and a success message', async () => {
    const user = userEvent.setup();
    await renderApp();
    await user.click(await screen.findByTestId('language-toggle'));
    expect(Cookies.get('language')).toBe('en');
    await waitFor(() => expect(screen.getByText('Switched to English')).toBeInTheDocument());
    expect(screen.getByTestId('language-toggle')).toHaveTextContent('中');
    expect(within(screen.getByTestId('site-menu')).getByText('Home')).toBeInTheDocument();
    await user.click(screen.getByTestId('language-toggle'));
    expect(Cookies.get('language')).toBe('zh');
    await waitFor(() => expect(screen.getByText('已切换为中文')).toBeInTheDocument());
  });

  it('labels the login entry personal centre with a token and opens the registration area', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const user = userEvent.setup();
    await renderApp({ token: 'tok' });
    await user.click(await screen.findByTestId('login-entry'));
    expect(screen.getByTestId('login-entry')).toHaveTextContent('个人中心');
    expect(open).toHaveBeenCalledWith('/reg/#/my/my-index', '_blank', 'noopener');
    open.mockRestore();
  });

  it('opens the login drawer flag when logged out', async () => {
    const user = userEvent.setup();
    await renderApp();
    await user.click(await screen.findByTestId('login-entry'));
    expect(useAppStore.getState().loginDrawerOpen).toBe(true);
  });

  it('renders a clear not-found page inside the layout for an unknown component', async () => {
    await renderApp({ path: '/ghost' });
    expect(await screen.findByTestId('not-found')).toHaveTextContent('页面不存在');
    expect(screen.getByText('未注册的页面组件：NoSuchPage')).toBeInTheDocument();
    expect(screen.getByTestId('site-menu')).toBeInTheDocument();
  });

  it('renders not-found for an unknown path and redirects / to /home', async () => {
    const { router } = await renderApp({ path: '/nowhere' });
    await waitFor(() => expect(screen.getByTestId('not-found')).toBeInTheDocument());
    await act(() => router.navigate('/'));
    expect(router.state.location.pathname).toBe('/home');
  });

  it('redirects a menu group to its first page', async () => {
    const { router } = await renderApp({ path: '/race-information' });
    await screen.findByTestId('site-menu');
    expect(router.state.location.pathname).toBe('/race-information/race-rules');
  });

  it('greys the main area on race news', async () => {
    await renderApp({ path: '/news-notice/race-news' });
    expect(await screen.findByTestId('main')).toHaveClass('main--grey');
  });

  it('does not grey the main area on home', async () => {
    await renderApp();
    expect(await screen.findByTestId('main')).not.toHaveClass('main--grey');
  });

  it('shows the route names in the debug badge', async () => {
    await renderApp({ path: '/race-information/race-rules' });
    expect(await screen.findByTestId('debug-badge')).toHaveTextContent('layout › raceRules');
  });

  it("shows the preview root screen titled 'Unbound race'", async () => {
    await renderApp({
      mode: 'preview',
      language: 'en',
      config: { version: 'preview', websiteTitle: '预览', logo: 'x.svg' },
    });
    expect(await screen.findByTestId('preview-screen')).toHaveTextContent('Unbound race');
    expect(document.title).toBe('Unbound race');
  });
});
