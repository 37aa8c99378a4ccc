import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import type { MyMessage } from '#contract/runner-messages';
import { saveUserData } from '@/lib/user-data';
import { api } from '@/testing/mocks/base-url';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const MESSAGES: MyMessage[] = [
  {
    id: 12,
    channel: 'email',
    subject: '领物提醒 Pick-up reminder',
    body: '张*明：请于 4 月 16 日领取参赛物资。',
    sentAt: Date.UTC(2027, 3, 10, 1, 0),
  },
  {
    id: 7,
    channel: 'sms',
    subject: '支付成功',
    body: '订单 O123 已支付 ¥80.00。',
    sentAt: Date.UTC(2027, 0, 5, 6, 30),
  },
];

const T = {
  zh: { title: '我的消息', menu: '我的消息', email: '邮件', sms: '短信', empty: '还没有发给您的消息。' },
  en: {
    title: 'My messages',
    menu: 'My messages',
    email: 'E-mail',
    sms: 'SMS',
    empty: 'No message has been sent to you yet.',
  },
} as const;

describe.each(['zh', 'en'] as const)('my messages in %s', (language) => {
  const t = T[language];
  let asked: string[];

  beforeEach(() => {
    asked = [];
    server.use(
      http.get(api(API_PATHS.myMessages), ({ request }) => {
        const url = new URL(request.url);
        asked.push(`${request.headers.get('token')}:${url.searchParams.get('lang')}`);
        return HttpResponse.json({ code: 0, msg: 'success', data: MESSAGES });
      }),
    );
  });

  it('lists the messages sent to the runner, newest first, with time and channel, in the menu', async () => {
    saveUserData({ token: VALID_TOKEN });
    await renderApp({ path: '/my/messages', language, token: VALID_TOKEN });
    const page = await screen.findByTestId('messages-page');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(t.title);
    const list = await within(page).findByTestId('messages-list');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('领物提醒 Pick-up reminder');
    expect(items[0]).toHaveTextContent('2027-04-10 09:00');
    expect(items[0]).toHaveTextContent(t.email);
    expect(items[1]).toHaveTextContent('订单 O123 已支付 ¥80.00。');
    expect(items[1]).toHaveTextContent(t.sms);
    expect(screen.getByTestId('centre-menu-messages')).toHaveTextContent(t.menu);
    // The runner's own token, and the language the centre is read in.
    expect(asked).toEqual([`${VALID_TOKEN}:${language}`]);
  });

  it('says so when no message was sent yet', async () => {
    server.use(http.get(api(API_PATHS.myMessages), () => HttpResponse.json({ code: 0, msg: 'success', data: [] })));
    saveUserData({ token: VALID_TOKEN });
    await renderApp({ path: '/my/messages', language, token: VALID_TOKEN });
    expect(await screen.findByTestId('messages-empty')).toHaveTextContent(t.empty);
  });
});
