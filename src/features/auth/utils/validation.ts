/**
 * The validation rules of the login drawer (spec §5), as pure functions that answer the translation key of
 * the message to show, or null when the value passes. The forms turn them into antd rules (form-rules.ts).
 */
export type AuthMessageKey =
  | 'auth.validation.phoneRequired'
  | 'auth.validation.phoneInvalid'
  | 'auth.validation.captchaRequired'
  | 'auth.validation.passwordRequired'
  | 'auth.validation.passwordRule'
  | 'auth.validation.emailRequired'
  | 'auth.validation.emailLogin'
  | 'auth.validation.emailCorrect'
  | 'auth.validation.emailRegistered'
  | 'auth.validation.confirmRequired'
  | 'auth.validation.confirmMismatch';

const blank = (value: string | undefined | null) => !value || value.trim() === '';

/** Mainland mobile number: 11 digits, starting 1, second digit 3-9 (password reset flow). */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
/** 6-20 letters and digits, containing both. */
export const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z\d]{6,20}$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Phone required; in the reset flow (`strict`) it must also be a correct mainland mobile number. */
export function checkPhone(value: string | undefined, { strict = false } = {}): AuthMessageKey | null {
  if (blank(value)) return 'auth.validation.phoneRequired';
  if (strict && !PHONE_PATTERN.test(value!.trim())) return 'auth.validation.phoneInvalid';
  return null;
}

/** Verification code: required, not only spaces. */
export function checkCaptcha(value: string | undefined): AuthMessageKey | null {
  return blank(value) ? 'auth.validation.captchaRequired' : null;
}

/** Password: required, 6-20 letters and digits, both present. */
export function checkPassword(value: string | undefined): AuthMessageKey | null {
  if (!value) return 'auth.validation.passwordRequired';
  return PASSWORD_PATTERN.test(value) ? null : 'auth.validation.passwordRule';
}

/** Email: required; login says "valid", registration and reset say "correct" (spec §5). */
export function checkEmail(value: string | undefined, flow: 'login' | 'account'): AuthMessageKey | null {
  if (blank(value)) return 'auth.validation.emailRequired';
  if (EMAIL_PATTERN.test(value!.trim())) return null;
  return flow === 'login' ? 'auth.validation.emailLogin' : 'auth.validation.emailCorrect';
}

/** Confirm password: required and equal to the password. */
export function checkConfirm(value: string | undefined, password: string | undefined): AuthMessageKey | null {
  if (!value) return 'auth.validation.confirmRequired';
  return value === password ? null : 'auth.validation.confirmMismatch';
}
