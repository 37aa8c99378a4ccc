/**
 * WeChat Pay API v3's signatures and encryption, with Node's crypto (lib/payment/wechatpay.ts uses them):
 *
 * - a request is signed with the merchant's API private key (RSA, SHA-256) over
 *   `METHOD\nURL\ntimestamp\nnonce\nbody\n` (URL: path and query), sent as
 *   `Authorization: WECHATPAY2-SHA256-RSA2048 mchid="…",nonce_str="…",signature="…",timestamp="…",serial_no="…"`;
 * - an answer or a notification of WeChat Pay is signed with its platform key over `timestamp\nnonce\nbody\n`
 *   (headers Wechatpay-Timestamp, Wechatpay-Nonce, Wechatpay-Signature, Wechatpay-Serial: the serial names the
 *   key, a platform certificate's serial number or the platform public key's id `PUB_KEY_ID_…`);
 * - a notification's resource (and a downloaded platform certificate) is encrypted with AEAD_AES_256_GCM under
 *   the merchant's API v3 key: base64 ciphertext whose last 16 bytes are the tag, the nonce as the IV, the
 *   associated_data as the additional data.
 */
import { createDecipheriv, createSign, createVerify, randomBytes, type KeyObject } from 'node:crypto';

export const WECHATPAY_SCHEMA = 'WECHATPAY2-SHA256-RSA2048';
/** How far a signed timestamp may be from our clock (WeChat Pay's guidance: 5 minutes). */
export const WECHATPAY_CLOCK_SKEW_MS = 5 * 60_000;

/** A random nonce of 32 letters and digits. */
export function wechatpayNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...randomBytes(32)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** The Authorization header of a request: `url` is its path and query, `body` the JSON sent ('' for a GET). */
export function wechatpayAuthorization(input: {
  mchId: string;
  serialNo: string;
  privateKey: KeyObject;
  method: string;
  url: string;
  body: string;
  timestamp: number;
  nonce: string;
}): string {
  const message = `${input.method}\n${input.url}\n${input.timestamp}\n${input.nonce}\n${input.body}\n`;
  const signature = createSign('RSA-SHA256').update(message, 'utf8').sign(input.privateKey, 'base64');
  return (
    `${WECHATPAY_SCHEMA} mchid="${input.mchId}",nonce_str="${input.nonce}",signature="${signature}",` +
    `timestamp="${input.timestamp}",serial_no="${input.serialNo}"`
  );
}

/** Whether WeChat Pay's signature (base64) over an answer or a notification checks out with `key`. */
export function wechatpaySignatureValid(
  key: KeyObject,
  input: { timestamp: string; nonce: string; body: string; signature: string },
): boolean {
  try {
    return createVerify('RSA-SHA256')
      .update(`${input.timestamp}\n${input.nonce}\n${input.body}\n`, 'utf8')
      .verify(key, input.signature, 'base64');
  } catch {
    return false;
  }
}

/** An encrypted resource of a notification or of a platform certificate. */
export interface EncryptedResource {
  ciphertext: string;
  nonce: string;
  associated_data?: string;
}

/** Decrypts an AEAD_AES_256_GCM resource with the API v3 key; throws when it was not made with that key. */
export function decryptWechatpayResource(apiV3Key: Buffer, resource: EncryptedResource): string {
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length <= 16) throw new Error('the ciphertext is too short');
  const decipher = createDecipheriv('aes-256-gcm', apiV3Key, Buffer.from(resource.nonce, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
}

/** The longest start of `text` that fits in `maxBytes` of UTF-8, never cutting a character in two. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out;
}
