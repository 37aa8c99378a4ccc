/**
 * Browser storage, the one way in (nothing else touches localStorage, sessionStorage or document.cookie).
 * When the browser refuses site data (blocked cookies, a cross-site frame, a full quota) reading or writing
 * throws; the site then keeps what it writes in memory for the rest of the session and works as usual.
 */
import Cookies from 'js-cookie';

/** The part of the Web Storage interface the site uses. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * A Web Storage that never throws: the real one while it works, memory for what it refused. A value
 * held in memory hides the stored one until it is removed or written through again.
 */
export class SafeStorage implements KeyValueStore {
  private readonly memory = new Map<string, string>();

  constructor(private readonly open: () => Storage) {}

  /** Runs one call on the real storage; undefined when the browser refuses (a getter or call threw). */
  private attempt<T>(call: (storage: Storage) => T): { value: T } | undefined {
    try {
      return { value: call(this.open()) };
    } catch {
      return undefined;
    }
  }

  getItem(key: string): string | null {
    const held = this.memory.get(key);
    if (held !== undefined) return held;
    return this.attempt((storage) => storage.getItem(key))?.value ?? null;
  }

  setItem(key: string, value: string): void {
    // Refused (blocked, quota): keep the value for this session.
    if (this.attempt((storage) => storage.setItem(key, value))) this.memory.delete(key);
    else this.memory.set(key, value);
  }

  removeItem(key: string): void {
    this.memory.delete(key);
    this.attempt((storage) => storage.removeItem(key));
  }
}

export const localStore = new SafeStorage(() => window.localStorage);
export const sessionStore = new SafeStorage(() => window.sessionStorage);

export interface CookieOptions {
  /** Days until it expires. */
  expires?: number;
  path?: string;
  domain?: string;
  sameSite?: 'Lax' | 'Strict' | 'None';
}

/** Cookies through js-cookie, with the same memory fallback when the browser refuses them. */
export class SafeCookies {
  private readonly memory = new Map<string, string>();

  /** A value the browser refused this session, else the browser's cookie. */
  get(name: string): string | undefined {
    const held = this.memory.get(name);
    if (held !== undefined) return held;
    try {
      return Cookies.get(name);
    } catch {
      return undefined; // document.cookie threw: cookies are blocked here
    }
  }

  /** Writes the cookie; when the browser throws or silently ignores it, the value is kept in memory. */
  set(name: string, value: string, options: CookieOptions = {}): void {
    let stored = false;
    try {
      Cookies.set(name, value, options);
      stored = Cookies.get(name) === value;
    } catch {
      // Blocked: the memory copy serves this session.
    }
    if (stored) this.memory.delete(name);
    else this.memory.set(name, value);
  }

  remove(name: string, options: Pick<CookieOptions, 'path' | 'domain'> = {}): void {
    this.memory.delete(name);
    try {
      Cookies.remove(name, options);
    } catch {
      // Blocked: nothing was stored.
    }
  }
}

export const cookies = new SafeCookies();
