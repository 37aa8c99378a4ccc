import Cookies from 'js-cookie';
import { SafeCookies, SafeStorage } from './storage';

const blocked = () => {
  throw new DOMException('The operation is insecure.', 'SecurityError');
};

/** A working Web Storage whose setItem refuses values over `limit` characters (a full quota). */
function smallQuota(limit: number): Storage {
  const real = new Map<string, string>();
  return {
    get length() {
      return real.size;
    },
    clear: () => real.clear(),
    key: (i: number) => [...real.keys()][i] ?? null,
    getItem: (key: string) => real.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (value.length > limit) throw new DOMException('quota', 'QuotaExceededError');
      real.set(key, value);
    },
    removeItem: (key: string) => void real.delete(key),
  };
}

/** Makes document.cookie throw, as it does in a sandboxed or cross-site frame with site data blocked. */
function blockCookies(): () => void {
  Object.defineProperty(document, 'cookie', { configurable: true, get: blocked, set: blocked });
  return () => void delete (document as { cookie?: string }).cookie;
}

describe('browser storage', () => {
  it('uses the real storage while it works', () => {
    const store = new SafeStorage(() => localStorage);
    store.setItem('k', 'v');
    expect(localStorage.getItem('k')).toBe('v');
    expect(store.getItem('k')).toBe('v');
    store.removeItem('k');
    expect(localStorage.getItem('k')).toBeNull();
  });

  it('keeps values in memory for the session when the browser refuses storage', () => {
    const store = new SafeStorage(blocked);
    expect(store.getItem('token')).toBeNull();
    expect(() => store.setItem('token', 'abc')).not.toThrow();
    expect(store.getItem('token')).toBe('abc');
    store.removeItem('token');
    expect(store.getItem('token')).toBeNull();
  });

  it('keeps a value the quota refuses in memory and the others in storage', () => {
    const real = smallQuota(5);
    const store = new SafeStorage(() => real);
    store.setItem('small', 'ok');
    store.setItem('big', 'x'.repeat(50));
    expect(real.getItem('small')).toBe('ok');
    expect(real.getItem('big')).toBeNull();
    expect(store.getItem('big')).toBe('x'.repeat(50));
    // Written through again once it fits: memory no longer hides the stored value.
    store.setItem('big', 'fits');
    expect(real.getItem('big')).toBe('fits');
    real.setItem('big', 'newer');
    expect(store.getItem('big')).toBe('newer');
  });
});

describe('cookies', () => {
  it('reads and writes real cookies while they work', () => {
    const jar = new SafeCookies();
    jar.set('language', 'en', { path: '/' });
    expect(Cookies.get('language')).toBe('en');
    expect(jar.get('language')).toBe('en');
    jar.remove('language', { path: '/' });
    expect(jar.get('language')).toBeUndefined();
  });

  it('keeps a cookie in memory when document.cookie throws', () => {
    const jar = new SafeCookies();
    const restore = blockCookies();
    try {
      expect(jar.get('language')).toBeUndefined();
      expect(() => jar.set('language', 'en', { path: '/' })).not.toThrow();
      expect(jar.get('language')).toBe('en');
      expect(() => jar.remove('language')).not.toThrow();
      expect(jar.get('language')).toBeUndefined();
    } finally {
      restore();
    }
  });

  it('keeps a cookie in memory when the browser silently ignores it', () => {
    const jar = new SafeCookies();
    // A domain the page is not on: the browser drops the cookie without an error.
    jar.set('language', 'en', { path: '/', domain: 'elsewhere.example' });
    expect(Cookies.get('language')).toBeUndefined();
    expect(jar.get('language')).toBe('en');
  });
});
