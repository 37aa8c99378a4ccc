import { act, screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { contentConfig } from '@/testing/fixtures/content';

/** The visible titles (without the screen-reader hint of external links). */
const titlesOf = (items: HTMLElement[]) =>
  items.map((item) =>
    within(item)
      .getByRole('heading')
      .textContent?.replace(/（在新窗口打开）|\(opens in a new tab\)/, ''),
  );

describe('news page', () => {
  it('shows recommended items first as featured cards, then the others newest first, 10 to a page', async () => {
    await renderApp({ config: contentConfig(), path: '/news-notice/race-news' });
    const featured = await screen.findAllByTestId('news-featured');
    expect(titlesOf(featured)).toEqual(['新闻11', '新闻07', '新闻03']);
    expect(within(featured[0]).getByText('新闻11摘要')).toBeInTheDocument();
    expect(within(featured[0]).getByText('推荐')).toBeInTheDocument();
    expect(within(featured[0]).getByText('2026.11.10')).toBeInTheDocument();
    const rows = screen.getAllByTestId('news-item');
    expect(titlesOf(rows)).toEqual(['新闻12', '新闻10', '新闻09', '新闻08', '新闻06', '新闻05', '新闻04']);
    expect(within(rows[0]).getByText('新闻12摘要')).toBeInTheDocument();
    expect(within(rows[0]).getByText('2026.12.10')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: '赛事新闻' })).toBeInTheDocument();
    expect(screen.getByText('共 12 篇')).toBeInTheDocument();
  });

  it('pages through the list', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp({ config: contentConfig(), path: '/news-notice/race-news' });
    const pager = await screen.findByTestId('pagination');
    expect(within(pager).getByText('1')).toHaveAttribute('aria-current', 'page');
    await user.click(within(pager).getByRole('link', { name: '第 2 页' }));
    expect(router.state.location.search).toBe('?page=2');
    await screen.findByText('新闻01');
    expect(titlesOf(screen.getAllByTestId('news-item'))).toEqual(['新闻02', '新闻01']);
    expect(screen.queryAllByTestId('news-featured')).toHaveLength(0);
    await user.click(within(screen.getByTestId('pagination')).getByRole('link', { name: '上一页' }));
    expect(await screen.findAllByTestId('news-featured')).toHaveLength(3);
  });

  it('opens an item with a jumpUrl in a new tab', async () => {
    await renderApp({ config: contentConfig(), path: '/news-notice/race-news' });
    const link = await screen.findByRole('link', { name: /新闻05/ });
    expect(link).toHaveAttribute('href', 'https://news.example/article-05');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveTextContent('（在新窗口打开）');
  });

  it('opens an item in place with ?id= in the document view, and goes back to the list', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp({ config: contentConfig(), path: '/news-notice/race-news' });
    await user.click(await screen.findByRole('link', { name: '新闻12' }));
    expect(router.state.location.search).toBe('?id=news-12');
    const doc = await screen.findByTestId('document-view');
    expect(within(doc).getByRole('heading', { level: 1 })).toHaveTextContent('新闻12');
    expect(within(doc).getByTestId('document-date')).toHaveTextContent('2026.12.10');
    expect(within(doc).getByText('新闻12正文')).toBeInTheDocument();
    expect(within(doc).getByTestId('all-displayed')).toHaveTextContent('已全部显示');
    expect(within(screen.getByTestId('section-nav')).getByRole('link', { name: '赛事新闻' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await user.click(screen.getByTestId('back-to-list'));
    expect(router.state.location.search).toBe('');
    expect(await screen.findAllByTestId('news-featured')).toHaveLength(3);
  });

  it('goes back to the page of the list the article is on, and moves to the next article', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp({ config: contentConfig(), path: '/news-notice/race-news?id=news-02' });
    expect(await screen.findByTestId('back-to-list')).toHaveAttribute('href', '/news-notice/race-news?page=2');
    await user.click(screen.getByRole('link', { name: /下一篇/ }));
    expect(router.state.location.search).toBe('?id=news-01');
    await waitFor(() => expect(screen.getByText('新闻01正文')).toBeInTheDocument());
  });

  it('shows the article in English, reached by its URL', async () => {
    await renderApp({ config: contentConfig(), path: '/news-notice/race-news?id=news-07', language: 'en' });
    const doc = await screen.findByTestId('document-view');
    expect(within(doc).getByRole('heading', { level: 1 })).toHaveTextContent('News 07');
    expect(within(doc).getByText('Body of news 07')).toBeInTheDocument();
    expect(within(doc).getByTestId('all-displayed')).toHaveTextContent('All Displayed');
    expect(screen.getByTestId('back-to-list')).toHaveTextContent('Back to list');
  });

  it('says an unknown ?id= is not in the list, with a way back', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp({
      config: contentConfig(),
      path: '/news-notice/race-news?id=nope',
      language: 'en',
    });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('Article not found');
    await user.click(screen.getByRole('link', { name: 'Back to list' }));
    expect(router.state.location.search).toBe('');
    expect(await screen.findAllByTestId('news-item')).toHaveLength(7);
  });

  it('lists in English with English titles, summaries and labels', async () => {
    await renderApp({ config: contentConfig(), path: '/news-notice/race-news', language: 'en' });
    const featured = await screen.findAllByTestId('news-featured');
    expect(within(featured[0]).getByText('Summary of news 11')).toBeInTheDocument();
    expect(within(featured[0]).getByText('Featured')).toBeInTheDocument();
    expect(screen.getByText('Articles: 12')).toBeInTheDocument();
    expect(within(screen.getByTestId('pagination')).getByRole('link', { name: 'Next page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /News 05/ })).toHaveTextContent('(opens in a new tab)');
  });

  it('shows a friendly empty state for a list without items, on grey', async () => {
    await renderApp({ config: contentConfig(), path: '/news-notice/activity-bulletin' });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('暂无文章');
    expect(screen.getByTestId('main')).toHaveClass('main--grey');
  });

  it('follows ?id= changes while mounted', async () => {
    const { router } = await renderApp({ config: contentConfig(), path: '/news-notice/race-news' });
    await screen.findAllByTestId('news-item');
    await act(() => router.navigate('/news-notice/race-news?id=news-03'));
    await waitFor(() => expect(screen.getByText('新闻03正文')).toBeInTheDocument());
  });
});
