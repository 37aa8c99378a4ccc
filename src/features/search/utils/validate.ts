/**
 * Field rules of the search forms (spec §5). Each returns a translation key of the message to show, or
 * null when the value is valid.
 */
export type RuleKey =
  | 'search.validation.nameRequired'
  | 'search.validation.nameInvalid'
  | 'search.validation.certificateRequired'
  | 'search.validation.idCardInvalid'
  | 'search.validation.certificateInvalid'
  | 'search.validation.bibRequired'
  | 'search.validation.bibInvalid';

/** Certificate types (spec §3 Other): 1 ID card (second generation), 2 passport, 3 HK/Macau permit, 4 Taiwan permit. */
export const CERTIFICATE_TYPES = [1, 2, 3, 4] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];

/** Required text rule: non-empty, no spaces and no double quotes. */
export function checkName(value: string): RuleKey | null {
  if (value.trim() === '') return 'search.validation.nameRequired';
  if (/[\s"]/.test(value)) return 'search.validation.nameInvalid';
  return null;
}

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK_CODES = '10X98765432';

/** GB 11643: 17 digits and a check character computed from them (mod 11). */
export function isValidIdCard(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(v)) return false;
  const sum = WEIGHTS.reduce((acc, w, i) => acc + w * Number(v[i]), 0);
  return CHECK_CODES[sum % 11] === v[17];
}

export function checkCertificateNumber(type: CertificateType, raw: string): RuleKey | null {
  const value = raw.trim();
  if (value === '') return 'search.validation.certificateRequired';
  if (type === 1) return isValidIdCard(value) ? null : 'search.validation.idCardInvalid';
  return /^[A-Za-z0-9]{5,20}$/.test(value) ? null : 'search.validation.certificateInvalid';
}

/** Bib: letters and digits, not all zeros, after trimming. */
export function checkBib(raw: string): RuleKey | null {
  const value = raw.trim();
  if (value === '') return 'search.validation.bibRequired';
  if (!/^[A-Za-z0-9]{1,20}$/.test(value) || /^0+$/.test(value)) return 'search.validation.bibInvalid';
  return null;
}
