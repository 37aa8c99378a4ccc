import { useTranslation } from 'react-i18next';
import { CERTIFICATE_TYPE_LIST, type CertificateType } from '#contract/enums';
import type { Refusal } from '#contract/messages';
import { checkCertificateNumber, checkName } from '#contract/rules';
import { refusalText } from '@/lib/form-rules';
import { FormField } from './form-field';

export interface IdentityValue {
  name: string;
  certificateType: CertificateType;
  certificateNumber: string;
}

export const emptyIdentity: IdentityValue = { name: '', certificateType: 1, certificateNumber: '' };

export interface IdentityErrors {
  name: Refusal | null;
  certificateNumber: Refusal | null;
}

export function validateIdentity(v: IdentityValue): IdentityErrors {
  return { name: checkName(v.name), certificateNumber: checkCertificateNumber(v.certificateType, v.certificateNumber) };
}

/** Name, certificate type and number, checked on blur and on submit (spec §5). */
export function IdentityFields({
  value,
  onChange,
  errors,
  onErrors,
}: {
  value: IdentityValue;
  onChange: (v: IdentityValue) => void;
  errors: IdentityErrors;
  onErrors: (e: IdentityErrors) => void;
}) {
  const { t } = useTranslation();
  const blur = (field: keyof IdentityErrors) => {
    onErrors({ ...errors, [field]: validateIdentity(value)[field] });
  };
  // A message stays until the value changes (then goes until the field is left again): the visitor who
  // fixes a field and clicks the button never has a message vanish, and the button move, under the pointer.
  const edit = (field: keyof IdentityErrors, next: IdentityValue) => {
    onChange(next);
    if (errors[field]) onErrors({ ...errors, [field]: null });
  };
  return (
    <>
      <FormField label={t('search.fields.name')} error={errors.name ? refusalText(errors.name) : null}>
        {(p) => (
          <input
            {...p}
            className="search-input"
            autoComplete="name"
            placeholder={t('search.fields.namePlaceholder')}
            value={value.name}
            onChange={(e) => edit('name', { ...value, name: e.target.value })}
            onBlur={() => blur('name')}
          />
        )}
      </FormField>
      <FormField label={t('search.fields.certificateType')}>
        {(p) => (
          <select
            {...p}
            className="search-input"
            value={value.certificateType}
            onChange={(e) => {
              const next = { ...value, certificateType: Number(e.target.value) as CertificateType };
              onChange(next);
              if (errors.certificateNumber)
                onErrors({ ...errors, certificateNumber: validateIdentity(next).certificateNumber });
            }}
          >
            {CERTIFICATE_TYPE_LIST.map((type) => (
              <option key={type} value={type}>
                {t(`search.certificateTypes.${type}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        label={t('search.fields.certificateNumber')}
        error={errors.certificateNumber ? refusalText(errors.certificateNumber) : null}
      >
        {(p) => (
          <input
            {...p}
            className="search-input"
            autoComplete="off"
            placeholder={t('search.fields.certificateNumberPlaceholder')}
            value={value.certificateNumber}
            onChange={(e) => edit('certificateNumber', { ...value, certificateNumber: e.target.value })}
            onBlur={() => blur('certificateNumber')}
          />
        )}
      </FormField>
    </>
  );
}
