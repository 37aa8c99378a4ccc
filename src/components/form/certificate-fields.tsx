import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CERTIFICATE_TYPE_LABELS,
  CERTIFICATE_TYPE_LIST,
  CERTIFICATE_TYPES,
  type CertificateType,
} from '#contract/enums';
import { checkCertificateNumber } from '#contract/rules';
import type { FormCheck } from '@/lib/form-rules';
import { fieldClass, type CheckOn } from './field-item';
import { TextField, type FieldInputProps } from './text-field';

/**
 * Certificate type and number (spec §3 certificate types, §5): the number follows the rule of the chosen type
 * (ID card checksum, passport, the two travel permits) and is checked again when the type changes once the
 * visitor has typed or been told about it. The type is a native select: every keyboard, screen reader and
 * phone knows how to use one. Values: `certificateType` (a number, ID card first) and `certificateNumber`.
 */
export function CertificateFields({
  typeName = 'certificateType',
  numberName = 'certificateNumber',
  typeLabel,
  numberLabel,
  numberPlaceholder,
  checkOn = 'blur',
  numberInputProps,
  numberChecks,
}: {
  typeName?: string;
  numberName?: string;
  typeLabel: React.ReactNode;
  numberLabel: React.ReactNode;
  numberPlaceholder?: string;
  checkOn?: CheckOn;
  numberInputProps?: FieldInputProps;
  /** Checks of the number instead of the type's rule (a form whose number may come back masked, say). */
  numberChecks?: FormCheck[];
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <>
      <Form.Item
        name={typeName}
        label={typeLabel}
        className={fieldClass(false, 'form-field--select')}
        initialValue={CERTIFICATE_TYPES.idCard}
        getValueFromEvent={(e: React.ChangeEvent<HTMLSelectElement>) => Number(e.target.value) as CertificateType}
      >
        <select className="form-select">
          {CERTIFICATE_TYPE_LIST.map((type) => (
            <option key={type} value={type}>
              {t(CERTIFICATE_TYPE_LABELS[type])}
            </option>
          ))}
        </select>
      </Form.Item>
      <TextField
        name={numberName}
        label={numberLabel}
        placeholder={numberPlaceholder}
        checkOn={checkOn}
        dependencies={[typeName]}
        checks={
          numberChecks ?? [(value) => checkCertificateNumber(form.getFieldValue(typeName) as CertificateType, value)]
        }
        inputProps={{ autoComplete: 'off', ...numberInputProps }}
      />
    </>
  );
}
