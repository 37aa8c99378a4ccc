/**
 * The personal centre's profile (issue 14 §5; spec §3 userInfo): which fields a runner edits, their bounds and
 * the one check of a ProfileSaveRequest that the SPA's form and the server both run. Each field is checked
 * with the contract's rules (rules.ts); the region is three codes checked by the caller's region rule
 * (contract/region-data.ts checkRegionValue on the server, the picker's loaded data in the SPA).
 *
 * An empty value clears an optional field (0 for height and weight); the name, once given, stays required.
 * The real-name card (cardType + cardNumber) is set once: both together, checked by checkCertificateNumber.
 */
import { isCertificateType, type CertificateType } from '#contract/enums';
import type { ProfileSaveRequest } from '#contract/entry';
import type { Refusal } from '#contract/messages';
import { checkCertificateNumber, checkEmail, checkName } from '#contract/rules';

/** Every key a ProfileSaveRequest may hold; anything else is refused. */
export const PROFILE_KEYS = [
  'userName',
  'userGender',
  'birthday',
  'userEmail',
  'userHeight',
  'userWeight',
  'educationLevel',
  'graduateInstitution',
  'major',
  'residentialProvinceCode',
  'residentialCityCode',
  'residentialDistrictCode',
  'residentialAddress',
  'cardType',
  'cardNumber',
] as const satisfies readonly (keyof ProfileSaveRequest)[];
export type ProfileKey = (typeof PROFILE_KEYS)[number];

/** Longest texts (characters). */
export const PROFILE_TEXT_MAX = {
  userName: 50,
  graduateInstitution: 100,
  major: 100,
  residentialAddress: 200,
} as const;

/** Height in cm and weight in kg: whole numbers within these bounds (0 = not given). */
export const PROFILE_HEIGHT = { min: 50, max: 250 } as const;
export const PROFILE_WEIGHT = { min: 20, max: 300 } as const;
/** The earliest birthday taken; the latest is today. */
export const PROFILE_EARLIEST_BIRTHDAY = '1900-01-01';

/** Education levels (the value stored; texts under centre.profile.education.<level>). */
export const EDUCATION_LEVELS = [
  'primary',
  'juniorHigh',
  'seniorHigh',
  'vocational',
  'college',
  'bachelor',
  'master',
  'doctor',
  'other',
] as const;
export type EducationLevel = (typeof EDUCATION_LEVELS)[number];

const refuse = (code: Refusal['code'], params?: Refusal['params']): Refusal => (params ? { code, params } : { code });

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

function checkText(value: unknown, max: number): Refusal | null {
  if (isEmpty(value)) return null;
  if (typeof value !== 'string') return refuse('invalidValue');
  return [...value].length > max ? refuse('textTooLong', { count: max }) : null;
}

function checkWhole(value: unknown, bounds: { min: number; max: number }): Refusal | null {
  if (isEmpty(value) || value === 0) return null;
  if (typeof value !== 'number' || !Number.isInteger(value)) return refuse('badNumber');
  if (value < bounds.min) return refuse('numberTooSmall', { min: bounds.min });
  if (value > bounds.max) return refuse('numberTooLarge', { max: bounds.max });
  return null;
}

/** A real calendar date 'YYYY-MM-DD' between PROFILE_EARLIEST_BIRTHDAY and `today` (both 'YYYY-MM-DD'). */
export function checkBirthday(value: unknown, today: string): Refusal | null {
  if (isEmpty(value)) return null;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return refuse('badDate');
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return refuse('badDate');
  if (value < PROFILE_EARLIEST_BIRTHDAY) return refuse('dateTooEarly', { date: PROFILE_EARLIEST_BIRTHDAY });
  if (value > today) return refuse('dateTooLate', { date: today });
  return null;
}

/** The refusal of one field's value, or null (the region and the card are checked together: checkProfile). */
export function checkProfileField(key: ProfileKey, value: unknown, today: string): Refusal | null {
  switch (key) {
    case 'userName':
      return typeof value === 'string' || isEmpty(value)
        ? (checkName(value as string | undefined) ?? checkText(value, PROFILE_TEXT_MAX.userName))
        : refuse('nameRequired');
    case 'userGender':
      return value === 0 || value === 1 || value === 2 || isEmpty(value) ? null : refuse('badChoice');
    case 'birthday':
      return checkBirthday(value, today);
    case 'userEmail':
      if (isEmpty(value)) return null;
      return typeof value === 'string' ? checkEmail(value, 'account') : refuse('badEmail');
    case 'userHeight':
      return checkWhole(value, PROFILE_HEIGHT);
    case 'userWeight':
      return checkWhole(value, PROFILE_WEIGHT);
    case 'educationLevel':
      return isEmpty(value) || (EDUCATION_LEVELS as readonly unknown[]).includes(value) ? null : refuse('badChoice');
    case 'graduateInstitution':
    case 'major':
    case 'residentialAddress':
      return checkText(value, PROFILE_TEXT_MAX[key]);
    case 'cardType':
      return isCertificateType(value) ? null : refuse('badCertificateType');
    case 'cardNumber':
      return typeof value === 'string' ? null : refuse('certificateRequired');
    default:
      return null;
  }
}

/**
 * Every refusal of a save request by field key: unknown keys ('profileFieldUnknown'), each field's rule, the
 * region as a whole (`regionCheck` over the three codes, reported on residentialProvinceCode) and the card as
 * a pair (reported on cardType / cardNumber). An empty object means the request may be saved.
 */
export function checkProfile(
  body: Record<string, unknown>,
  options: { today: string; regionCheck?: (codes: unknown) => Refusal | null },
): Record<string, Refusal> {
  const refusals: Record<string, Refusal> = {};
  for (const key of Object.keys(body)) {
    if (!(PROFILE_KEYS as readonly string[]).includes(key)) {
      refusals[key] = refuse('profileFieldUnknown', { field: key.slice(0, 40) });
      continue;
    }
    const refusal = checkProfileField(key as ProfileKey, body[key], options.today);
    if (refusal) refusals[key] = refusal;
  }
  const region = [body.residentialProvinceCode, body.residentialCityCode, body.residentialDistrictCode];
  if (region.some((code) => code !== undefined)) {
    const codes = region.every(isEmpty) ? [] : region;
    const refusal = options.regionCheck?.(codes) ?? null;
    if (refusal) refusals.residentialProvinceCode = refusal;
  }
  const hasType = body.cardType !== undefined;
  const hasNumber = body.cardNumber !== undefined;
  if (hasType || hasNumber) {
    if (!hasType) refusals.cardType = refuse('badCertificateType');
    else if (!refusals.cardType) {
      const number = checkCertificateNumber(body.cardType as CertificateType, body.cardNumber as string | undefined);
      if (number) refusals.cardNumber = number;
    }
  }
  return refusals;
}
