import type { FastifyReply } from 'fastify';
import { decryptPassword, ENCRYPT_TYPE } from '#contract/password-crypto';
import { isValidPassword } from '../../lib/accounts.ts';
import { fail, MESSAGES } from '../../lib/envelope.ts';

export type Body = Record<string, string | undefined>;

/** A body schema: every named field is an optional string (numbers are coerced), at most 2 KB. */
export function stringFields(...names: string[]) {
  return {
    anyOf: [
      {
        type: 'object',
        additionalProperties: true,
        properties: Object.fromEntries(names.map((name) => [name, { type: 'string', maxLength: 2048 }])),
      },
      { type: 'null' },
    ],
  } as const;
}

export const field = (body: Body | null | undefined, name: string): string => (body?.[name] ?? '').trim();

/** A business rejection: HTTP 200 with the envelope code (the SPA shows msg). */
export const reject = (code: number, msg: string) => fail(code, msg);

/**
 * The plain password of an encryptType '1' field, or null when it is missing, not encrypted with our key
 * or not encrypted at all (clear-text transport is not accepted).
 */
export function decryptField(body: Body | null | undefined, name: string, key: string): string | null {
  if (field(body, 'encryptType') !== ENCRYPT_TYPE) return null;
  const cipher = field(body, name);
  if (cipher === '') return null;
  return decryptPassword(cipher, key);
}

/** The new password of a register/reset call, or the envelope to answer. */
export function newPasswordFrom(
  body: Body | null | undefined,
  key: string,
  confirmName?: string,
): { password: string } | { error: ReturnType<typeof fail> } {
  const password = decryptField(body, 'loginPassword', key);
  if (password === null || !isValidPassword(password)) return { error: reject(400, MESSAGES.passwordRule) };
  if (confirmName !== undefined) {
    const confirm = decryptField(body, confirmName, key);
    if (confirm === null) return { error: reject(400, 'Please enter confirm password') };
    if (confirm !== password) return { error: reject(400, MESSAGES.passwordsDiffer) };
  }
  return { password };
}

export function noStore(reply: FastifyReply) {
  void reply.header('cache-control', 'no-store');
}
