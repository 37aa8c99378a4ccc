/**
 * The server's check of a registration submission against its published form: the contract's rules
 * (contract/registration-form.ts checkSubmission, the same the SPA runs), with the lists only the server holds
 * filled in (the country list, the region tree), then, given the submitting user's uploads, the upload checks
 * the SPA made before uploading (lib/upload-value.ts: each file is this user's upload, its size and exact px).
 * What depends on the runner and the race's registrations (their own results, the clothing sizes already
 * taken) comes from the caller.
 */
import { regionExists } from '#contract/region-data';
import {
  checkSubmission,
  cleanSubmission,
  SCORE_CERTIFICATE_UPLOAD,
  visibleFields,
  type RegistrationForm,
  type SubmissionContext,
  type SubmissionValues,
} from '#contract/registration-form';
import type { Refusal } from '#contract/messages';
import { checkUploadValue, type UploadValueContext } from '../../lib/upload-value.ts';
import { countryList } from '../../lib/country-list.ts';

let countryCodes: ReadonlySet<string> | undefined;

type CallerChecks = Pick<SubmissionContext, 'ownResult' | 'sizeLeft'>;

/** The submission context of the server: country list and region tree, plus the caller's own checks. */
export function serverSubmissionContext(extra: CallerChecks = {}): SubmissionContext {
  countryCodes ??= new Set(countryList().map((country) => country.twoCode));
  const countries = countryCodes;
  return { countryExists: (code) => countries.has(code), regionExists: (codes) => regionExists(codes), ...extra };
}

/** The stored-file checks of the upload values that passed the contract's rules (image, file, certificate image). */
async function uploadRefusals(
  form: RegistrationForm,
  values: SubmissionValues,
  passed: (key: string) => boolean,
  uploads: UploadValueContext,
): Promise<Record<string, Refusal>> {
  const refusals: Record<string, Refusal> = {};
  for (const field of visibleFields(form, values)) {
    if (!passed(field.key)) continue;
    const value = values[field.key];
    let refusal: Refusal | null = null;
    if (field.type === 'image' || field.type === 'file') {
      const { maxSize, maxCount, width, height } = field.upload;
      const imageSize = width !== undefined && height !== undefined ? { width, height } : undefined;
      refusal = await checkUploadValue(value, { kind: field.type, maxSize, maxCount, imageSize }, uploads);
    } else if (field.type === 'scoreVerification') {
      const claim = value as { source?: unknown; certificateImage?: unknown } | undefined;
      if (claim?.source === 'outside') {
        const limits = { kind: 'image', ...SCORE_CERTIFICATE_UPLOAD } as const;
        refusal = await checkUploadValue(claim.certificateImage, limits, uploads);
      }
    }
    if (refusal) refusals[field.key] = refusal;
  }
  return refusals;
}

/**
 * Checks a submission: every refusal by field key (the SPA shows each under its field), or the values to keep
 * (visible fields only, nothing the runner may not set). Without `uploads` the upload values are checked by
 * the contract's rules only (their form, count and file types), not against the stored files.
 */
export async function checkRegistrationSubmission(
  form: RegistrationForm,
  values: SubmissionValues,
  options: CallerChecks & { uploads?: UploadValueContext } = {},
): Promise<{ ok: false; refusals: Record<string, Refusal> } | { ok: true; values: Record<string, unknown> }> {
  const { uploads, ...extra } = options;
  const refusals = checkSubmission(form, values, serverSubmissionContext(extra));
  if (uploads) Object.assign(refusals, await uploadRefusals(form, values, (key) => !(key in refusals), uploads));
  return Object.keys(refusals).length > 0
    ? { ok: false, refusals }
    : { ok: true, values: cleanSubmission(form, values) };
}
