import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';

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
    await user.click(await screen.findByText('立即报名'));
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

  it('hides when the configuration has no modules', async () => {
    await renderApp({ config: { ...testConfig(), searchConfigList: undefined } });
    await screen.findByTestId('home-page');
    expect(screen.queryByTestId('search-modules')).not.toBeInTheDocument();
  });
});
