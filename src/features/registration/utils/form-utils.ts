import { isCertificateType } from '#contract/enums';
import type { LocalText, RegistrationForm } from '#contract/registration-form';
import type { RunnerKey } from '#contract/registration-screens';
import { pickLang } from '@/lib/pick-lang';
import type { Language } from '@/stores/app-store';

/** A document text in the visitor's language (English falls back to Chinese). */
export const localText = (language: Language, text: LocalText | undefined): string =>
  text ? pickLang(language, text.zh, text.en) : '';

/**
 * The runner's name and certificate as filled in a form: the name is the `name` field (else the first
 * input), the certificate the form's certificate number and the type field it names. Null while one is
 * missing.
 */
export function runnerKeyOf(form: RegistrationForm, values: Readonly<Record<string, unknown>>): RunnerKey | null {
  const nameField = form.fields.find((f) => f.key === 'name') ?? form.fields.find((f) => f.type === 'input');
  const numberField = form.fields.find((f) => f.type === 'certificateNumber');
  if (!nameField || !numberField || numberField.type !== 'certificateNumber') return null;
  const name = values[nameField.key];
  const certificateType = values[numberField.typeField];
  const certificateNumber = values[numberField.key];
  if (typeof name !== 'string' || name.trim() === '') return null;
  if (!isCertificateType(certificateType)) return null;
  if (typeof certificateNumber !== 'string' || certificateNumber.trim() === '') return null;
  return { name: name.trim(), certificateType, certificateNumber: certificateNumber.trim() };
}
