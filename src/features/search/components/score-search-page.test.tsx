import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { VALID_ID } from '@/testing/fixtures/search';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { API_PATHS } from '#contract/api';
import { WAIT_LIMIT_MS } from '@/testing/wait-limit';

describe('score search page', () => {
  it('finds a result by bib and shows item, times, pace, ranks and splits', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search' });
    // The first page of the file loads antd: give it time on a busy machine.
    await waitFor(() => expect(screen.getByRole('heading', { name: '成绩查询' })).toBeInTheDocument());
    await user.type(screen.getByLabelText('参赛号码'), ' A1023 ');
    await user.click(screen.getByRole('button', { name: '查询' }));
    const card = await screen.findByTestId('score-result');
    expect(within(card).getByText('全程马拉松')).toBeInTheDocument();
    expect(within(card).getByText('号码 A1023')).toBeInTheDocument();
    expect(within(card).getByTestId('chip-time')).toHaveTextContent('3:41:05');
    expect(within(card).getByTestId('gun-time')).toHaveTextContent('3:42:10');
    expect(within(card).getByTestId('pace')).toHaveTextContent('5:14/km');
    const ranks = within(card).getByTestId('ranks');
    expect(within(ranks).getByText('1203')).toBeInTheDocument();
    expect(within(ranks).getByText('1001')).toBeInTheDocument();
    expect(within(ranks).getByText('年龄组排名 · M40-44')).toBeInTheDocument();
    expect(within(ranks).getByText('共 8512 名完赛者')).toBeInTheDocument();
    const rows = within(within(card).getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(
      within(rows[0])
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['计时点', '距离', '分段用时', '累计用时', '配速']);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(rows[1])).toEqual(['5 公里', '0:26:01', '0:26:01', '5:12/km']);
    expect(cells(rows[2])).toEqual(['10 公里', '0:26:20', '0:52:21', '5:16/km']);
    expect(cells(rows[3])).toEqual(['21.0975 公里', '0:58:40', '1:51:01', '5:18/km']);
    expect(within(card).getByRole('button', { name: '下载电子证书' })).toBeInTheDocument();
  });

  it('validates the bib and the identity fields with clear messages before searching', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search' });
    await user.click(await screen.findByRole('button', { name: '查询' }));
    await waitFor(() => expect(screen.getByText('请输入参赛号码')).toBeInTheDocument());
    await user.type(screen.getByLabelText('参赛号码'), '12-3');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(screen.getByText('参赛号码应为字母或数字')).toBeInTheDocument());

    await user.click(screen.getByRole('radio', { name: '按姓名和证件' }));
    await user.type(screen.getByLabelText('姓名'), ' "" ');
    await user.type(screen.getByLabelText('证件号码'), '110105194912310021');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(screen.getByText('姓名不能只有空格或双引号')).toBeInTheDocument());
    await waitFor(() => expect(screen.getByText('请输入正确的18位身份证号码')).toBeInTheDocument());
    // The message is the input's description, and the input says it is invalid.
    const number = screen.getByLabelText('证件号码');
    expect(number).toHaveAttribute('aria-invalid', 'true');
    expect(number).toHaveAccessibleDescription('请输入正确的18位身份证号码');
    expect(screen.queryByTestId('score-result')).toBeNull();
  });

  it('finds a result by name and ID card, in English', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search', language: 'en' });
    await user.click(await screen.findByRole('radio', { name: 'By name and certificate' }));
    await user.type(screen.getByLabelText('Name'), '张三');
    await user.type(screen.getByLabelText('Certificate number'), VALID_ID);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const card = await screen.findByTestId('score-result');
    expect(within(card).getByText('Bib A1023')).toBeInTheDocument();
    expect(within(card).getByText('Marathon')).toBeInTheDocument();
    expect(within(card).queryByText('全程马拉松')).toBeNull();
    expect(within(card).getByText('Chip time')).toBeInTheDocument();
    expect(within(card).getByText('of 8512 finishers')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Download e-certificate' })).toBeInTheDocument();
  });

  it("shows the server's message when no score is found", async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search', language: 'en' });
    await user.type(await screen.findByLabelText('Bib number'), 'B999');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByTestId('search-failure')).toHaveTextContent('Your score information was not found...');
    expect(screen.queryByTestId('score-result')).toBeNull();
  });

  it("shows the dictionary's not-found message in Chinese in Chinese mode", async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search' });
    await user.type(await screen.findByLabelText('参赛号码'), 'B999');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByTestId('search-failure')).toHaveTextContent('未查询到您的成绩信息...');
    expect(screen.queryByText('Your score information was not found...')).toBeNull();
  });

  it('shows the dialog text instead of the form when the module is closed', async () => {
    const config = {
      ...testConfig(),
      scoreSearch: { openStatus: 0 as const, dialogText: '成绩将于赛后公布', dialogTextEn: 'Results after the race' },
    };
    await renderApp({ path: '/score-search', config });
    expect(await screen.findByTestId('search-closed')).toHaveTextContent('成绩将于赛后公布');
    expect(screen.queryByRole('button', { name: '查询' })).toBeNull();
  });

  it('falls back to the stay-tuned text in English when the closed module has no dialog text', async () => {
    const config = { ...testConfig(), scoreSearch: { openStatus: 0 as const } };
    await renderApp({ path: '/score-search', config, language: 'en' });
    expect(await screen.findByTestId('search-closed')).toHaveTextContent('Not open yet, stay tuned');
  });

  it("offers the organiser's races with results, the latest first, and searches and exports the one picked", async () => {
    const user = userEvent.setup();
    const asked: Record<string, unknown>[] = [];
    server.use(
      http.post(api(API_PATHS.searchScore), async ({ request }) => {
        asked.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ code: 0, msg: 'success', data: [] });
      }),
    );
    await renderApp({ path: '/score-search' });
    const picker = await screen.findByRole('combobox', { name: '赛事' });
    await vi.waitFor(() => expect(picker).toHaveValue('race-1'), { timeout: WAIT_LIMIT_MS });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['2026 运河马拉松', '2025 运河马拉松']);
    await user.type(screen.getByLabelText('参赛号码'), 'A1');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await vi.waitFor(() => expect(asked.at(-1)).toEqual({ raceId: 'race-1', bib: 'A1' }), { timeout: WAIT_LIMIT_MS });
    await user.selectOptions(picker, 'race-0');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await vi.waitFor(() => expect(asked.at(-1)).toEqual({ raceId: 'race-0', bib: 'A1' }), { timeout: WAIT_LIMIT_MS });
  });

  it('searches the bound race, without a picker, when the list of races with results cannot be had', async () => {
    const user = userEvent.setup();
    const asked: Record<string, unknown>[] = [];
    server.use(
      http.get(api(API_PATHS.racesWithResults), () => HttpResponse.json({ code: 500, msg: 'boom', data: null })),
      http.post(api(API_PATHS.searchScore), async ({ request }) => {
        asked.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ code: 0, msg: 'success', data: [] });
      }),
    );
    await renderApp({ path: '/score-search' });
    await user.type(await screen.findByLabelText('参赛号码'), 'A1');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await vi.waitFor(() => expect(asked.at(-1)).toEqual({ raceId: 'test-race-2027', bib: 'A1' }), {
      timeout: WAIT_LIMIT_MS,
    });
    expect(screen.queryByRole('combobox', { name: '赛事' })).toBeNull();
    // The list's failure is the page's own business: no toast.
    expect(screen.queryByText('boom')).toBeNull();
  });

  it('links on to personal bests and historical scores', async () => {
    const user = userEvent.setup();
    const config = { ...testConfig(), scoreSearch: { openStatus: 1 as const, useMultipleSearch: true } };
    await renderApp({ path: '/score-search', language: 'en', config });
    const more = await screen.findByRole('navigation', { name: 'More lookups' });
    expect(within(more).getByRole('link', { name: 'Historical Scores' })).toBeInTheDocument();
    await user.click(within(more).getByRole('link', { name: 'Personal Best' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Personal Best' })).toBeInTheDocument());
  });

  it('keeps the search button where it is when a field message appears or goes on leaving the field', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search' });
    await user.click(await screen.findByRole('button', { name: '查询' }));
    const message = await screen.findByText('请输入参赛号码', { selector: '.ant-form-item-explain-error' });
    // The message sits in the field's bottom margin, kept whether or not a message shows (form.css).
    const field = message.closest('.ant-form-item')!;
    expect(field).toHaveClass('form-field');
    expect(screen.getByLabelText('参赛号码')).toHaveAccessibleDescription('请输入参赛号码');
    // The message goes as soon as the value changes, and does not come back on leaving a valid value.
    await user.type(screen.getByLabelText('参赛号码'), 'A1');
    await waitFor(() =>
      expect(screen.queryByText('请输入参赛号码', { selector: '.ant-form-item-explain-error' })).toBeNull(),
    );
    await user.tab();
    expect(screen.queryByText('请输入参赛号码', { selector: '.ant-form-item-explain-error' })).toBeNull();
    expect(field).toBeInTheDocument();
    expect(screen.getByLabelText('参赛号码')).not.toHaveAttribute('aria-invalid');
  });

  it('shows the empty export message in English in English mode', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search', language: 'en' });
    await user.click(await screen.findByRole('button', { name: 'Export results' }));
    expect(await screen.findByTestId('export-message')).toHaveTextContent('No data found');
    expect(screen.queryByText('没有查询到数据哦')).toBeNull();
  });

  it('shows the message of an empty export and 无数据 when the export fails', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search' });
    await user.click(await screen.findByRole('button', { name: '导出成绩' }));
    expect(await screen.findByTestId('export-message')).toHaveTextContent('没有查询到数据哦');
    server.use(http.post(api(API_PATHS.exportScores), () => new HttpResponse('oops', { status: 500 })));
    await user.click(screen.getByRole('button', { name: '导出成绩' }));
    await vi.waitFor(() => expect(screen.getByTestId('export-message')).toHaveTextContent('无数据'), {
      timeout: WAIT_LIMIT_MS,
    });
  });

  it('downloads the .xls when the export answers with a file', async () => {
    const user = userEvent.setup();
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    server.use(
      http.post(api(API_PATHS.exportScores), () =>
        HttpResponse.arrayBuffer(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]).buffer, {
          headers: { 'Content-Type': 'application/vnd.ms-excel' },
        }),
      ),
    );
    await renderApp({ path: '/score-search' });
    await user.click(await screen.findByRole('button', { name: '导出成绩' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled(), { timeout: WAIT_LIMIT_MS });
    expect(created).toHaveBeenCalled();
    expect(screen.queryByTestId('export-message')).toBeNull();
    created.mockRestore();
    revoke.mockRestore();
    click.mockRestore();
  });
});
