import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { contentConfig } from '@/testing/fixtures/content';
import type { SiteConfig } from '#contract/site-config/schema';
import { relativeHeadings } from './document-view';

describe('document page', () => {
  it('shows the title, the date as YYYY.MM.DD, the rich text and 已全部显示 in Chinese', async () => {
    await renderApp({ config: contentConfig(), path: '/race-information/race-rules' });
    const doc = await screen.findByTestId('document-view');
    expect(within(doc).getByRole('heading', { level: 1 })).toHaveTextContent('2027测试马拉松竞赛规程');
    expect(within(doc).getByTestId('document-date')).toHaveTextContent(/^2026\.08\.25$/);
    expect(within(doc).getByRole('heading', { level: 2, name: '一、比赛时间' })).toBeInTheDocument();
    expect(within(doc).getByRole('cell', { name: '6小时' })).toBeInTheDocument();
    expect(within(doc).getByTestId('all-displayed')).toHaveTextContent('已全部显示');
  });

  it('shows the English title and content and All Displayed in English', async () => {
    await renderApp({ config: contentConfig(), path: '/race-information/race-rules', language: 'en' });
    const doc = await screen.findByTestId('document-view');
    expect(within(doc).getByRole('heading', { level: 1 })).toHaveTextContent('Rules of the 2027 Test Marathon');
    expect(within(doc).getByText('The gun goes at 07:30 on 18 April 2027.')).toBeInTheDocument();
    expect(within(doc).getByTestId('document-date')).toHaveTextContent('2026.08.25');
    expect(within(doc).getByTestId('all-displayed')).toHaveTextContent('All Displayed');
    expect(within(doc).queryByText(/比赛时间/)).toBeNull();
  });

  it('falls back to the Chinese content and title when the English is blank, and says so', async () => {
    await renderApp({ config: contentConfig(), path: '/race-information/race-route', language: 'en' });
    const doc = await screen.findByTestId('document-view');
    expect(within(doc).getByRole('heading', { level: 1 })).toHaveTextContent('赛事路线说明');
    expect(within(doc).getByText('赛道沿运河展开，全程平坦。')).toBeInTheDocument();
    expect(within(doc).getByRole('note')).toHaveTextContent('This page is not available in English yet.');
    expect(within(doc).getByTestId('all-displayed')).toHaveTextContent('All Displayed');
  });

  it('lists the pages of its menu group in the button bar and highlights the current one', async () => {
    await renderApp({ config: contentConfig(), path: '/race-information/race-rules' });
    const bar = await screen.findByTestId('section-nav');
    const links = within(bar).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      '竞赛规程',
      '赛事路线',
      '赛事声明',
      expect.stringContaining('规则手册'),
    ]);
    expect(within(bar).getByRole('link', { name: '竞赛规程' })).toHaveAttribute('aria-current', 'page');
    expect(within(bar).getByRole('link', { name: '赛事路线' })).not.toHaveAttribute('aria-current');
    expect(within(bar).getByRole('link', { name: '赛事路线' })).toHaveAttribute('href', '/race-information/race-route');
    expect(within(bar).getByRole('link', { name: /规则手册/ })).toHaveAttribute('target', '_blank');
    expect(screen.getByTestId('section-title')).toHaveTextContent('赛事信息');
    const crumbs = screen.getByRole('navigation', { name: '当前位置' });
    expect(within(crumbs).getByRole('link', { name: '首页' })).toHaveAttribute('href', '/home');
    expect(within(crumbs).getByRole('link', { name: '赛事信息' })).toHaveAttribute(
      'href',
      '/race-information/race-rules',
    );
    expect(within(crumbs).getByText('竞赛规程')).toHaveAttribute('aria-current', 'page');
  });

  it('shows the button bar in English, falling back to Chinese titles, and moves between pages', async () => {
    const user = userEvent.setup();
    await renderApp({ config: contentConfig(), path: '/race-information/race-rules', language: 'en' });
    const bar = await screen.findByTestId('section-nav');
    expect(
      within(bar)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Competition Rules', '赛事路线', 'Race Statement', expect.stringContaining('Rulebook')]);
    expect(screen.getByTestId('section-title')).toHaveTextContent('Race Info');
    await user.click(within(bar).getByRole('link', { name: '赛事路线' }));
    await waitFor(() => expect(screen.getByText('赛道沿运河展开，全程平坦。')).toBeInTheDocument());
    expect(within(screen.getByTestId('section-nav')).getByRole('link', { name: '赛事路线' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it("lists the children of the route named by the 'parent' meta", async () => {
    await renderApp({ config: contentConfig(), path: '/race-guide' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: '参赛指南' })).toBeInTheDocument());
    const bar = screen.getByTestId('section-nav');
    expect(within(bar).getByRole('link', { name: '竞赛规程' })).toHaveAttribute('href', '/race-information/race-rules');
    expect(screen.getByTestId('section-title')).toHaveTextContent('赛事信息');
  });

  it('shows a friendly empty state when the dataPath has no document, in both languages', async () => {
    await renderApp({ config: contentConfig(), path: '/race-information/race-statement' });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('内容正在准备中');
    expect(screen.getByRole('heading', { level: 1, name: '赛事声明' })).toBeInTheDocument();
    expect(screen.getByTestId('section-nav')).toBeInTheDocument();
  });

  it('shows the English empty state', async () => {
    await renderApp({ config: contentConfig(), path: '/race-information/race-statement', language: 'en' });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('Content coming soon');
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/home');
  });

  it('hides the date of a document without a time', async () => {
    await renderApp({ config: contentConfig(), path: '/race-guide' });
    await screen.findByTestId('document-view');
    expect(screen.queryByTestId('document-date')).toBeNull();
  });

  it('renders the rich text sanitised and opens its external links in a new tab', async () => {
    await renderApp({ config: contentConfig(), path: '/race-information/race-rules' });
    const doc = await screen.findByTestId('document-view');
    const img = within(doc).getByRole('img', { name: '路线' });
    expect(img).not.toHaveAttribute('onerror');
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(within(doc).getByRole('link', { name: '规则全文' })).toHaveAttribute('target', '_blank');
    expect((window as { __hacked?: boolean }).__hacked).toBeUndefined();
  });

  it('shows the rest of the page when the content of the configuration is broken', async () => {
    const broken = {
      ...contentConfig(),
      contentGroups: { raceInformation: { raceRules: 'not a list', raceRoute: [null, 42, { title: 'no id' }] } },
    } as unknown as SiteConfig;
    await renderApp({ config: broken, path: '/race-information/race-rules' });
    await waitFor(() => expect(screen.getByTestId('content-empty')).toBeInTheDocument());
    expect(screen.getByTestId('section-nav')).toBeInTheDocument();
    expect(screen.getByTestId('site-menu')).toBeInTheDocument();
  });

  it('shows the empty state when the configuration has no content groups at all', async () => {
    const config = { ...contentConfig(), contentGroups: undefined };
    await renderApp({ config, path: '/race-information/race-rules', language: 'en' });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('Content coming soon');
  });
});

describe('relativeHeadings', () => {
  it("tells an organiser's section headings as level 2 under the title, keeping their tags", () => {
    expect(relativeHeadings('<h3>一、组织</h3><p>x</p><h4>附</h4>')).toBe(
      '<h3 aria-level="2">一、组织</h3><p>x</p><h4 aria-level="3">附</h4>',
    );
    expect(relativeHeadings('<h1>Top</h1>')).toBe('<h1 aria-level="2">Top</h1>');
    const asWritten = '<h2>一、比赛时间</h2><h3>关门时间</h3><p>无标题</p>';
    expect(relativeHeadings(asWritten)).toBe(asWritten);
    expect(relativeHeadings('<p>no headings</p><header>x</header>')).toBe('<p>no headings</p><header>x</header>');
  });
});
