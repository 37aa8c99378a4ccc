import type { FastifyReply } from 'fastify';
import type * as z from 'zod';
import type { Envelope } from '#contract/api';
import type { MessageCode, MessageParams } from '#contract/messages';
import { decryptPassword, ENCRYPT_TYPE } from '#contract/password-crypto';
import { checkConfirm, checkPassword } from '#contract/rules';
import { parseBody } from '../../lib/body-schema.ts';
import { fail, HttpError } from '../../lib/envelope.ts';

export type Body = Record<string, string>;

/**
 * The body parsed with its schema (bodies.ts). A refusal of a contract rule is a business rejection (HTTP
 * 200 with the envelope code 400, what the SPA shows); a body of the wrong shape is an HTTP 400.
 */
export function parseOrReject<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { body: z.output<S> } | { error: Envelope<null> } {
  const parsed = parseBody(schema, input);
  if (parsed.ok) return { body: parsed.body };
  const { code, params } = parsed.refusal;
  if (code === 'invalidRequest') throw new HttpError(400, code, params);
  return { error: reject(400, code, params) };
}

/** A business rejection: HTTP 200 with the envelope code (the SPA shows msg). */
export const reject = (status: number, code: MessageCode, params?: MessageParams) => fail(status, code, params);

/**
 * The plain password of an encryptType '1' field, or null when it is missing, not encrypted with our key
 * or not encrypted at all (clear-text transport is not accepted).
 */
export function decryptField(body: Body, name: string, key: string): string | null {
  if (body.encryptType !== ENCRYPT_TYPE) return null;
  const cipher = body[name] ?? '';
  if (cipher === '') return null;
  return decryptPassword(cipher, key);
}

/**
 * The new password of a register/reset call, or the envelope to answer: the contract's password and confirm
 * rules over the decrypted fields (one that is missing or not encrypted with our key is not a password).
 */
export function newPasswordFrom(
  body: Body,
  key: string,
  confirmName?: string,
): { password: string } | { error: Envelope<null> } {
  const password = decryptField(body, 'loginPassword', key);
  const refusal = password === null ? { code: 'passwordRule' as const } : checkPassword(password);
  if (refusal) return { error: reject(400, refusal.code) };
  if (confirmName !== undefined) {
    const confirmRefusal = checkConfirm(decryptField(body, confirmName, key) ?? '', password!);
    if (confirmRefusal) return { error: reject(400, confirmRefusal.code) };
  }
  return { password: password! };
}

export function noStore(reply: FastifyReply) {
  void reply.header('cache-control', 'no-store');
}
