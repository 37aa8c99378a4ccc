import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { VALID_ID } from '@/testing/fixtures/search';

async function search(user: ReturnType<typeof userEvent.setup>, name: string, type: string | null, number: string, labels = { name: '姓名', type: '证件类型', number: '证件号码', submit: '查询' }) {
  const nameInput = await screen.findByLabelText(labels.name);
  if (name) await user.type(nameInput, name);
  if (type) await user.selectOptions(screen.getByLabelText(labels.type), type);
  await user.type(screen.getByLabelText(labels.number), number);
  await user.click(screen.getByRole('button', { name: labels.submit }));
}

describe('registration search page', () => {
  it('shows the status, the participant with all labels and the order labels', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/registration-search' });
    expect(await screen.findByRole('heading', { name: '报名查询' })).toBeInTheDocument();
    await search(user, '张三', null, VALID_ID);
    const result = await screen.findByTestId('registration-result');
    expect(within(result).getByTestId('registration-status')).toHaveTextContent('已中签（报名成功）');
    const participant = within(result).getByTestId('participant');
    for (const label of ['姓名', '证件类型', '证件号码', '手机号码', '紧急联系人', '紧急联系人电话', '出生日期', '年龄', '是否成年']) {
      expect(within(participant).getByText(label)).toBeInTheDocument();
    }
    expect(within(participant).getByText('身份证（二代）')).toBeInTheDocument();
    expect(within(participant).getByText('138****0000')).toBeInTheDocument();
    expect(within(participant).getByText('成年')).toBeInTheDocument();
    const order = within(result).getByTestId('order');
    expect(within(order).getAllByRole('term').map((d) => d.textContent)).toEqual([
      '订单号', '子订单号', '创建时间', '流水号', '支付时间', '实付金额', '订单金额', '优惠券', '优惠金额',
    ]);
    expect(within(order).getByText('OD20260901001')).toBeInTheDocument();
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
    await search(user, '张三', '2', `P1234${status}`, { name: 'Name', type: 'Certificate type', number: 'Certificate number', submit: 'Search' });
    expect(await screen.findByTestId('registration-status')).toHaveTextContent(en);
  });

  it('shows English order labels and the 4 certificate types in English', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/registration-search', language: 'en' });
    const select = await screen.findByLabelText('Certificate type');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'ID card (second generation)',
      'Passport',
      'Hong Kong/Macau mainland travel permit',
      'Taiwan mainland travel permit',
    ]);
    await search(user, '张三', null, VALID_ID, { name: 'Name', type: 'Certificate type', number: 'Certificate number', submit: 'Search' });
    const order = await screen.findByTestId('order');
    expect(within(order).getAllByRole('term').map((d) => d.textContent)).toEqual([
      'Order number', 'Sub-order number', 'Create time', 'Serial number', 'Payment time', 'Amount paid', 'Order amount', 'Coupon', 'Discount',
    ]);
  });

  it("shows the server's message when no registration exists", async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/registration-search', language: 'en' });
    await search(user, '王五', null, VALID_ID, { name: 'Name', type: 'Certificate type', number: 'Certificate number', submit: 'Search' });
    expect(await screen.findByTestId('search-failure')).toHaveTextContent('Registration information does not exist');
  });

  it('checks passports as 5-20 letters and digits, with English messages', async () => {
    const user = userEvent.setup();
    await renderApp({ path: '/registration-search', language: 'en' });
    await search(user, '', '2', 'E1', { name: 'Name', type: 'Certificate type', number: 'Certificate number', submit: 'Search' });
    expect(screen.getByText('Please enter your name')).toBeInTheDocument();
    expect(screen.getByText('The certificate number must be 5-20 letters or digits')).toBeInTheDocument();
    expect(screen.queryByTestId('registration-result')).toBeNull();
  });

  it('shows the English dialog text when registration search is closed', async () => {
    const config = { ...testConfig(), registrationSearch: { openStatus: 0 as const, dialogText: '报名查询暂未开放', dialogTextEn: 'Registration search opens on 1 Sept' } };
    await renderApp({ path: '/registration-search', config, language: 'en' });
    expect(await screen.findByTestId('search-closed')).toHaveTextContent('Registration search opens on 1 Sept');
    expect(screen.queryByLabelText('Name')).toBeNull();
  });
});
