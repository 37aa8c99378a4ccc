import type { KeyValueStore } from './storage';
import {
  ENTRY_DRAFTS_KEY,
  MAX_TOKEN_LENGTH,
  clearUserData,
  isPlausibleToken,
  readLoginToken,
  recoverCorruptItem,
} from './user-data';

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('stored tokens', () => {
  it('accepts what servers issue as tokens', () => {
    for (const token of [
      JWT,
      'dGhpcyBpcyBhIHRva2Vu-_x',
      'a1b2c3d4e5f6',
      'Zm9v+YmFy/YmF6=',
      't'.repeat(MAX_TOKEN_LENGTH),
    ]) {
      expect(isPlausibleToken(token)).toBe(true);
    }
  });

  it('refuses values that cannot be a token', () => {
    for (const token of [
      '',
      'x'.repeat(20_000),
      't'.repeat(MAX_TOKEN_LENGTH + 1),
      'a b',
      '<script>',
      '"tok"',
      '令牌',
      'tok\n',
    ]) {
      expect(isPlausibleToken(token)).toBe(false);
    }
  });

  it('finds the token to check in the token key, else inside userData', () => {
    localStorage.setItem('userData', JSON.stringify({ token: 'inside' }));
    expect(readLoginToken()).toBe('inside');
    localStorage.setItem('token', 'key');
    expect(readLoginToken()).toBe('key');
    localStorage.removeItem('token');
    localStorage.setItem('userData', '{broken');
    expect(readLoginToken()).toBeNull();
  });
});

describe('corrupt stored data', () => {
  it('does not reload when the browser will not remove the corrupt item (it would come back every time)', () => {
    const stuck: KeyValueStore = { getItem: () => '{broken', setItem: () => undefined, removeItem: () => undefined };
    const reload = vi.fn();
    expect(recoverCorruptItem('userData', { storage: stuck, reload })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('logging out', () => {
  it("removes the sign-up form's drafts with the login (issue #28)", () => {
    localStorage.setItem('userData', JSON.stringify({ token: 'tok' }));
    localStorage.setItem('token', 'tok');
    localStorage.setItem(ENTRY_DRAFTS_KEY, JSON.stringify({ v: 1, drafts: {} }));
    clearUserData();
    expect(localStorage.getItem(ENTRY_DRAFTS_KEY)).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });
});
