/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226: HMAC-SHA1, 6 digits, 30-second steps), the second
 * factor of staff accounts, as authenticator apps (Google Authenticator, Microsoft Authenticator, 1Password…)
 * read them from an otpauth:// link. Secrets are 20 random bytes, shown once in base32.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const STEP_MS = 30_000;
const DIGITS = 6;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of a base32 text (spaces and case ignored), or undefined when it is not base32. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const newTotpSecret = (): string => base32Encode(randomBytes(20));

/** The code of one 30-second step. */
export function totpAt(secret: string, step: number): string {
  const key = base32Decode(secret) ?? Buffer.alloc(0);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 15;
  const number = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** DIGITS;
  return String(number).padStart(DIGITS, '0');
}

export const totpStep = (now: number): number => Math.floor(now / STEP_MS);

/**
 * The step a code matches at `now`, allowing one step either side (clocks drift), or undefined. The caller
 * refuses a step not after the last one used, so a code works once.
 */
export function matchTotp(secret: string, code: string, now: number): number | undefined {
  const given = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(given)) return undefined;
  const step = totpStep(now);
  for (const candidate of [step - 1, step, step + 1]) {
    if (timingSafeEqual(Buffer.from(totpAt(secret, candidate)), Buffer.from(given))) return candidate;
  }
  return undefined;
}

/** The link an authenticator app reads (as a QR code): otpauth://totp/<issuer>:<account>?secret=…&issuer=… */
export function totpLink(secret: string, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
}
