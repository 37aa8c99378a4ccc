/**
 * Personal numbers the server must give back whole (the applicant's certificate number and phone numbers of a
 * direct-pass application for the organiser's review, the mailing phone for the courier): kept encrypted,
 * AES-256-GCM under a key derived from the ID-number secret (lib/secrets.ts `idNumber`, which keys the
 * certificate-number hashes), so a copy of the database alone gives none of them away. Answers show them
 * masked (maskCertNo, maskMobile); logs never see them.
 *
 * A stored text is `v1.<iv>.<tag>.<ciphertext>` (base64url); the version prefix lets a later key or cipher
 * coexist with old rows.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

export interface PersonalCipher {
  encrypt(plain: string): string;
  /** The plain text, or undefined when the text was not made with this key (or is damaged). */
  decrypt(stored: string): string | undefined;
}

/** The cipher of the ID-number secret (the same secret always gives the same key). */
export function personalCipher(idNumberSecret: string): PersonalCipher {
  const key = createHmac('sha256', idNumberSecret).update('race-site personal data encryption v1').digest();
  return {
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    decrypt(stored) {
      const [version, iv, tag, body] = stored.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
