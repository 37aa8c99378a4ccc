import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { VALID_ID } from '@/testing/fixtures/search';
import { WAIT_LIMIT_MS } from '@/testing/wait-limit';

describe('personal best and historical score pages', () => {
  it('lists the personal best of each item', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/pb-search' });
    // The first page of the file loads antd: give it time on a busy machine.
    await user.type(await screen.findByLabelText('姓名'), '张三');
    await user.type(screen.getByLabelText('证件号码'), VALID_ID);
    await user.click(screen.getByRole('button', { name: '查询' }));
    const table = await screen.findByTestId('pb-table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]).getByText('全程马拉松')).toBeInTheDocument();
    expect(within(rows[1]).getByText('3:41:05')).toBeInTheDocument();
    expect(within(rows[1]).getByText('2026-11-08')).toBeInTheDocument();
  });

  it('names items and races in English where the answer has English, with the race date', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/pb-search', language: 'en' });
    await user.type(await screen.findByLabelText('Name'), '张三');
    await user.type(screen.getByLabelText('Certificate number'), VALID_ID);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const rows = within(await screen.findByTestId('pb-table')).getAllByRole('row');
    expect(within(rows[1]).getByText('Marathon')).toBeInTheDocument();
    expect(within(rows[1]).getByText('2026 Canal Marathon')).toBeInTheDocument();
    expect(within(rows[1]).getByText('2026-11-08')).toBeInTheDocument();
    // An answer without English keeps the Chinese names (content without English).
    expect(within(rows[2]).getByText('半程马拉松')).toBeInTheDocument();
    expect(within(rows[2]).getByText('2025-11-09')).toBeInTheDocument();
  });

  it('shows a notice when historical search is not enabled', async () => {
    await renderApp({ path: '/multiple-score-search', language: 'en' });
    expect(await screen.findByTestId('history-unavailable')).toHaveTextContent(
      'Historical score search is not available on this site',
    );
  });

  it('searches the races picked from the configured list', async () => {
    const user = userEvent.setup();
    const config = {
      ...testConfig(),
      scoreSearch: { openStatus: 1 as const, useMultipleSearch: true },
      multipleSearchRaceList: [
        { raceId: 'race-1', raceName: '2026 运河马拉松', raceNameEn: '2026 Canal Marathon' },
        { raceId: 'race-0', raceName: '2025 运河马拉松' },
      ],
    };
    await renderApp({ path: '/multiple-score-search', config, language: 'en' });
    const picker = await screen.findByLabelText('Race');
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All races', '2026 Canal Marathon', '2025 运河马拉松']);
    await user.type(screen.getByLabelText('Name'), '张三');
    await user.type(screen.getByLabelText('Certificate number'), VALID_ID);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findAllByTestId('score-result')).toHaveLength(2);
    await user.selectOptions(picker, 'race-0');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await vi.waitFor(() => expect(screen.getAllByTestId('score-result')).toHaveLength(1), { timeout: WAIT_LIMIT_MS });
    expect(screen.getByText('2025 运河马拉松', { selector: '.result-card__race' })).toBeInTheDocument();
  });
});
