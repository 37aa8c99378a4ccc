import { http, HttpResponse } from 'msw';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { API_PATHS } from '#contract/api';
import { readLanguageCookie, switchLanguage } from '@/lib/language';
import { localStore } from '@/lib/storage';
import { clearUserData, saveUserData } from '@/lib/user-data';
import { useAppStore } from '@/stores/app-store';
import { runBoot } from './run-boot';

/** Counts the token checks the start-up sends (the default handler answers them). */
function countTokenChecks(): { count: number } {
  const seen = { count: 0 };
  server.events.on('request:start', ({ request }) => {
    if (request.url === api(API_PATHS.commonInfo)) seen.count += 1;
  });
  return seen;
}

beforeEach(() => {
  useAppStore.setState({ token: null, language: 'zh' });
});
afterEach(() => {
  server.events.removeAllListeners();
});

describe('start-up token check', () => {
  it('checks a token kept only inside userData and logs out when the server rejects it', async () => {
    const checks = countTokenChecks();
    localStorage.setItem('userData', JSON.stringify({ token: 'expired-token' }));
    await expect(runBoot('localhost')).resolves.toEqual({ status: 'ready' });
    expect(checks.count).toBe(1);
    expect(localStorage.getItem('userData')).toBeNull();
    expect(useAppStore.getState().token).toBeNull();
  });

  it('keeps a valid token kept only inside userData', async () => {
    localStorage.setItem('userData', JSON.stringify({ token: VALID_TOKEN }));
    await runBoot('localhost');
    expect(useAppStore.getState().token).toBe(VALID_TOKEN);
  });

  it.each([
    ['20 KB long', 'a'.repeat(20_000)],
    ['with characters a token never has', 'tok en<script>'],
    ['with non-Latin characters', '令牌'],
  ])('drops a stored token %s at once, without asking the server', async (_, token) => {
    const checks = countTokenChecks();
    localStorage.setItem('userData', JSON.stringify({ token }));
    localStorage.setItem('token', token);
    const started = Date.now();
    await runBoot('localhost');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(checks.count).toBe(0);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('userData')).toBeNull();
    expect(useAppStore.getState().token).toBeNull();
  });

  it('treats a token the server cannot read (431) as invalid instead of retrying', async () => {
    let calls = 0;
    server.use(http.post(api(API_PATHS.commonInfo), () => (calls++, new HttpResponse(null, { status: 431 }))));
    localStorage.setItem('userData', JSON.stringify({ token: 'long-but-plausible' }));
    localStorage.setItem('token', 'long-but-plausible');
    await runBoot('localhost');
    expect(calls).toBe(1);
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('blocked site data', () => {
  const blocked = () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  };

  it('starts, logs in and logs out for the session when localStorage and sessionStorage throw', async () => {
    const storage = vi.spyOn(window, 'localStorage', 'get').mockImplementation(blocked);
    const session = vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(blocked);
    try {
      await expect(runBoot('localhost')).resolves.toEqual({ status: 'ready' });
      saveUserData({ token: VALID_TOKEN });
      expect(useAppStore.getState().token).toBe(VALID_TOKEN);

      // A second start in the same session still finds the login in memory, and checks it.
      useAppStore.setState({ token: null });
      await runBoot('localhost');
      expect(useAppStore.getState().token).toBe(VALID_TOKEN);

      clearUserData();
      expect(localStore.getItem('userData')).toBeNull();
      expect(useAppStore.getState().token).toBeNull();
    } finally {
      storage.mockRestore();
      session.mockRestore();
    }
  });

  it('reads and switches the language for the session when document.cookie throws', async () => {
    // Only around the cookie calls: in jsdom msw reads document.cookie for every request it answers.
    Object.defineProperty(document, 'cookie', { configurable: true, get: blocked, set: blocked });
    try {
      expect(readLanguageCookie()).toBe('zh');
      await switchLanguage('en');
      expect(useAppStore.getState().language).toBe('en');
      expect(readLanguageCookie()).toBe('en');
    } finally {
      delete (document as { cookie?: string }).cookie;
      await switchLanguage('zh');
    }
  });
});
