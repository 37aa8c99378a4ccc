import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import {
  APP_PASSPORT,
  registrationStatusAnswer,
  THIRD_PARTY_PASSPORT,
  THIRD_PARTY_ZH_ONLY_PASSPORT,
  VALID_ID,
} from '@/testing/fixtures/search';
import { api } from '@/testing/mocks/base-url';
import { server } from '@/testing/mocks/server';

async function search(
  user: ReturnType<typeof userEvent.setup>,
  name: string,
  type: string | null,
  number: string,
  labels = { name: '姓名', type: '证件类型', number: '证件号码', submit: '查询' },
) {
  const nameInput = await screen.findByLabelText(labels.name);
  if (name) await user.type(nameInput, name);
  if (type) await user.selectOptions(screen.getByLabelText(labels.type), type);
  await user.type(screen.getByLabelText(labels.number), number);
  await user.click(screen.getByRole('button', { name: labels.submit }));
}

const EN = { name: 'Name', type: 'Certificate type', number: 'Certificate number', submit: 'Search' };

describe('registration search page', () => {
  it('shows the status, the participant with all labels and the order labels of a website registration', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/registration-search' });
    await waitFor(() => expect(screen.getByRole('heading', { name: '报名查询' })).toBeInTheDocument());
    await user.click(screen.getByRole('radio', { name: '官网报名信息' }));
    await search(user, '张三', null, VALID_ID);
    const result = await screen.findByTestId('registration-result');
    expect(within(result).getByTestId('registration-status')).toHaveTextContent('已中签（报名成功）');
    const participant = within(result).getByTestId('participant');
    for (const label of [
      '姓名',
      '证件类型',
      '证件号码',
      '手机号码',
      '紧急联系人',
      '紧急联系人电话',
      '出生日期',
      '年龄',
      '是否成年',
    ]) {
      expect(within(participant).getByText(label)).toBeInTheDocument();
    }
    expect(within(participant).getByText('身份证（二代）')).toBeInTheDocument();
    expect(within(participant).getByText('138****0000')).toBeInTheDocument();
    expect(within(participant).getByText('成年')).toBeInTheDocument();
    const order = within(result).getByTestId('order');
    expect(
      within(order)
        .getAllByRole('term')
        .map((d) => d.textContent),
    ).toEqual(['订单号', '子订单号', '创建时间', '流水号', '支付时间', '实付金额', '订单金额', '优惠券', '优惠金额']);
    expect(within(order).getByText('OD20260901001')).toBeInTheDocument();
    expect(within(result).getByTestId('registration-channel')).toHaveTextContent('官网');
  });

  it.each([
    [0, '已提交，等待抽签', 'Submitted, awaiting the draw'],
    [1, '已中签（报名成功）', 'Won the lottery (registered successfully)'],
    [2, '未中签', 'Not won'],
    [3, '已取消', 'Cancelled'],
    [4, '退款审核中', 'Refund under review'],
    [5, '已退款', 'Refunded'],
  ])('labels status %i in both languages', async (status, zh, en) => {
    const user = userEvent.setup();
    const view = await renderApp({ path: '/registration-search' });
    await search(user, '张三', '2', `P1234${status}`);
    expect(await screen.findByTestId('registration-status')).toHaveTextContent(zh);
    view.unmount();
    await renderApp({ path: '/registration-search', language: 'en' });
    await search(user, '张三', '2', `P1234${status}`, {
      name: 'Name',
      type: 'Certificate type',
      number: 'Certificate number',
      submit: 'Search',
    });
    expect(await screen.findByTestId('registration-status')).toHaveTextContent(en);
  });

  it.each([
    [0, '已提交，待支付', 'Submitted, awaiting payment'],
    [1, '报名成功', 'Registered successfully'],
  ])(
    'labels status %i of a first-come item as a place taken, not a ballot, in both languages',
    async (status, zh, en) => {
      server.use(
        http.post(api(API_PATHS.searchRegistration), () =>
          HttpResponse.json({
            code: 0,
            msg: 'success',
            data: { ...registrationStatusAnswer(status, 3), model: 'firstCome' },
          }),
        ),
      );
      const user = userEvent.setup();
      const view = await renderApp({ path: '/registration-search' });
      await search(user, '张三', '2', `P1234${status}`);
      expect((await screen.findByTestId('registration-status')).textContent).toBe(zh);
      view.unmount();
      await renderApp({ path: '/registration-search', language: 'en' });
      await search(user, '张三', '2', `P1234${status}`, {
        name: 'Name',
        type: 'Certificate type',
        number: 'Certificate number',
        submit: 'Search',
      });
      expect((await screen.findByTestId('registration-status')).textContent).toBe(en);
    },
  );

  it('links the public ballot page from an entry by draw, and not from a first-come one', async () => {
    const answer = (model: string) => () =>
      HttpResponse.json({ code: 0, msg: 'success', data: { ...registrationStatusAnswer(0, 3), model } });
    server.use(http.post(api(API_PATHS.searchRegistration), answer('ballot')));
    const user = userEvent.setup();
    const { router, unmount } = await renderApp({ path: '/registration-search', language: 'en' });
    const english = { name: 'Name', type: 'Certificate type', number: 'Certificate number', submit: 'Search' };
    await search(user, '张三', '2', 'P12340', english);
    const link = await screen.findByTestId('registration-ballot-link');
    expect(link).toHaveTextContent('See the ballot');
    await user.click(link);
    expect(router.state.location.pathname).toBe('/ballot');
    unmount();
    server.use(http.post(api(API_PATHS.searchRegistration), answer('firstCome')));
    await renderApp({ path: '/registration-search' });
    await search(user, '张三', '2', 'P12340');
    expect(await screen.findByTestId('registration-status')).toHaveTextContent('已提交，待支付');
    expect(screen.queryByTestId('registration-ballot-link')).toBeNull();
  });

  it('shows English order labels and the 4 certificate types in English', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/registration-search', language: 'en' });
    const select = await screen.findByLabelText('Certificate type');
    await user.click(screen.getByRole('radio', { name: 'Website registration' }));
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'ID card (second generation)',
      'Passport',
      'Hong Kong/Macau mainland travel permit',
      'Taiwan mainland travel permit',
    ]);
    await search(user, '张三', null, VALID_ID, {
      name: 'Name',
      type: 'Certificate type',
      number: 'Certificate number',
      submit: 'Search',
    });
    const order = await screen.findByTestId('order');
    expect(
      within(order)
        .getAllByRole('term')
        .map((d) => d.textContent),
    ).toEqual([
      'Order number',
      'Sub-order number',
      'Create time',
      'Serial number',
      'Payment time',
      'Amount paid',
      'Order amount',
      'Coupon',
      'Discount',
    ]);
  });

  it("shows the dictionary message in the visitor's language when no registration exists", async () => {
    const user = userEvent.setup();
    const view = await renderApp({ path: '/registration-search', language: 'en' });
    await search(user, '王五', null, VALID_ID, EN);
    expect(await screen.findByTestId('search-failure')).toHaveTextContent('Registration information does not exist');
    view.unmount();
    await renderApp({ path: '/registration-search' });
    await search(user, '王五', null, VALID_ID);
    expect(await screen.findByTestId('search-failure')).toHaveTextContent('报名信息不存在');
  });

  it('offers the four query types as a keyboard-usable radio group, the status first, in both languages', async () => {
    const user = userEvent.setup();
    const view = await renderApp({ path: '/registration-search' });
    const group = await screen.findByRole('group', { name: '查询类型' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual([
      '报名状态',
      '官网报名信息',
      'APP报名信息',
      '第三方报名信息',
    ]);
    expect(radios[0]).toBeChecked();
    radios[0]!.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: '官网报名信息' })).toBeChecked();
    expect(screen.getByRole('radio', { name: '官网报名信息' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'APP报名信息' })).toBeChecked();
    view.unmount();
    await renderApp({ path: '/registration-search', language: 'en' });
    const en = await screen.findByRole('group', { name: 'Query type' });
    expect(
      within(en)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['Registration status', 'Website registration', 'App registration', 'Third-party registration']);
  });

  it('answers the status with the channel only, then shows the details of that channel on request', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/registration-search' });
    await search(user, '张三', null, VALID_ID);
    const result = await screen.findByTestId('registration-result');
    expect(within(result).getByTestId('registration-status')).toHaveTextContent('已中签（报名成功）');
    expect(within(result).getByTestId('registration-channel')).toHaveTextContent('官网');
    expect(within(result).getByText('报名渠道')).toBeInTheDocument();
    expect(within(result).getByText('张*')).toBeInTheDocument();
    expect(within(result).queryByTestId('participant')).toBeNull();
    expect(within(result).queryByTestId('order')).toBeNull();
    await user.click(within(result).getByRole('button', { name: '查看报名信息' }));
    expect(screen.getByRole('radio', { name: '官网报名信息' })).toBeChecked();
    const participant = await screen.findByTestId('participant');
    expect(within(participant).getByText('1101**********002X')).toBeInTheDocument();
    expect(screen.getByTestId('order')).toBeInTheDocument();
    expect(screen.getByTestId('registration-channel')).toHaveTextContent('官网');
  });

  it('names the third-party platform in English (falling back to Chinese) and opens its third-party details', async () => {
    const user = userEvent.setup();
    const view = await renderApp({ path: '/registration-search', language: 'en' });
    await search(user, '张三', '2', THIRD_PARTY_PASSPORT, EN);
    const result = await screen.findByTestId('registration-result');
    expect(within(result).getByText('Registered via')).toBeInTheDocument();
    expect(within(result).getByTestId('registration-channel')).toHaveTextContent(
      'Third party (Qingchuan Sports Travel)',
    );
    expect(within(result).getByTestId('registration-status')).toHaveTextContent(
      'Won the lottery (registered successfully)',
    );
    await user.click(within(result).getByRole('button', { name: 'View registration details' }));
    expect(screen.getByRole('radio', { name: 'Third-party registration' })).toBeChecked();
    await waitFor(() => expect(screen.getByTestId('participant')).toBeInTheDocument());
    expect(screen.getByTestId('registration-channel')).toHaveTextContent('Third party (Qingchuan Sports Travel)');
    view.unmount();

    await renderApp({ path: '/registration-search', language: 'en' });
    await search(user, '张三', '2', THIRD_PARTY_ZH_ONLY_PASSPORT, EN);
    expect(await screen.findByTestId('registration-channel')).toHaveTextContent('Third party (跑者之家)');
  });

  it('shows the third-party platform in Chinese', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/registration-search' });
    await search(user, '张三', '2', THIRD_PARTY_PASSPORT);
    expect(await screen.findByTestId('registration-channel')).toHaveTextContent('第三方（青川体育旅行）');
  });

  it('answers the app registration info, and the dictionary message for the website info of an app registration', async () => {
    const user = userEvent.setup();
    const view = await renderApp({ path: '/registration-search' });
    await user.click(await screen.findByRole('radio', { name: 'APP报名信息' }));
    await search(user, '张三', '2', APP_PASSPORT);
    const result = await screen.findByTestId('registration-result');
    expect(within(result).getByTestId('registration-status')).toHaveTextContent('已提交，等待抽签');
    expect(within(result).getByTestId('registration-channel')).toHaveTextContent('APP');
    expect(within(result).getByTestId('participant')).toBeInTheDocument();

    // Another query type clears the answer; the website info of an app registration does not exist.
    await user.click(screen.getByRole('radio', { name: '官网报名信息' }));
    expect(screen.queryByTestId('registration-result')).toBeNull();
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByTestId('search-failure')).toHaveTextContent('报名信息不存在');
    expect(screen.queryByTestId('registration-result')).toBeNull();
    view.unmount();

    await renderApp({ path: '/registration-search', language: 'en' });
    await user.click(await screen.findByRole('radio', { name: 'Third-party registration' }));
    await search(user, '张三', '2', APP_PASSPORT, EN);
    expect(await screen.findByTestId('search-failure')).toHaveTextContent('Registration information does not exist');
  });

  it('checks passports as 5-20 letters and digits, with English messages', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/registration-search', language: 'en' });
    await search(user, '', '2', 'E1', {
      name: 'Name',
      type: 'Certificate type',
      number: 'Certificate number',
      submit: 'Search',
    });
    await waitFor(() => expect(screen.getByText('Please enter your name')).toBeInTheDocument());
    expect(screen.getByText('The passport number must be 5-20 letters or digits')).toBeInTheDocument();
    expect(screen.queryByTestId('registration-result')).toBeNull();
  });

  it('shows the English dialog text when registration search is closed', async () => {
    const config = {
      ...testConfig(),
      registrationSearch: {
        openStatus: 0 as const,
        dialogText: '报名查询暂未开放',
        dialogTextEn: 'Registration search opens on 1 Sept',
      },
    };
    await renderApp({ path: '/registration-search', config, language: 'en' });
    expect(await screen.findByTestId('search-closed')).toHaveTextContent('Registration search opens on 1 Sept');
    expect(screen.queryByLabelText('Name')).toBeNull();
  });
});
