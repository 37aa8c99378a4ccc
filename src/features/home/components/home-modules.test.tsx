import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { homeConfig, homeRace } from '@/testing/fixtures/home';
import type { SiteConfig } from '#contract/site-config/schema';

describe('home carousel', () => {
  it('shows every slide, the first one eagerly, links only on slides with an http link', async () => {
    await renderApp();
    const carousel = await screen.findByTestId('home-carousel');
    const images = within(carousel).getAllByRole('img', { hidden: true });
    expect(images).toHaveLength(2);
    expect(images[0]).toHaveAttribute('loading', 'eager');
    expect(images[1]).toHaveAttribute('loading', 'lazy');
    expect(images[1].closest('a')).toHaveAttribute('href', 'https://news.example/1');
    expect(images[0].closest('a')).toBeNull();
  });

  it('hides when the configuration has no slides', async () => {
    await renderApp({ config: { ...testConfig(), carouselList: [] } });
    await screen.findByTestId('home-page');
    expect(screen.queryByTestId('home-carousel')).not.toBeInTheDocument();
  });
});

describe('home search modules', () => {
  it('shows a closed module its dialog text', async () => {
    const user = userEvent.setup();
    await renderApp();
    await user.click(within(await screen.findByTestId('search-modules')).getByText('立即报名'));
    expect(await screen.findByTestId('search-dialog-text')).toHaveTextContent('报名尚未开始');
  });

  it("shows 'Not open yet, stay tuned' in English when a closed module has no dialog text", async () => {
    const user = userEvent.setup();
    await renderApp({ language: 'en' });
    await user.click(await screen.findByText('Photo search'));
    expect(await screen.findByTestId('search-dialog-text')).toHaveTextContent('Not open yet, stay tuned');
  });

  it('routes an open internal module to its page', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp();
    await user.click(await screen.findByText('报名查询'));
    expect(router.state.location.pathname).toBe('/registration-search');
  });

  it("marks closed modules 'Coming Soon' in English", async () => {
    await renderApp({ language: 'en' });
    const modules = await screen.findByTestId('search-modules');
    expect(within(modules).getAllByText('Coming Soon')).toHaveLength(2);
  });

  it('opens an open external module in a new tab', async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const config = testConfig();
    config.searchConfigList![0] = { ...config.searchConfigList![0], openStatus: 1 };
    await renderApp({ config });
    await user.click(within(await screen.findByTestId('search-modules')).getByText('立即报名'));
    expect(open).toHaveBeenCalledWith('https://reg.example/', '_blank', 'noopener,noreferrer');
    open.mockRestore();
  });

  it('hides when the configuration has no modules', async () => {
    await renderApp({ config: { ...testConfig(), searchConfigList: undefined } });
    await screen.findByTestId('home-page');
    expect(screen.queryByTestId('search-modules')).not.toBeInTheDocument();
  });
});

describe('home page', () => {
  it('shows the modules in order: carousel, search, countdown and sign-up, ads, news, route, ads, partners', async () => {
    await renderApp({ config: homeConfig(), race: homeRace });
    const page = await screen.findByTestId('home-page');
    const order = [
      'home-carousel',
      'search-modules',
      'race-band',
      'ad-list-top',
      'home-news',
      'route-map',
      'ad-list-bottom',
      'partners',
    ].map((id) => within(page).getByTestId(id));
    for (let i = 1; i < order.length; i += 1) {
      expect(order[i - 1].compareDocumentPosition(order[i]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent('2027测试城市马拉松');
  });

  it('shows no Chinese in English when every content has its English text', async () => {
    const config = homeConfig();
    // The one partner group without an English label in the fixture gets one here.
    config.cooperativePartnerList = config.cooperativePartnerList!.map((g) => ({
      ...g,
      labelEn: g.labelEn ?? 'Event Partners',
    }));
    config.cooperativePartnerList[0].children[1].nameEn = 'Chuanliu Sports';
    await renderApp({ config, race: homeRace, language: 'en' });
    const page = await screen.findByTestId('home-page');
    await screen.findByTestId('partners');
    const texts = [
      page.textContent ?? '',
      ...Array.from(page.querySelectorAll('img, [aria-label]')).map(
        (el) => `${el.getAttribute('alt') ?? ''} ${el.getAttribute('aria-label') ?? ''}`,
      ),
    ];
    expect(texts.join(' ')).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('shows only the carousel and search modules when the configuration has nothing else', async () => {
    await renderApp({
      config: { ...testConfig(), searchConfigList: [] },
      race: {
        ...homeRace,
        startTime: undefined,
        signUpStartTime: undefined,
        signUpEndTime: undefined,
        imgDetail: undefined,
      },
    });
    const page = await screen.findByTestId('home-page');
    expect(within(page).getByTestId('home-carousel')).toBeInTheDocument();
    for (const id of [
      'search-modules',
      'race-band',
      'ad-list-top',
      'home-news',
      'route-map',
      'ad-list-bottom',
      'partners',
    ]) {
      expect(within(page).queryByTestId(id)).not.toBeInTheDocument();
    }
  });

  it('leaves out a module whose data breaks it and shows the rest', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const config = { ...homeConfig(), carouselList: [null] } as unknown as SiteConfig;
    await renderApp({ config, race: homeRace });
    await waitFor(() => expect(screen.getByTestId('partners')).toBeInTheDocument());
    expect(screen.queryByTestId('home-carousel')).not.toBeInTheDocument();
    expect(screen.getByTestId('search-modules')).toBeInTheDocument();
    expect(error).toHaveBeenCalledWith(expect.stringContaining('"carousel"'), expect.anything(), expect.anything());
    error.mockRestore();
  });
});

describe('home links to the other score lookups', () => {
  it('links personal bests and historical scores while score search is open', async () => {
    const user = userEvent.setup();
    const config = testConfig();
    config.searchConfigList = [
      ...config.searchConfigList!,
      {
        id: 3,
        moduleType: 3,
        title: '成绩查询',
        titleEn: 'Score search',
        jumpType: 2,
        jumpUrl: '/score-search',
        openStatus: 1,
      },
    ];
    config.scoreSearch = { openStatus: 1, useMultipleSearch: true };
    const { router } = await renderApp({ config });
    const more = await screen.findByTestId('search-modules-more');
    expect(within(more).getByRole('link', { name: '个人最好成绩' })).toBeInTheDocument();
    await user.click(within(more).getByRole('link', { name: '历史成绩查询' }));
    expect(router.state.location.pathname).toBe('/multiple-score-search');
  });

  it('does not link the other score lookups without an open score module', async () => {
    await renderApp();
    await screen.findByTestId('search-modules');
    expect(screen.queryByTestId('search-modules-more')).not.toBeInTheDocument();
  });
});
