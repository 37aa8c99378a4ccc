import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { VALID_ID } from '@/testing/fixtures/search';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { API_PATHS } from '@/config/api-paths';

describe('score search page', () => {
  it('finds a result by bib and shows item, times, pace, ranks and splits', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search' });
    expect(await screen.findByRole('heading', { name: '成绩查询' })).toBeInTheDocument();
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
    ).toEqual(['计时点', '距离', '分段用时', '配速']);
    expect(
      within(rows[1])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['5 公里', '0:26:01', '5:12/km']);
    expect(within(card).getByRole('button', { name: '下载电子证书' })).toBeInTheDocument();
  });

  it('validates the bib and the identity fields with clear messages before searching', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search' });
    await user.click(await screen.findByRole('button', { name: '查询' }));
    expect(screen.getByText('请输入参赛号码')).toBeInTheDocument();
    await user.type(screen.getByLabelText('参赛号码'), '12-3');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(screen.getByText('参赛号码应为字母或数字')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: '按姓名和证件' }));
    await user.type(screen.getByLabelText('姓名'), '张 三');
    await user.type(screen.getByLabelText('证件号码'), '110105194912310021');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(screen.getByText('姓名不能包含空格或双引号')).toBeInTheDocument();
    expect(screen.getByText('请输入正确的18位身份证号码')).toBeInTheDocument();
    expect(screen.getByLabelText('证件号码')).toHaveAttribute('aria-invalid', 'true');
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

  it('shows the message of an empty export and 无数据 when the export fails', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/score-search' });
    await user.click(await screen.findByRole('button', { name: '导出成绩' }));
    expect(await screen.findByTestId('export-message')).toHaveTextContent('没有查询到数据哦');
    server.use(http.post(api(API_PATHS.exportScores), () => new HttpResponse('oops', { status: 500 })));
    await user.click(screen.getByRole('button', { name: '导出成绩' }));
    await vi.waitFor(() => expect(screen.getByTestId('export-message')).toHaveTextContent('无数据'));
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
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    expect(created).toHaveBeenCalled();
    expect(screen.queryByTestId('export-message')).toBeNull();
    created.mockRestore();
    revoke.mockRestore();
    click.mockRestore();
  });
});
