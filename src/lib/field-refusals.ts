import { isMessageCode, type Refusal } from '#contract/messages';
import type { FieldRefusals } from '#contract/registration-screens';
import { ApiError } from '@/lib/api-client';

/** The per-field refusals a save answered (code 400, `data.fields`), or null for any other failure. */
export function fieldRefusalsOf(error: unknown): Record<string, Refusal> | null {
  if (!(error instanceof ApiError) || !error.data || typeof error.data !== 'object') return null;
  const fields = (error.data as Partial<FieldRefusals>).fields;
  if (!fields || typeof fields !== 'object') return null;
  const refusals: Record<string, Refusal> = {};
  for (const [key, refusal] of Object.entries(fields)) {
    if (refusal && isMessageCode(refusal.code)) refusals[key] = refusal.params ? refusal : { code: refusal.code };
  }
  return Object.keys(refusals).length ? refusals : null;
}

/** The message of a failed call (the api client's text in the visitor's language). */
export const errorMessage = (error: unknown): string => (error instanceof ApiError ? error.message : String(error));
