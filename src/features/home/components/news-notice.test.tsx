import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { bulletins, homeConfig, homeRace, raceNews } from '@/testing/fixtures/home';
import { testConfig } from '@/testing/fixtures/site';
import { TICKER_INTERVAL_MS } from './scroll-up-info';

afterEach(() => {
  vi.useRealTimers();
});

describe('news and notice', () => {
  it('lists race news, recommended first then newest, each opening on the news page by id', async () => {
    await renderApp({ config: homeConfig(), race: homeRace });
    const news = await screen.findByTestId('news-race');
    expect(within(news).getByRole('heading', { name: '赛事新闻' })).toBeInTheDocument();
    const items = within(news).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.news-card__title')?.textContent)).toEqual([
      '推荐比赛定档',
      '地铁提前运营',
      '奖牌揭晓',
      '赛道发布',
    ]);
    expect(items[0]).toHaveTextContent('2026.08.01');
    expect(items[0]).toHaveTextContent('比赛定档摘要');
    expect(within(items[1]).getByRole('link')).toHaveAttribute('href', '/news-notice/race-news?id=n4');
    expect(within(news).getByRole('link', { name: '更多赛事新闻' })).toHaveAttribute('href', '/news-notice/race-news');
  });

  it('opens an item with a jumpUrl as its external article in a new tab', async () => {
    await renderApp({ config: homeConfig(), race: homeRace });
    const link = within(await screen.findByTestId('news-race')).getByRole('link', { name: /奖牌揭晓/ });
    expect(link).toHaveAttribute('href', 'https://news.example/medal');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveTextContent('在新窗口打开');
  });

  it('lists announcements linking to the announcement page, in English', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp({ config: homeConfig(), race: homeRace, language: 'en' });
    const column = await screen.findByTestId('news-bulletin');
    expect(within(column).getByRole('heading', { name: 'Announcements' })).toBeInTheDocument();
    const links = within(column).getAllByRole('link', {
      name: /Race pack collection|Registration period notice|Volunteers wanted/,
    });
    expect(links.map((a) => a.textContent)).toEqual([
      'FeaturedRegistration period notice2026.07.01',
      'Race pack collection2026.11.10',
      'Volunteers wanted2026.10.01',
    ]);
    await user.click(links[1]);
    expect(router.state.location.pathname).toBe('/news-notice/activity-bulletin');
    expect(router.state.location.search).toBe('?id=b3');
  });

  it('shows the titles as text, without links, when no news page shows the list', async () => {
    const config = { ...homeConfig(), menuGroups: [] };
    await renderApp({ config, race: homeRace });
    const news = await screen.findByTestId('news-race');
    expect(within(news).getByText('地铁提前运营').closest('a')).toBeNull();
    expect(within(news).queryByRole('link', { name: /更多/ })).not.toBeInTheDocument();
    // An article with its own link still opens it.
    expect(within(news).getByText('奖牌揭晓').closest('a')).toHaveAttribute('href', 'https://news.example/medal');
  });

  it('shows one column when the other list is empty', async () => {
    const config = homeConfig();
    config.contentGroups = { newsNotice: { raceNews } };
    await renderApp({ config, race: homeRace });
    await screen.findByTestId('news-race');
    expect(screen.queryByTestId('news-bulletin')).not.toBeInTheDocument();
    expect(screen.queryByTestId('scroll-up-info')).not.toBeInTheDocument();
  });

  it('hides when there are no news and no announcements', async () => {
    await renderApp({ config: testConfig() });
    await screen.findByTestId('home-page');
    expect(screen.queryByTestId('home-news')).not.toBeInTheDocument();
  });
});

describe('scroll-up info', () => {
  const current = () => screen.getByTestId('scroll-up-info').querySelector('[data-current]');

  it('scrolls the newest announcements up one at a time and pauses on hover', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const user = userEvent.setup();
    await renderApp({ config: homeConfig(), race: homeRace });
    const ticker = await screen.findByTestId('scroll-up-info');
    expect(within(ticker).getByText('最新公告')).toBeInTheDocument();
    expect(current()).toHaveTextContent('物资领取说明2026.11.10');
    act(() => vi.advanceTimersByTime(TICKER_INTERVAL_MS));
    expect(current()).toHaveTextContent('志愿者招募');
    act(() => vi.advanceTimersByTime(TICKER_INTERVAL_MS));
    expect(current()).toHaveTextContent('报名时间公告');
    act(() => vi.advanceTimersByTime(TICKER_INTERVAL_MS));
    expect(current()).toHaveTextContent('物资领取说明');

    await user.hover(ticker);
    expect(ticker).toHaveAttribute('data-paused');
    act(() => vi.advanceTimersByTime(TICKER_INTERVAL_MS * 3));
    expect(current()).toHaveTextContent('物资领取说明');
    await user.unhover(ticker);
    act(() => vi.advanceTimersByTime(TICKER_INTERVAL_MS));
    expect(current()).toHaveTextContent('志愿者招募');
  });

  it('only the line in view can be focused; the arrows step through the others', async () => {
    const user = userEvent.setup();
    await renderApp({ config: homeConfig(), race: homeRace, language: 'en' });
    const ticker = await screen.findByTestId('scroll-up-info');
    expect(within(ticker).getAllByRole('link')).toHaveLength(1);
    expect(within(ticker).getByRole('link')).toHaveAttribute('href', '/news-notice/activity-bulletin?id=b3');
    await user.click(within(ticker).getByRole('button', { name: 'Next announcement' }));
    expect(current()).toHaveTextContent('Volunteers wanted');
    await user.click(within(ticker).getByRole('button', { name: 'Previous announcement' }));
    await user.click(within(ticker).getByRole('button', { name: 'Previous announcement' }));
    expect(current()).toHaveTextContent('Registration period notice');
  });

  it('stands still for visitors who prefer reduced motion', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const matchMedia = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query.includes('prefers-reduced-motion'),
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    await renderApp({ config: homeConfig(), race: homeRace });
    const ticker = await screen.findByTestId('scroll-up-info');
    expect(ticker).toHaveAttribute('data-paused');
    act(() => vi.advanceTimersByTime(TICKER_INTERVAL_MS * 2));
    expect(current()).toHaveTextContent('物资领取说明');
    matchMedia.mockRestore();
  });

  it('cycles two announcements without one coming back from above', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const config = homeConfig();
    config.contentGroups = { newsNotice: { activityBulletin: bulletins.slice(0, 2) } };
    await renderApp({ config, race: homeRace });
    const ticker = await screen.findByTestId('scroll-up-info');
    expect(ticker.querySelectorAll('li')).toHaveLength(4);
    act(() => vi.advanceTimersByTime(TICKER_INTERVAL_MS));
    expect(current()).toHaveTextContent('报名时间公告');
    act(() => vi.advanceTimersByTime(TICKER_INTERVAL_MS));
    expect(current()).toHaveTextContent('志愿者招募');
  });
});
