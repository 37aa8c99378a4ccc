import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { api } from '@/testing/mocks/base-url';
import { server } from '@/testing/mocks/server';
import { WAIT_LIMIT_MS } from '@/testing/wait-limit';

const openConfig = () => ({ ...testConfig(), pictureSearch: { openStatus: 1 as const } });

describe('photo search page', () => {
  it('shows the photos of a bib in a grid and opens the viewer with a download link', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/image-search', config: openConfig() });
    // The first page of the file loads antd: give it time on a busy machine.
    await user.type(await screen.findByLabelText('参赛号码'), 'A1023');
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

  it.each([
    ['zh', '赛事', '参赛号码', '查询', ['2026 运河马拉松', '2025 运河马拉松']],
    ['en', 'Race', 'Bib number', 'Search', ['2026 Canal Marathon', '2025 运河马拉松']],
  ] as const)(
    "offers the organiser's races with results, the latest first, and searches the one picked (%s)",
    async (language, raceLabel, bibLabel, search, names) => {
      const user = userEvent.setup();
      const asked: Record<string, unknown>[] = [];
      server.use(
        http.post(api(API_PATHS.searchPhotos), async ({ request }) => {
          const body = (await request.json()) as Record<string, unknown>;
          asked.push(body);
          const data = body.raceId === 'race-0' ? [{ url: 'photos/2025-a1.jpg' }] : [];
          return HttpResponse.json({ code: 0, msg: 'success', data });
        }),
      );
      await renderApp({ path: '/image-search', config: openConfig(), language });
      const picker = await screen.findByRole('combobox', { name: raceLabel });
      await vi.waitFor(() => expect(picker).toHaveValue('race-1'), { timeout: WAIT_LIMIT_MS });
      expect(
        within(picker)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(names);
      await user.type(screen.getByLabelText(bibLabel), 'A1');
      await user.click(screen.getByRole('button', { name: search }));
      await vi.waitFor(() => expect(asked.at(-1)).toEqual({ raceId: 'race-1', bib: 'A1' }), { timeout: WAIT_LIMIT_MS });
      await waitFor(() => expect(screen.getByTestId('search-failure')).toBeInTheDocument());
      // A past race: its photos; picking another race clears what the last one found.
      await user.selectOptions(picker, 'race-0');
      expect(screen.queryByTestId('search-failure')).toBeNull();
      await user.click(screen.getByRole('button', { name: search }));
      await vi.waitFor(() => expect(asked.at(-1)).toEqual({ raceId: 'race-0', bib: 'A1' }), { timeout: WAIT_LIMIT_MS });
      expect(await screen.findAllByTestId('photo-tile')).toHaveLength(1);
      await user.selectOptions(picker, 'race-1');
      expect(screen.queryByTestId('photo-tile')).toBeNull();
    },
  );

  it('searches the bound race, without a picker, when the list of races with results cannot be had', async () => {
    const user = userEvent.setup();
    const asked: Record<string, unknown>[] = [];
    server.use(
      http.get(api(API_PATHS.racesWithResults), () => HttpResponse.json({ code: 500, msg: 'boom', data: null })),
      http.post(api(API_PATHS.searchPhotos), async ({ request }) => {
        asked.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ code: 0, msg: 'success', data: [] });
      }),
    );
    await renderApp({ path: '/image-search', config: openConfig() });
    await user.type(await screen.findByLabelText('参赛号码'), 'A1');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await vi.waitFor(() => expect(asked.at(-1)).toEqual({ raceId: 'test-race-2027', bib: 'A1' }), {
      timeout: WAIT_LIMIT_MS,
    });
    expect(screen.queryByRole('combobox', { name: '赛事' })).toBeNull();
  });

  it('shows the stay-tuned text when photo search is closed', async () => {
    const config = { ...testConfig(), pictureSearch: { openStatus: 0 as const } };
    await renderApp({ path: '/image-search', config });
    expect(await screen.findByTestId('search-closed')).toHaveTextContent('暂未开放，敬请期待');
    expect(screen.queryByLabelText('参赛号码')).toBeNull();
  });
});
