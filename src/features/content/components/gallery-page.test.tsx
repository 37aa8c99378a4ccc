import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { contentConfig } from '@/testing/fixtures/content';
import type { SiteConfig } from '#contract/site-config/schema';

describe('gallery page', () => {
  it('shows the photos recommended first, with titles, sizes and alt texts', async () => {
    await renderApp({ config: contentConfig(), path: '/moments/gallery' });
    const tiles = await screen.findAllByTestId('gallery-tile');
    expect(tiles.map((t) => within(t).getByRole('img').getAttribute('alt'))).toEqual([
      '冲线',
      '起跑',
      '奖牌',
      '专题报道',
    ]);
    const first = within(tiles[0]).getByRole('img');
    expect(first).toHaveAttribute('src', '/files/demo/gallery/b-thumb.svg');
    expect(first).toHaveAttribute('width');
    expect(first).toHaveAttribute('height');
    expect(within(tiles[0]).getByText('精选')).toBeInTheDocument();
    expect(screen.getByText('共 4 张')).toBeInTheDocument();
  });

  it('opens the viewer on the full image, moves with buttons and arrow keys, and closes with Esc', async () => {
    const user = userEvent.setup();
    await renderApp({ config: contentConfig(), path: '/moments/gallery' });
    const open = await screen.findByRole('button', { name: '查看大图：精选 冲线' });
    await user.click(open);
    const dialog = screen.getByRole('dialog', { name: '图片查看器' });
    expect(within(dialog).getByRole('img', { name: '冲线' })).toHaveAttribute('src', '/files/demo/gallery/b.svg');
    expect(within(dialog).getByText('1 / 3')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '关闭' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: '下一张' }));
    expect(within(dialog).getByRole('img', { name: '起跑' })).toHaveAttribute('src', '/files/demo/gallery/a.svg');
    await user.keyboard('{ArrowRight}');
    // no full image configured: the thumbnail
    expect(within(dialog).getByRole('img', { name: '奖牌' })).toHaveAttribute('src', '/files/demo/gallery/c-thumb.svg');
    await user.keyboard('{ArrowRight}');
    expect(within(dialog).getByText('1 / 3')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: '上一张' }));
    expect(within(dialog).getByText('3 / 3')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(open).toHaveFocus();
  });

  it('keeps Tab inside the viewer', async () => {
    const user = userEvent.setup();
    await renderApp({ config: contentConfig(), path: '/moments/gallery' });
    await user.click(await screen.findByRole('button', { name: '查看大图：精选 冲线' }));
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 4; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it('opens a photo with a jump link in a new tab instead of the viewer', async () => {
    await renderApp({ config: contentConfig(), path: '/moments/gallery' });
    const link = await screen.findByRole('link', { name: /专题报道/ });
    expect(link).toHaveAttribute('href', 'https://photos.example/story');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('shows English titles and labels, falling back to Chinese, and closes with the close button', async () => {
    const user = userEvent.setup();
    await renderApp({ config: contentConfig(), path: '/moments/gallery', language: 'en' });
    const tiles = await screen.findAllByTestId('gallery-tile');
    expect(tiles.map((t) => within(t).getByRole('img').getAttribute('alt'))).toEqual([
      'The finish',
      'The start',
      '奖牌',
      'Photo story',
    ]);
    expect(screen.getByText('Photos: 4')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View larger: The start' }));
    const dialog = screen.getByRole('dialog', { name: 'Photo viewer' });
    expect(within(dialog).getByText('2 / 3')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a friendly empty state without photos, or with a broken list', async () => {
    const config = { ...contentConfig(), wonderfulPictures: 'oops' } as unknown as SiteConfig;
    await renderApp({ config, path: '/moments/gallery', language: 'en' });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('Photos coming soon');
    expect(screen.getByTestId('section-nav')).toBeInTheDocument();
  });

  it('is also the hidden image-collection page', async () => {
    await renderApp({ config: contentConfig(), path: '/image-collection' });
    expect(await screen.findAllByTestId('gallery-tile')).toHaveLength(4);
    expect(screen.getByTestId('section-title')).toHaveTextContent('图片集锦');
  });
});
