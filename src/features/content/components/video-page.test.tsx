import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { contentConfig } from '@/testing/fixtures/content';

describe('video page', () => {
  beforeEach(() => {
    // jsdom has no media playback
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows poster cards recommended first, with title and summary', async () => {
    await renderApp({ config: contentConfig(), path: '/moments/videos' });
    const cards = await screen.findAllByTestId('video-card');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['官方集锦', '夜跑']);
    expect(within(cards[0]).getByText('赛事回顾')).toBeInTheDocument();
    expect(within(cards[0]).getByText('精选')).toBeInTheDocument();
    const poster = within(cards[0]).getByRole('img', { name: '官方集锦' });
    expect(poster).toHaveAttribute('src', '/files/demo/video/p2.svg');
    expect(poster).toHaveAttribute('width', '800');
    expect(poster).toHaveAttribute('height', '450');
  });

  it('opens the player with the video, and closes it with Esc', async () => {
    const user = userEvent.setup();
    await renderApp({ config: contentConfig(), path: '/moments/videos' });
    const play = await screen.findByRole('button', { name: '播放：夜跑' });
    await user.click(play);
    const dialog = screen.getByRole('dialog', { name: '视频播放器' });
    const video = dialog.querySelector('video')!;
    expect(video).toHaveAttribute('src', '/files/demo/videos/one.mp4');
    expect(video).toHaveAttribute('poster', '/files/demo/video/p1.svg');
    expect(video).toHaveAttribute('controls');
    expect(video).toHaveAttribute('preload', 'none');
    expect(within(dialog).getByText('千灯廊夜跑')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(play).toHaveFocus();
  });

  it('says so when the video cannot be loaded, in Chinese', async () => {
    const user = userEvent.setup();
    await renderApp({ config: contentConfig(), path: '/moments/videos' });
    await user.click(await screen.findByRole('button', { name: '播放：官方集锦' }));
    fireEvent.error(screen.getByRole('dialog').querySelector('video')!);
    expect(await screen.findByTestId('video-failed')).toHaveTextContent('视频暂时无法播放，请稍后再试。');
    expect(screen.getByRole('dialog').querySelector('video')).toBeNull();
  });

  it('shows English texts and the failure message in English', async () => {
    const user = userEvent.setup();
    await renderApp({ config: contentConfig(), path: '/moments/videos', language: 'en' });
    const cards = await screen.findAllByTestId('video-card');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Highlights', 'Night run']);
    expect(within(cards[1]).getByText('Under the lanterns')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Play: Highlights' }));
    const dialog = screen.getByRole('dialog', { name: 'Video player' });
    fireEvent.error(dialog.querySelector('video')!);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This video cannot be played right now. Please try again later.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the failure message at once for an unusable video address', async () => {
    const user = userEvent.setup();
    const config = contentConfig();
    config.videoCollections = [{ id: 'bad', pic: 'demo/video/p1.svg', src: 'javascript:alert(1)', title: '坏链接' }];
    await renderApp({ config, path: '/moments/videos' });
    await user.click(await screen.findByRole('button', { name: '播放：坏链接' }));
    expect(screen.getByTestId('video-failed')).toBeInTheDocument();
  });

  it('shows a friendly empty state without videos', async () => {
    const config = { ...contentConfig(), videoCollections: [] };
    await renderApp({ config, path: '/moments/videos' });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('视频即将上线');
  });

  it('is also the hidden video-collection page', async () => {
    await renderApp({ config: contentConfig(), path: '/video-collection', language: 'en' });
    expect(await screen.findAllByTestId('video-card')).toHaveLength(2);
    expect(screen.getByTestId('section-title')).toHaveTextContent('Video Collection');
  });
});
