/**
 * The validation rules of the contract (spec §5), once for the SPA and the server. Each rule is a pure
 * function answering the refusal to show (a message code of messages.ts and its parameters), or null when
 * the value passes. The SPA turns them into antd Form rules (src/lib/form-rules.ts); the server into body
 * schemas (server/src/lib/body-schema.ts).
 *
 * Format rules (URL, positive integer) let an empty value pass: whether a field is required is its own
 * rule (`checkRequired`).
 */
import { CERTIFICATE_TYPES, type CertificateType } from '#contract/enums';
import type { MessageCode, MessageParams, Refusal } from '#contract/messages';

export type Check<T = string | undefined> = (value: T) => Refusal | null;

const refuse = (code: MessageCode, params?: MessageParams): Refusal => (params ? { code, params } : { code });

const blank = (value: string | undefined | null): boolean => !value || value.trim() === '';

/** Any value: present and not only spaces, else the caller's message. */
export function checkRequired(value: string | undefined | null, code: MessageCode): Refusal | null {
  return blank(value) ? refuse(code) : null;
}

/** Mainland mobile number: 11 digits, starting 1, second digit 3-9. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const isValidPhone = (phone: string): boolean => PHONE_PATTERN.test(phone);

/**
 * Phone: required ('Please enter phone number'); `strict` (the reset flow, code sends and code login) also
 * wants a correct mainland mobile number.
 */
export function checkPhone(value: string | undefined, { strict = false } = {}): Refusal | null {
  if (blank(value)) return refuse('phoneRequired');
  if (strict && !isValidPhone(value!.trim())) return refuse('badPhone');
  return null;
}

/** Verification code: required, not only spaces. */
export function checkCaptcha(value: string | undefined): Refusal | null {
  return blank(value) ? refuse('captchaRequired') : null;
}

/** 6-20 letters and digits, containing both. */
export const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z\d]{6,20}$/;
export const isValidPassword = (password: string): boolean => PASSWORD_PATTERN.test(password);

/** Password: required, 6-20 letters and digits, both present. */
export function checkPassword(value: string | undefined): Refusal | null {
  if (!value) return refuse('passwordRequired');
  return isValidPassword(value) ? null : refuse('passwordRule');
}

/** Confirm password: required and equal to the password. */
export function checkConfirm(value: string | undefined, password: string | undefined): Refusal | null {
  if (!value) return refuse('confirmRequired');
  return value === password ? null : refuse('passwordsDiffer');
}

/**
 * An e-mail address: one @, no spaces, a domain of at least two non-empty dot-separated labels (so no
 * `a@b..com`, `a@b.c.` or `a@.b.com`), at most 254 characters.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export const isValidEmail = (email: string): boolean => email.length <= 254 && EMAIL_PATTERN.test(email);

/** The trimmed, lower-cased address, or null when it is not one. */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return isValidEmail(email) ? email : null;
}

/** E-mail: required; login says "valid", registration and reset say "correct" (spec §5). */
export function checkEmail(value: string | undefined, flow: 'login' | 'account'): Refusal | null {
  if (blank(value)) return refuse('emailRequired');
  if (normalizeEmail(value!) !== null) return null;
  return refuse(flow === 'login' ? 'badLoginEmail' : 'badEmail');
}

/**
 * Required text (spec §5, "characters excluding spaces and double quotes"): the value holds at least one
 * character once its spaces and double quotes are left out. Spaces inside are fine (a name as on a passport,
 * "ZHANG Wei"); nothing but spaces is the required message, nothing but spaces and double quotes the caller's.
 * The caller names its messages; the default ones are the name field's.
 */
