import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';

const openConfig = () => ({ ...testConfig(), pictureSearch: { openStatus: 1 as const } });

// Whole-app renders with antd forms: a few seconds each in jsdom (the first one loads antd).
vi.setConfig({ testTimeout: 20_000 });

describe('photo search page', () => {
  it('shows the photos of a bib in a grid and opens the viewer with a download link', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/image-search', config: openConfig() });
    // The first page of the file loads antd: give it time on a busy machine.
    await user.type(await screen.findByLabelText('参赛号码', {}, { timeout: 15_000 }), 'A1023');
    await user.click(screen.getByRole('button', { name: '查询' }));
    const tiles = await screen.findAllByTestId('photo-tile');
    expect(tiles).toHaveLength(3);
    expect(screen.getByText('共 3 张')).toBeInTheDocument();
    const third = within(tiles[2]).getByRole('img');
    expect(third).toHaveAttribute('src', 'https://cdn.example/a1023-3.jpg');
    expect(within(tiles[0]).getByRole('img').getAttribute('src')).toMatch(/photos\/a1023-1\.jpg$/);
    await user.click(screen.getByRole('button', { name: '查看大图：第 2 张' }));
    const dialog = screen.getByRole('dialog', { name: '照片查看器' });
    expect(within(dialog).getByRole('img', { name: '参赛号码 A1023 的第 2 张照片' })).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: '下载原图' })).toHaveAttribute('download');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says when a bib has no photos, in English', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/image-search', config: openConfig(), language: 'en' });
    await user.type(await screen.findByLabelText('Bib number'), 'Z9');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByTestId('search-failure')).toHaveTextContent('No data found');
  });

  it('shows the stay-tuned text when photo search is closed', async () => {
    const config = { ...testConfig(), pictureSearch: { openStatus: 0 as const } };
    await renderApp({ path: '/image-search', config });
    expect(await screen.findByTestId('search-closed')).toHaveTextContent('暂未开放，敬请期待');
    expect(screen.queryByLabelText('参赛号码')).toBeNull();
  });
});
