import { http, HttpResponse } from 'msw';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { initI18n } from '@/app/i18n';
import { ApiError, apiRequest } from './api-client';
import { localizeServerMessage, messageOfText } from './server-messages';

describe('server messages', () => {
  it('shows a message by its code and parameters in the visitor language', async () => {
    await initI18n('zh');
    expect(localizeServerMessage({ msg: 'whatever', msgCode: 'codeResendWait', msgParams: { seconds: 42 } })).toBe(
      '请等待 42 秒后再获取验证码',
    );
    await initI18n('en');
    expect(localizeServerMessage({ msg: 'x', msgCode: 'fileTooBig', msgParams: { size: 10, unit: 'MB' } })).toBe(
      'Please upload a file smaller than 10 MB',
    );
  });

  it('reads a contract text sent without a code, parameters included (an organiser API sends msg only)', async () => {
    expect(messageOfText('Please upload a file smaller than 10 MB')).toEqual({
      code: 'fileTooBig',
      params: { size: '10', unit: 'MB' },
    });
    await initI18n('zh');
    expect(localizeServerMessage({ msg: 'Please upload a file smaller than 10 MB' })).toBe('请上传小于 10 MB 的文件');
    expect(localizeServerMessage({ msg: '没有查询到数据哦' })).toBe('没有查询到数据哦');
    await initI18n('en');
    expect(localizeServerMessage({ msg: '没有查询到数据哦' })).toBe('No data found');
  });

  it('leaves a message it does not know as the server sent it, and an unknown code to the msg', async () => {
    await initI18n('zh');
    expect(localizeServerMessage({ msg: 'Something only this organiser says' })).toBe(
      'Something only this organiser says',
    );
    expect(localizeServerMessage({ msg: 'toString' })).toBe('toString');
    expect(localizeServerMessage({ msg: 'Race not found', msgCode: 'toString' as never })).toBe('未找到该赛事');
    expect(localizeServerMessage({ msg: '  ' })).toBeNull();
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
      http.post(api('/test/coded-http'), () =>
        HttpResponse.json(
          {
            code: 429,
            msg: 'Too many requests, please try again in 30 seconds',
            data: null,
            msgCode: 'tooManyRequestsWait',
            msgParams: { seconds: 30 },
          },
          { status: 429 },
        ),
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
    const coded = await apiRequest({ method: 'POST', url: '/test/coded-http', silent: true }).catch((e: unknown) => e);
    expect((coded as ApiError).message).toBe(
      lang === 'zh' ? '请求过于频繁，请 30 秒后再试' : 'Too many requests, please try again in 30 seconds',
    );
  });
});
