/**
 * The search pages' forms on the one form stack (antd Form with the shared fields of components/form): the
 * form shell, the identity fields (name, certificate type and number) and the bib field, each checked on
 * leaving it and on submit (spec §5), with a message line kept under every field.
 */
import { Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CertificateType } from '#contract/enums';
import { checkBib } from '#contract/rules';
import { CertificateFields } from '@/components/form/certificate-fields';
import { NameField, TextField } from '@/components/form/text-field';
import { useAnnounceFormErrors } from '@/components/form/use-announce-form-errors';
import { AntdScope } from '@/components/ui/antd-scope';

/** What the identity fields hold. */
export interface IdentityValues {
  name: string;
  certificateType: CertificateType;
  certificateNumber: string;
}

/**
 * A search form: `name` makes its fields' ids unique on the page; `onSearch` gets the values once every
 * field passes (a field's message is read out by the page's live region as it appears).
 */
export function SearchForm<Values>({
  name,
  label,
  inline = false,
  onSearch,
  children,
}: {
  name: string;
  /** The form's accessible name (the page title). */
  label: string;
  /** One field and the button on a line (the photo search). */
  inline?: boolean;
  onSearch: (values: Values) => void;
  children: React.ReactNode;
}) {
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  useAnnounceFormErrors(node);
  return (
    <AntdScope>
      <div ref={setNode}>
        <Form<Values>
          name={name}
          layout="vertical"
          requiredMark={false}
          className={inline ? 'search-form search-form--inline' : 'search-form'}
          aria-label={label}
          noValidate
          onFinish={onSearch}
        >
          {children}
        </Form>
      </div>
    </AntdScope>
  );
}

/** Name, certificate type and number. */
export function IdentityFields() {
  const { t } = useTranslation();
  return (
    <>
      <NameField label={t('search.fields.name')} placeholder={t('search.fields.namePlaceholder')} />
      <CertificateFields
        typeLabel={t('search.fields.certificateType')}
        numberLabel={t('search.fields.certificateNumber')}
        numberPlaceholder={t('search.fields.certificateNumberPlaceholder')}
      />
    </>
  );
}

/** The bib number: letters and digits, not all zeros. */
export function BibField() {
  const { t } = useTranslation();
  return (
    <TextField
      name="bib"
      label={t('search.fields.bib')}
      placeholder={t('search.fields.bibPlaceholder')}
      checks={[checkBib]}
    />
  );
}
