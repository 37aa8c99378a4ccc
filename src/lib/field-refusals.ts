import type { FormInstance } from 'antd';
import { isMessageCode, type Refusal } from '#contract/messages';
import type { FieldRefusals } from '#contract/registration-screens';
import { ApiError } from '@/lib/api-client';
import { refusalText } from '@/lib/form-rules';

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

/**
 * Shows the server's field refusals on an antd form, each under its field in the current language.
 * `fieldOf` maps a refused key to the form's field where it differs (the profile's region is one field for
 * three keys). Returns the fields' names in the server's order, so a form can scroll to the first.
 */
export function showFieldRefusals<Values>(
  form: Pick<FormInstance<Values>, 'setFields'>,
  refusals: Record<string, Refusal>,
  fieldOf: (key: string) => string = (key) => key,
): string[] {
  const fields = Object.entries(refusals).map(([key, refusal]) => ({
    name: fieldOf(key),
    errors: [refusalText(refusal)],
  }));
  form.setFields(fields as Parameters<FormInstance<Values>['setFields']>[0]);
  return fields.map((field) => field.name);
}