export function checkRequiredText(
  value: string | undefined,
  codes: { required: MessageCode; invalid: MessageCode } = { required: 'nameRequired', invalid: 'nameInvalid' },
): Refusal | null {
  if (blank(value)) return refuse(codes.required);
  if (value!.replace(/[\s"]/g, '') === '') return refuse(codes.invalid);
  return null;
}

/** A name (or any one-line text) as kept and compared: ends trimmed, each run of spaces inside one space. */
export const normalizeName = (raw: string): string => raw.trim().replace(/\s+/g, ' ');

/** The name of a participant: the required-text rule with the name's messages. */
export const checkName = (value: string | undefined): Refusal | null => checkRequiredText(value);

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK_CODES = '10X98765432';

/** GB 11643: 17 digits and a check character computed from them (mod 11); x counts as X. */
export function isValidIdCard(value: string): boolean {
  const v = value.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(v)) return false;
  const sum = ID_WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(v[i]), 0);
  return ID_CHECK_CODES[sum % 11] === v[17];
}

/**
 * Certificate number formats other than the ID card: a passport is 5-20 letters or digits (countries
 * differ); the Hong Kong/Macao mainland travel permit is H or M and 8 digits (10 on the older booklet); the
 * Taiwan mainland travel permit is 8 digits (10 on the older booklet, which may end in a check letter,
 * written bare or in brackets), optionally led by one letter as some registration systems record it.
 */
const CERTIFICATE_PATTERNS: Record<Exclude<CertificateType, 1>, { pattern: RegExp; code: MessageCode }> = {
  [CERTIFICATE_TYPES.passport]: { pattern: /^[A-Z0-9]{5,20}$/, code: 'passportInvalid' },
  [CERTIFICATE_TYPES.hkMacaoPermit]: { pattern: /^[HM]\d{8}(\d{2})?$/, code: 'hkMacaoPermitInvalid' },
  [CERTIFICATE_TYPES.taiwanPermit]: {
    pattern: /^[A-Z]?\d{8}(\d{2}(\([A-Z]\)|[A-Z])?)?$/,
    code: 'taiwanPermitInvalid',
  },
};

/** Certificate number of a certificate type: required, and the type's format (ID card: its checksum). */
export function checkCertificateNumber(type: CertificateType, raw: string | undefined): Refusal | null {
  if (blank(raw)) return refuse('certificateRequired');
  const value = raw!.trim().toUpperCase();
  if (type === CERTIFICATE_TYPES.idCard) return isValidIdCard(value) ? null : refuse('idCardInvalid');
  const { pattern, code } = CERTIFICATE_PATTERNS[type];
  return pattern.test(value) ? null : refuse(code);
}

/** Bib: letters and digits (at most 20), not all zeros, after trimming. */
export function checkBib(raw: string | undefined): Refusal | null {
  if (blank(raw)) return refuse('bibRequired');
  const value = raw!.trim();
  if (!/^[A-Za-z0-9]{1,20}$/.test(value) || /^0+$/.test(value)) return refuse('bibInvalid');
  return null;
}

/**
 * URL: an http or https address with a host (请输入正确的网址). A protocol-relative `//host/...` link is
 * accepted too (spec §5 "web links starting http, https or //").
 */
export function isValidUrl(value: string): boolean {
  const text = value.trim();
  if (/\s/.test(text) || !/^(https?:)?\/\//i.test(text)) return false;
  try {
    const url = new URL(text.startsWith('//') ? `https:${text}` : text);
    return url.hostname !== '' && !url.hostname.startsWith('.') && !url.hostname.endsWith('..');
  } catch {
    return false;
  }
}

export function checkUrl(value: string | undefined): Refusal | null {
  if (blank(value)) return null;
  return isValidUrl(value!) ? null : refuse('badUrl');
}

/** Positive integer without a leading zero: 1, 10, 250; not 0, 01, -1, 1.5. */
export const POSITIVE_INTEGER_PATTERN = /^[1-9]\d*$/;

export function checkPositiveInteger(value: string | number | undefined): Refusal | null {
  if (value === undefined || value === '') return null;
  return POSITIVE_INTEGER_PATTERN.test(String(value).trim()) ? null : refuse('positiveInteger');
}

/** Upload extensions (spec §5), compared case-insensitively. */
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp'] as const;
export const FILE_EXTENSIONS = [...IMAGE_EXTENSIONS, 'xls', 'xlsx', 'doc', 'docx', 'zip', 'pdf'] as const;

/** The lower-cased extension of a file name, '' without one. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** Upload type: the file name's extension is on the list ('文件格式不正确'). */
export function checkUploadExtension(fileName: string, allowed: readonly string[] = FILE_EXTENSIONS): Refusal | null {
  return allowed.includes(extensionOf(fileName)) ? null : refuse('badFileType');
}

export const SIZE_UNITS = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const;
export type SizeUnit = keyof typeof SIZE_UNITS;
export interface SizeLimit {
  size: number;
  unit: SizeUnit;
}

/** Upload size: at most `limit` (a size of 0 is no limit): 'Please upload a file smaller than N unit'. */
export function checkUploadSize(bytes: number, limit: SizeLimit): Refusal | null {
  if (limit.size <= 0 || bytes <= limit.size * SIZE_UNITS[limit.unit]) return null;
  return refuse('fileTooBig', { size: limit.size, unit: limit.unit });
}

/** Upload count: at most `max` files (0 is unlimited): '文件超出N个限制'. */
export function checkUploadCount(count: number, max: number): Refusal | null {
  return max <= 0 || count <= max ? null : refuse('tooManyFiles', { count: max });
}

export interface ImageSize {
  width: number;
  height: number;
}

/** Exact image size: the required width and height, else the required and the actual px. */
export function checkImageSize(actual: ImageSize, required: ImageSize): Refusal | null {
  if (actual.width === required.width && actual.height === required.height) return null;
  return refuse('imageSizeMismatch', {
    width: required.width,
    height: required.height,
    actualWidth: actual.width,
    actualHeight: actual.height,
  });
}
