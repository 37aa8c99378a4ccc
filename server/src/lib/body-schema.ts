/**
 * Request bodies are parsed with one zod schema each, whose checks are the contract's rules
 * (#contract/rules): a refusal of a rule becomes the answer's message code and parameters, exactly what the
 * SPA's form shows for the same value. A body that is not even the right shape is refused with
 * `invalidRequest` and zod's words.
 */
import * as z from 'zod';
import type { Refusal } from '#contract/messages';

/** At most this many characters in a form field. */
export const FIELD_MAX = 2048;

/** A form field: a string (a number is taken as its digits), absent is ''; trimmed. */
export const formField = z
  .union([z.string().max(FIELD_MAX), z.number().transform(String)])
  .nullish()
  .transform((value) => (value ?? '').trim());

/** A form-shaped body of the named fields (others are ignored); no body at all reads as every field ''. */
export function formBody<const K extends string>(...names: K[]) {
  const shape = Object.fromEntries(names.map((name) => [name, formField])) as Record<K, typeof formField>;
  return z
    .looseObject(shape)
    .nullish()
    .transform((body) => {
      const fields = body ?? (Object.fromEntries(names.map((name) => [name, ''])) as Record<K, string>);
      return Object.fromEntries(names.map((name) => [name, fields[name] ?? ''])) as Record<K, string>;
    });
}

/** The checks of a body, in order: the first refusal is the answer. */
export type BodyCheck<T> = (body: T) => Refusal | null;

export function firstRefusal(...refusals: (() => Refusal | null)[]): Refusal | null {
  for (const refusal of refusals) {
    const found = refusal();
    if (found) return found;
  }
  return null;
}

/** A body schema: its shape, then the contract rules over the parsed body (a refusal is a zod issue). */
export function withRules<S extends z.ZodType>(shape: S, check: BodyCheck<z.output<S>>) {
  return shape.superRefine((body, ctx) => {
    const refusal = check(body);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal.code, params: { refusal } });
  });
}

export type BodyResult<T> = { ok: true; body: T } | { ok: false; refusal: Refusal };

/** Parses a body: its value, or the refusal to answer (a rule's, or `invalidRequest` for a bad shape). */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown): BodyResult<z.output<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, body: parsed.data };
  const issue = parsed.error.issues[0];
  const refusal = (issue as { params?: { refusal?: Refusal } } | undefined)?.params?.refusal;
  if (refusal) return { ok: false, refusal };
  const where = issue && issue.path.length > 0 ? `body/${issue.path.join('/')} ` : 'body ';
  return {
    ok: false,
    refusal: { code: 'invalidRequest', params: { detail: `${where}${issue?.message ?? 'is invalid'}` } },
  };
}
