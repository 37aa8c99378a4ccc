/**
 * The server's check of a registration submission against its published form: the contract's rules
 * (contract/registration-form.ts checkSubmission, the same the SPA runs), with the lists only the server holds
 * filled in: the country list and the region tree. What depends on the runner and the race's registrations
 * (their own results, the clothing sizes already taken) comes from the caller.
 */
import { regionExists } from '#contract/region-data';
import {
  checkSubmission,
  cleanSubmission,
  type RegistrationForm,
  type SubmissionContext,
  type SubmissionValues,
} from '#contract/registration-form';
import type { Refusal } from '#contract/messages';
import { countryList } from '../../routes/basic-center/country-list.ts';

let countryCodes: ReadonlySet<string> | undefined;

/** The submission context of the server: country list and region tree, plus the caller's own checks. */
export function serverSubmissionContext(
  extra: Pick<SubmissionContext, 'ownResult' | 'sizeLeft'> = {},
): SubmissionContext {
  countryCodes ??= new Set(countryList().map((country) => country.twoCode));
  const countries = countryCodes;
  return { countryExists: (code) => countries.has(code), regionExists: (codes) => regionExists(codes), ...extra };
}

/**
 * Checks a submission: every refusal by field key (the SPA shows each under its field), or the values to keep
 * (visible fields only, nothing the runner may not set).
 */
export function checkRegistrationSubmission(
  form: RegistrationForm,
  values: SubmissionValues,
  extra: Pick<SubmissionContext, 'ownResult' | 'sizeLeft'> = {},
): { ok: false; refusals: Record<string, Refusal> } | { ok: true; values: Record<string, unknown> } {
  const refusals = checkSubmission(form, values, serverSubmissionContext(extra));
  return Object.keys(refusals).length > 0
    ? { ok: false, refusals }
    : { ok: true, values: cleanSubmission(form, values) };
}
