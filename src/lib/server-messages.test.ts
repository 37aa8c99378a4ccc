import { http, HttpResponse } from 'msw';
import i18n from 'i18next';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { initI18n } from '@/app/i18n';
import { ApiError, apiRequest } from './api-client';
import { localizeServerMessage, SERVER_MESSAGES } from './server-messages';

describe('server message dictionary', () => {
  it('has every message in both languages; the English text is the message itself, or its translation', async () => {
    await initI18n('en');
    const chinese = /[\u4e00-\u9fff]/;
    for (const [msg, key] of Object.entries(SERVER_MESSAGES)) {
      const en = i18n.t(`errors.server.${key}`);
      // An English message is shown as sent; a Chinese one of the contract (没有查询到数据哦) is translated.
      if (chinese.test(msg)) {
        expect(en, msg).not.toBe(`errors.server.${key}`);
        expect(en, msg).not.toMatch(chinese);
      } else expect(en).toBe(msg);
    }
    await initI18n('zh');
    for (const [msg, key] of Object.entries(SERVER_MESSAGES)) {
      const zh = i18n.t(`errors.server.${key}`);
      expect(zh, msg).not.toBe(`errors.server.${key}`);
      expect(zh, msg).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('leaves a message it does not know as the server sent it', async () => {
    await initI18n('zh');
    expect(localizeServerMessage('Something only this organiser says')).toBe('Something only this organiser says');
    expect(localizeServerMessage('toString')).toBe('toString');
  });

  it.each([
    ['zh', '未查询到您的成绩信息...'],
    ['en', 'Your score information was not found...'],
  ] as const)("turns an error answer's dictionary message into the visitor's language (%s)", async (lang, shown) => {
    await initI18n(lang);
    server.use(
      http.post(api('/test/dictionary'), () =>
        HttpResponse.json({ code: 404, msg: 'Your score information was not found...', data: null }),
      ),
      http.post(api('/test/dictionary-http'), () =>
        HttpResponse.json({ code: 429, msg: 'Too many requests, please try again later', data: null }, { status: 429 }),
      ),
    );
    const business = await apiRequest({ method: 'POST', url: '/test/dictionary', silent: true }).catch(
      (e: unknown) => e,
    );
    expect(business).toBeInstanceOf(ApiError);
    expect((business as ApiError).message).toBe(shown);
    const limited = await apiRequest({ method: 'POST', url: '/test/dictionary-http', silent: true }).catch(
      (e: unknown) => e,
    );
    expect((limited as ApiError).message).toBe(
      lang === 'zh' ? '请求过于频繁，请稍后再试' : 'Too many requests, please try again later',
    );
  });
});
