/**
 * encryptType '1' (spec §7): the password travels AES-encrypted with crypto-js (OpenSSL passphrase mode,
 * random salt) under a key shared by the SPA and the API. It protects against casual logging in between,
 * on top of TLS; it is not a substitute for hashing, which the server does on its side.
 * Shared by the SPA (encrypt) and the reference server (decrypt).
 */
import AES from 'crypto-js/aes.js';
import Utf8 from 'crypto-js/enc-utf8.js';

export const ENCRYPT_TYPE = '1';

export function encryptPassword(plain: string, key: string): string {
  return AES.encrypt(plain, key).toString();
}

/** The plain password, or null when the ciphertext is not valid for this key. */
export function decryptPassword(cipher: string, key: string): string | null {
  try {
    const plain = AES.decrypt(cipher, key).toString(Utf8);
    return plain === '' ? null : plain;
  } catch {
    return null;
  }
}
