import { describe, expect, it } from 'vitest';
import { decryptPassword, encryptPassword } from './password-crypto';

describe('password transport encryption', () => {
  it('decrypts what it encrypted, and nothing under another key', () => {
    const cipher = encryptPassword('Secret123', 'shared-key');
    expect(decryptPassword(cipher, 'shared-key')).toBe('Secret123');
    expect(decryptPassword(cipher, 'another-key')).not.toBe('Secret123');
  });

  it('never turns clear text into a password, however often it is tried', () => {
    // Without the salted header crypto-js picks a random salt: about 1 try in 200 used to "decrypt".
    const answers = new Set(Array.from({ length: 3000 }, () => decryptPassword('Secret123', 'shared-key')));
    expect([...answers]).toEqual([null]);
  });
});
