import { screen, within } from '@testing-library/react';
import { renderApp } from '@/testing/test-utils';
import { contentConfig } from '@/testing/fixtures/content';

/** jsdom lays nothing out: a table's widths are given here, as a phone would measure them. */
function tableWidths(scrollWidth: number, clientWidth: number) {
  vi.spyOn(HTMLTableElement.prototype, 'scrollWidth', 'get').mockReturnValue(scrollWidth);
  vi.spyOn(HTMLTableElement.prototype, 'clientWidth', 'get').mockReturnValue(clientWidth);
}

describe('document tables on the mobile site', () => {
  const desktopPath = window.location.pathname;
  afterEach(() => {
    vi.restoreAllMocks();
    window.history.replaceState(null, '', desktopPath);
  });

  it('a table wider than the screen takes the keyboard focus, so it scrolls without a pointer', async () => {
    window.history.replaceState(null, '', '/m/');
    tableWidths(520, 300);
    await renderApp({ config: contentConfig(), path: '/race-information/race-rules' });
    const doc = await screen.findByTestId('document-view');
    expect(within(doc).getByRole('table')).toHaveAttribute('tabindex', '0');
  });

  it('a table that fits is left alone', async () => {
    window.history.replaceState(null, '', '/m/');
    tableWidths(300, 300);
    await renderApp({ config: contentConfig(), path: '/race-information/race-rules' });
    const doc = await screen.findByTestId('document-view');
    expect(within(doc).getByRole('table')).not.toHaveAttribute('tabindex');
  });

  it('the desktop site never changes its tables', async () => {
    tableWidths(520, 300);
    await renderApp({ config: contentConfig(), path: '/race-information/race-rules' });
    const doc = await screen.findByTestId('document-view');
    expect(within(doc).getByRole('table')).not.toHaveAttribute('tabindex');
  });
});
