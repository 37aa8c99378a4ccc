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

/** What every ciphertext of encryptPassword starts with: base64 of OpenSSL's "Salted__" header. */
const SALTED = 'U2FsdGVkX1';

/**
 * The plain password, or null when the ciphertext is not valid for this key. Anything without the salted header
 * is refused first: crypto-js would otherwise derive a key from a RANDOM salt and, now and then (about 1 in
 * 200), turn clear text into some other "password".
 */
export function decryptPassword(cipher: string, key: string): string | null {
  if (!cipher.startsWith(SALTED)) return null;
  try {
    const plain = AES.decrypt(cipher, key).toString(Utf8);
    return plain === '' ? null : plain;
  } catch {
    return null;
  }
}
