import { screen, within } from '@testing-library/react';
import { renderApp } from '@/testing/test-utils';
import { contentConfig } from '@/testing/fixtures/content';

const groupTitles = () =>
  screen.getAllByTestId('partner-group').map((g) => within(g).queryByRole('heading', { level: 2 })?.textContent);
const namesIn = (group: HTMLElement) =>
  within(group)
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);

describe('partner page', () => {
  it('groups the profiles by partner category in the order of the spec, in Chinese', async () => {
    await renderApp({ config: contentConfig(), path: '/partners/sponsors' });
    await screen.findAllByTestId('partner-card');
    expect(groupTitles()).toEqual(['冠名赞助商', '赛事合作伙伴', '官方计时服务', '合作伙伴']);
    const groups = screen.getAllByTestId('partner-group');
    expect(namesIn(groups[1])).toEqual(['测试汽车', '测试乳业']);
    expect(namesIn(groups[3])).toEqual(['街角咖啡']);
    expect(screen.getByRole('heading', { level: 1, name: '赞助商' })).toBeInTheDocument();
    expect(screen.getByText('共 5 家')).toBeInTheDocument();
  });

  it('shows each logo with its name as alt text and a fixed size, and the profile', async () => {
    await renderApp({ config: contentConfig(), path: '/partners/sponsors' });
    const logo = await screen.findByRole('img', { name: '测试银行标志' });
    expect(logo).toHaveAttribute('src', '/files/demo/partners/bank.svg');
    expect(logo).toHaveAttribute('width', '240');
    expect(logo).toHaveAttribute('height', '120');
    const card = logo.closest('li')!;
    expect(within(card).getByText('测试银行简介。')).toBeInTheDocument();
    // the profile's first line only repeated the group title
    expect(within(card).queryByText('冠名赞助商')).toBeNull();
    // a profile without a logo shows its name in the tile
    const cafe = screen.getByRole('heading', { level: 3, name: '街角咖啡' }).closest('li')!;
    expect(within(cafe).queryByRole('img')).toBeNull();
  });

  it('shows English names, labels and profiles in English', async () => {
    await renderApp({ config: contentConfig(), path: '/partners/sponsors', language: 'en' });
    await screen.findAllByTestId('partner-card');
    expect(groupTitles()).toEqual(['Title Sponsor', 'Event Partners', 'Official Timing', 'Partners']);
    expect(screen.getByRole('img', { name: 'Test Bank logo' })).toBeInTheDocument();
    expect(screen.getByText('About Test Bank.')).toBeInTheDocument();
    // no English profile: the Chinese one
    expect(screen.getByText('赛道旁的咖啡馆。')).toBeInTheDocument();
    expect(within(screen.getByTestId('section-nav')).getByRole('link', { name: 'Sponsors' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('shows a friendly empty state without profiles', async () => {
    await renderApp({ config: contentConfig(), path: '/partners/friends', language: 'en' });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('Partners to be announced');
    expect(screen.getByTestId('section-nav')).toBeInTheDocument();
  });
});
