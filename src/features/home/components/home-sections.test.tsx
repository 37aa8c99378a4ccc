import { screen, within } from '@testing-library/react';
import { renderApp } from '@/testing/test-utils';
import { homeConfig, homeRace } from '@/testing/fixtures/home';
import { testConfig, testRace } from '@/testing/fixtures/site';

describe('ad lists', () => {
  it('links only the ads whose link begins with http, https or //', async () => {
    await renderApp({ config: homeConfig(), race: homeRace });
    const top = await screen.findByTestId('ad-list-top');
    const card = within(top).getByRole('img', { name: '银行卡' });
    expect(card.closest('a')).toHaveAttribute('href', 'https://bank.example/card');
    expect(card.closest('a')).toHaveAttribute('target', '_blank');
    // The first top ad is at the fold: loaded at once; the others wait until they are near.
    expect(card).toHaveAttribute('loading', 'eager');
    expect(card).toHaveAttribute('width', '1200');
    // An internal path is not an ad link (spec §5).
    expect(within(top).getByRole('img', { name: '站内链接广告' }).closest('a')).toBeNull();
    expect(within(top).getByRole('img', { name: '站内链接广告' })).toHaveAttribute('loading', 'lazy');

    const bottom = screen.getByTestId('ad-list-bottom');
    expect(within(bottom).getByRole('img', { name: '商城' }).closest('a')).toHaveAttribute('href', '//shop.example/');
    expect(within(bottom).getByRole('img', { name: '志愿者' }).closest('a')).toBeNull();
  });

  it('uses the English link in English, and the Chinese one when there is none', async () => {
    await renderApp({ config: homeConfig(), race: homeRace, language: 'en' });
    const top = await screen.findByTestId('ad-list-top');
    expect(within(top).getByRole('img', { name: 'Bank card' }).closest('a')).toHaveAttribute(
      'href',
      'https://bank.example/en/card',
    );
    const bottom = screen.getByTestId('ad-list-bottom');
    expect(within(bottom).getByRole('img', { name: 'Shop' }).closest('a')).toHaveAttribute('href', '//shop.example/');
  });

  it('hide when empty or when no ad has an image', async () => {
    const config = {
      ...homeConfig(),
      adListTop: [],
      adListBottom: [{ surfacePlotUrl: '  ', jumpUrl: 'https://x.example/' }],
    };
    await renderApp({ config, race: homeRace });
    await screen.findByTestId('home-page');
    expect(screen.queryByTestId('ad-list-top')).not.toBeInTheDocument();
    expect(screen.queryByTestId('ad-list-bottom')).not.toBeInTheDocument();
  });
});

describe('route map', () => {
  it('shows the configured route map with its summary, the race distances and a link to the full route', async () => {
    await renderApp({ config: homeConfig(), race: homeRace });
    const section = await screen.findByTestId('route-map');
    const image = within(section).getByRole('img', { name: '全程马拉松赛道' });
    expect(image).toHaveAttribute('src', '/files/demo/route-map.svg');
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image).toHaveAttribute('width', '1200');
    expect(image).toHaveAttribute('height', '800');
    expect(section).toHaveTextContent('从运河广场出发，两跨运河。');
    expect(section).toHaveTextContent('马拉松42.195 公里起跑 07:30关门 13:30');
    expect(within(section).getByRole('link', { name: /查看完整路线/ })).toHaveAttribute(
      'href',
      '/race-information/race-route',
    );
  });

  it('in English', async () => {
    await renderApp({ config: homeConfig(), race: homeRace, language: 'en' });
    const section = await screen.findByTestId('route-map');
    expect(within(section).getByRole('heading', { level: 2 })).toHaveTextContent('Race Route');
    expect(within(section).getByRole('img', { name: 'Marathon course' })).toBeInTheDocument();
    expect(section).toHaveTextContent('Marathon42.195 kmStart 07:30Cut-off 13:30');
    expect(within(section).getByRole('link', { name: /See the full route/ })).toBeInTheDocument();
  });

  it("falls back to the race's route image and the race-route page", async () => {
    await renderApp({ config: testConfig(), race: testRace });
    const section = await screen.findByTestId('route-map');
    expect(within(section).getByRole('img', { name: '赛道路线图' })).toHaveAttribute('src', '/files/demo/route.svg');
    expect(within(section).getByRole('link', { name: /查看完整路线/ })).toHaveAttribute(
      'href',
      '/race-information/race-route',
    );
  });

  it('hides when there is no route image anywhere', async () => {
    await renderApp({
      config: { ...testConfig(), routeMap: { image: '' } },
      race: { ...testRace, imgDetail: 'demo/poster.svg' },
    });
    await screen.findByTestId('home-page');
    expect(screen.queryByTestId('route-map')).not.toBeInTheDocument();
  });
});

describe('partners', () => {
  it('groups partners in the category order, title sponsor first with the biggest logos', async () => {
    await renderApp({ config: homeConfig(), race: homeRace });
    const section = await screen.findByTestId('partners');
    const groups = within(section).getAllByTestId('partner-group');
    expect(groups.map((g) => g.dataset.code)).toEqual(['titleSponsor', 'eventPartner', 'eventSponsor', 'friends']);
    expect(groups.map((g) => within(g).getByRole('heading').textContent)).toEqual([
      '冠名赞助商',
      '赛事合作伙伴',
      '赛事赞助商',
      '未知类别',
    ]);
    const widths = groups.map((g) => Number(within(g).getAllByRole('img')[0].getAttribute('width')));
    expect(widths).toEqual([...widths].sort((a, b) => b - a));
    expect(widths[0]).toBeGreaterThan(widths[2]);
  });

  it('links logos with an http, https or // link in a new tab; others are not links', async () => {
    await renderApp({ config: homeConfig(), race: homeRace });
    const section = await screen.findByTestId('partners');
    const bank = within(section).getByRole('img', { name: '测试银行' });
    expect(bank).toHaveAttribute('src', '/files/demo/partners/bank.svg');
    expect(bank).toHaveAttribute('loading', 'lazy');
    expect(bank.closest('a')).toHaveAttribute('href', 'https://bank.example/');
    expect(bank.closest('a')).toHaveAttribute('target', '_blank');
    expect(within(section).getByRole('img', { name: '运河乳业' }).closest('a')).toHaveAttribute(
      'href',
      '//dairy.example/',
    );
    expect(within(section).getByRole('img', { name: '清泉水' }).closest('a')).toBeNull();
    expect(within(section).getByRole('img', { name: '朋友' }).closest('a')).toBeNull();
  });

  it('labels groups and logos in English, falling back to Chinese', async () => {
    await renderApp({ config: homeConfig(), race: homeRace, language: 'en' });
    const section = await screen.findByTestId('partners');
    const labels = within(section)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(labels).toEqual(['Title Sponsor', '赛事合作伙伴', 'Event Sponsors', 'Friends']);
    expect(within(section).getByRole('img', { name: 'Test Bank' })).toBeInTheDocument();
    expect(within(section).getByRole('img', { name: '川流运动' })).toBeInTheDocument();
  });

  it('hides when there are no partners', async () => {
    await renderApp({
      config: { ...homeConfig(), cooperativePartnerList: [{ id: 1, label: '空', code: 'titleSponsor', children: [] }] },
    });
    await screen.findByTestId('home-page');
    expect(screen.queryByTestId('partners')).not.toBeInTheDocument();
  });
});
