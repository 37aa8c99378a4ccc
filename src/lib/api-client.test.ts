import { AxiosError } from 'axios';
import { http, HttpResponse } from 'msw';
import { screen } from '@testing-library/react';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { initI18n } from '@/app/i18n';
import { useAppStore } from '@/stores/app-store';
import { ApiError, apiRequest, fetchBinary, fetchDocument } from './api-client';

const URL_ = '/test/endpoint';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

async function toast(text: string) {
  return screen.findByText(text);
}

describe('api client', () => {
  beforeEach(async () => {
    await initI18n('zh');
    useAppStore.setState({ token: null, reloginConfirmOpen: false });
  });

  it('sends terminalType 3 and osId 1002, and the token header only when a token exists', async () => {
    const seen: Headers[] = [];
    server.use(
      http.get(
        api(URL_),
        ({ request }) => (seen.push(request.headers), HttpResponse.json({ code: 0, msg: 'ok', data: 1 })),
      ),
    );
    await apiRequest({ url: URL_ });
    useAppStore.setState({ token: 'tok-1' });
    await apiRequest({ url: URL_ });
    expect(seen[0].get('terminalType')).toBe('3');
    expect(seen[0].get('osId')).toBe('1002');
    expect(seen[0].has('token')).toBe(false);
    expect(seen[1].get('token')).toBe('tok-1');
  });

  it('resolves with the whole body when code is 0', async () => {
    server.use(http.get(api(URL_), () => HttpResponse.json({ code: 0, msg: 'ok', data: { a: 1 } })));
    await expect(apiRequest({ url: URL_ })).resolves.toEqual({ code: 0, msg: 'ok', data: { a: 1 } });
  });

  it('rejects a body whose code is not 0 with its msg, shown as an error toast', async () => {
    server.use(http.get(api(URL_), () => HttpResponse.json({ code: 500100, msg: '验证码错误', data: null })));
    const error = await failure(apiRequest({ url: URL_ }));
    expect(error.kind).toBe('business');
    expect(error.message).toBe('验证码错误');
    expect(error.code).toBe(500100);
    expect(await toast('验证码错误')).toBeInTheDocument();
  });

  it("uses 'Error' when a rejected body has no msg", async () => {
    server.use(http.get(api(URL_), () => HttpResponse.json({ code: 1 })));
    const error = await failure(apiRequest({ url: URL_, silent: true }));
    expect(error.message).toBe('Error');
  });

  it('turns an empty body into 出错了！ (and Something went wrong! in English)', async () => {
    server.use(http.get(api(URL_), () => new HttpResponse('', { status: 200 })));
    expect((await failure(apiRequest({ url: URL_ }))).message).toBe('出错了！');
    expect(await toast('出错了！')).toBeInTheDocument();
    await initI18n('en');
    expect((await failure(apiRequest({ url: URL_, silent: true }))).message).toBe('Something went wrong!');
  });

  it('shows the red network toast 网络连接失败，请刷新 when the network fails', async () => {
    server.use(http.get(api(URL_), () => HttpResponse.error()));
    const error = await failure(apiRequest({ url: URL_ }));
    expect(error.kind).toBe('network');
    const node = await toast('网络连接失败，请刷新');
    expect(node.closest('.ant-message-notice-content, .ant-message-notice')).toBeTruthy();
    expect(node.closest('.toast-error')).toBeTruthy();
  });

  it("shows a 5xx as the service being unavailable in the visitor's language, never axios' English text", async () => {
    server.use(http.get(api(URL_), () => new HttpResponse('boom', { status: 502 })));
    const error = await failure(apiRequest({ url: URL_ }));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(502);
    expect(await toast('服务暂时不可用，请稍后重试')).toBeInTheDocument();
    expect(screen.queryByText(/Request failed with status code/)).not.toBeInTheDocument();

    await initI18n('en');
    server.use(
      http.get(api(URL_), () => HttpResponse.json({ code: 500, msg: 'Internal Server Error' }, { status: 500 })),
    );
    const english = await failure(apiRequest({ url: URL_ }));
    expect(english).toMatchObject({ kind: 'http', status: 500 });
    expect(english.message).toBe('The service is temporarily unavailable, please try again later');
    expect(await toast('The service is temporarily unavailable, please try again later')).toBeInTheDocument();
  });

  it('shows another HTTP error without a message as a failed request with its status', async () => {
    server.use(http.get(api(URL_), () => new HttpResponse('nope', { status: 404 })));
    const error = await failure(apiRequest({ url: URL_, silent: true }));
    expect(error).toMatchObject({ kind: 'http', status: 404, message: '请求失败（404），请稍后重试' });
  });

  it("keeps a page's own answers quiet but still toasts transport failures when silent is 'answers'", async () => {
    server.use(http.get(api(URL_), () => HttpResponse.json({ code: 404, msg: '页面自己显示' })));
    await failure(apiRequest({ url: URL_, silent: 'answers' }));
    server.use(http.get(api(URL_), () => HttpResponse.error()));
    const error = await failure(apiRequest({ url: URL_, silent: 'answers' }));
    expect(error.kind).toBe('network');
    expect(await toast('网络连接失败，请刷新')).toBeInTheDocument();
    expect(screen.queryByText('页面自己显示')).not.toBeInTheDocument();
  });

  it('keeps the msg of an HTTP error whose body is an envelope', async () => {
    server.use(http.get(api(URL_), () => HttpResponse.json({ code: 429, msg: '请求过于频繁' }, { status: 429 })));
    const error = await failure(apiRequest({ url: URL_, silent: true }));
    expect(error).toMatchObject({ kind: 'business', message: '请求过于频繁', code: 429, status: 429 });
  });

  it("reports a time-out as a transport error in the visitor's language", async () => {
    // msw cannot stall a request past axios' timer in jsdom, so an adapter raises axios' own time-out error.
    const error = await failure(
      apiRequest({
        url: URL_,
        timeout: 20,
        adapter: (config) =>
          Promise.reject(new AxiosError('timeout of 20ms exceeded', AxiosError.ECONNABORTED, config)),
      }),
    );
    expect(error.kind).toBe('timeout');
    expect(await toast('请求超时，请稍后重试')).toBeInTheDocument();
  });

  it('does not toast when the call is silent', async () => {
    server.use(http.get(api(URL_), () => HttpResponse.json({ code: 7, msg: '静默失败' })));
    await failure(apiRequest({ url: URL_, silent: true }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('静默失败')).not.toBeInTheDocument();
  });

  it('returns binary answers as they are', async () => {
    server.use(
      http.get(
        api(URL_),
        () => new HttpResponse(new Uint8Array([1, 2, 3]), { headers: { 'Content-Type': 'application/vnd.ms-excel' } }),
      ),
    );
    const response = await fetchBinary({ url: URL_ });
    expect(response.status).toBe(200);
    expect(response.data).toBeDefined();
  });

  it('returns plain documents (no envelope) as they are', async () => {
    server.use(http.get(api(URL_), () => HttpResponse.json({ version: '1', websiteTitle: 'x' })));
    await expect(fetchDocument({ url: URL_ })).resolves.toEqual({ version: '1', websiteTitle: 'x' });
  });

  it('opens the re-login confirm when a logged-in call answers that the login expired', async () => {
    useAppStore.setState({ token: 'old' });
    server.use(
      http.get(api(URL_), () => HttpResponse.json({ code: 401, msg: 'Your login has expired, please log in again' })),
    );
    await failure(apiRequest({ url: URL_, silent: true }));
    expect(useAppStore.getState().reloginConfirmOpen).toBe(true);
  });
});
