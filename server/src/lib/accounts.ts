/**
 * The masking of personal data used in answers and logs (the account rules are the contract's: #contract/rules).
 */
import { maskCertNo } from './race-center.ts';

/** 13800138000 → 138****8000. */
export function maskPhone(phone: string): string {
  if (phone.length < 7) return '*'.repeat(phone.length);
  return `${phone.slice(0, 3)}${'*'.repeat(phone.length - 7)}${phone.slice(-4)}`;
}

/** runner@example.com → r***r@example.com; a@example.com → a***@example.com. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '***';
  const local = email.slice(0, at);
  const last = local.length > 1 ? local.slice(-1) : '';
  return `${local.slice(0, 1)}***${last}${email.slice(at)}`;
}

export const maskDestination = (destination: string) =>
  destination.includes('@') ? maskEmail(destination) : maskPhone(destination);

/**
 * A mainland ID number standing alone: 18 characters (17 digits and a digit or X checksum) or the old 15
 * digits. Not inside a longer run of letters and digits (hashes, tokens).
 */
const ID_NUMBER = /(?<![0-9A-Za-z])(?:\d{17}[\dXx]|\d{15})(?![0-9A-Za-z])/g;

/**
 * Masks every ID number (3201**********1234), email address and mainland mobile number in a text (log
 * lines, URLs and their query strings, percent-encoded or not).
 */
export function maskPersonalData(text: string): string {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // keep the raw text
  }
  return decoded
    .replace(ID_NUMBER, (id) => maskCertNo(id))
    .replace(/[^\s@&?=/"':,;<>]+@[^\s@&?=/"':,;<>]+/g, (email) => maskEmail(email))
    .replace(/(?<!\d)1[3-9]\d{9}(?!\d)/g, (phone) => maskPhone(phone));
}
