/**
 * The registration-form renderer (issue 13 §2): an antd Form of a RegistrationForm document, every field
 * type of contract/registration-form.ts with its label, help and placeholder in the visitor's language.
 * - Only the fields `visibleFields` shows are mounted (showWhen): a hidden field has no value.
 * - Each field is checked by the contract's `checkFieldValue` (the same message codes as the server, in the
 *   visitor's language through messages.<code>): text on blur (spec §5), choices on change; `fieldDependencies`
 *   re-checks a field when a field it reads changes. The region is also checked against the region data.
 * - Submit checks every shown field and hands `cleanSubmission`'s values on; a draft hands the filled values
 *   on unchecked (the server checks what is filled).
 * - Refusals the server answers per field (`data.fields`) show on their fields; every new message is read
 *   out (use-announce-form-errors).
 */
import { Button, Checkbox, ConfigProvider, Form, Input, Radio, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CERTIFICATE_TYPE_LABELS,
  CERTIFICATE_TYPE_LIST,
  CERTIFICATE_TYPES,
  GENDER_LABELS,
  type CertificateType,
} from '#contract/enums';
import { PARTICIPANT_KEYS } from '#contract/entry';
import type { Refusal } from '#contract/messages';
import {
  checkFieldValue,
  cleanSubmission,
  fieldDependencies,
  visibleFields,
  type DateField,
  type FormField,
  type RegistrationForm,
  type SubmissionContext,
} from '#contract/registration-form';
import type { SizeStockAnswer } from '#contract/registration-screens';
import { useSelectClear } from '@/components/form/clear-button';
import { birthdayPickerStart, OpeningDatePicker } from '@/components/form/date-field';
import { FieldItem, type CheckOn } from '@/components/form/field-item';
import { RegionPicker, regionCheck } from '@/components/form/region-picker';
import { UploadField } from '@/components/form/upload-field';
import { useAnnounceFormErrors } from '@/components/form/use-announce-form-errors';
import { showFieldRefusals } from '@/lib/field-refusals';
import type { FormCheck } from '@/lib/form-rules';
import { useAppStore, type Language } from '@/stores/app-store';
import { getSizeStock } from '../api/form-lookups';
import { localText, runnerKeyOf } from '../utils/form-utils';
import {
  ClothingSizeInput,
  CountrySelect,
  DATE_FORMAT,
  FeeStateTag,
  PastEventsInput,
  ScoreVerificationInput,
  sizeLeftOf,
  useCountries,
} from './field-inputs';
import { OwnResultsProvider, useOwnResults } from './own-results';

export type FormValues = Record<string, unknown>;

export interface RegistrationFormViewProps {
  form: RegistrationForm;
  raceId: string;
  /** The form's name on the page (the prefix of its field ids). */
  name?: string;
  initialValues?: FormValues;
  /** Values the page fixes (the sign-up's chosen item): shown disabled, always submitted as given. */
  lockedValues?: FormValues;
  /** Values set by the organiser (the score-verification fee state), shown read-only. */
  serverValues?: FormValues;
  /** The server's refusals by field key (a refused save). */
  fieldErrors?: Record<string, Refusal>;
  /** The checked, cleaned values of a submission. */
  onSubmit: (values: FormValues) => void | Promise<void>;
  /** Saving a draft: the filled, cleaned values, unchecked. No draft button without it. */
  onSaveDraft?: (values: FormValues) => void | Promise<void>;
  /** Every change by the person filling it in: the filled, cleaned values, unchecked (the sign-up's draft). */
  onValuesChange?: (values: FormValues) => void;
  submitting?: boolean;
  submitLabel?: string;
  /** Shown between the fields and the buttons (the sign-up's slider check). */
  beforeActions?: ReactNode;
}

/** Text types are checked on blur (spec §5), choices as they change. */
const BLUR_TYPES: readonly FormField['type'][] = [
  'input',
  'textarea',
  'number',
  'email',
  'phone',
  'url',
  'certificateNumber',
  'scoreVerification',
];
/** Fields that take a whole row of the grid. */
const WIDE_TYPES: readonly FormField['type'][] = [
  'textarea',
  'radio',
  'checkbox',
  'image',
  'file',
  'region',
  'clothingSize',
  'pastEvents',
  'scoreVerification',
];

const GENDER_CODES = [1, 2, 0] as const;

/** A personal number as the server masks it in answers ('1101**********002X', '138****8000'). */
const isMasked = (value: unknown): value is string => typeof value === 'string' && value.includes('*');

/** Where a date field's calendar opens while empty: the birthday near a plausible adult's, another date at its latest. */
function datePickerStart(field: DateField): Dayjs | undefined {
  const earliest = field.min ? dayjs(field.min, DATE_FORMAT) : undefined;
  const latest = field.max ? dayjs(field.max, DATE_FORMAT) : undefined;
  return field.key === PARTICIPANT_KEYS.birthday ? birthdayPickerStart(dayjs(), earliest, latest) : latest;
}

export function RegistrationFormView({
  form,
  raceId,
  name = 'registration-form',
  initialValues: givenValues,
  lockedValues,
  serverValues = {},
  fieldErrors,
  onSubmit,
  onSaveDraft,
  onValuesChange,
  submitting = false,
  submitLabel,
  beforeActions,
}: RegistrationFormViewProps) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const [instance] = Form.useForm<FormValues>();
  const initialValues = useMemo(
    () => (lockedValues ? { ...givenValues, ...lockedValues } : givenValues),
    [givenValues, lockedValues],
  );
  const watched = Form.useWatch((values: FormValues) => values, { form: instance, preserve: true });
  const values = useMemo(() => ({ ...initialValues, ...watched }), [initialValues, watched]);
  const visible = visibleFields(form, values);

  const countries = useCountries();
  const [stock, setStock] = useState<Record<string, SizeStockAnswer>>({});
  const sizeFields = form.fields.filter((f) => f.type === 'clothingSize').map((f) => f.key);
  const sizeKey = sizeFields.join(',');
  const channel = form.channel ?? 'public';
  useEffect(() => {
    let live = true;
    for (const key of sizeKey ? sizeKey.split(',') : []) {
      getSizeStock(raceId, channel, key).then(
        (answer) => live && setStock((s) => ({ ...s, [key]: answer })),
        () => undefined, // the document's stock stands in; the server decides at submission
      );
    }
    return () => {
      live = false;
    };
  }, [raceId, channel, sizeKey]);

  const countryList = countries.status.state === 'ready' ? countries.status.list : undefined;
  const context = useMemo<SubmissionContext>(
    () => ({
      ...(countryList ? { countryExists: (code: string) => countryList.some((c) => c.twoCode === code) } : {}),
      sizeLeft: (key, size) => sizeLeftOf(stock[key], size),
    }),
    [countryList, stock],
  );

  const runnerKey = useCallback(() => runnerKeyOf(form, instance.getFieldsValue(true) as FormValues), [form, instance]);
  const ownResults = useOwnResults(raceId, runnerKey);

  // The server's refusals, on their fields.
  useEffect(() => {
    if (!fieldErrors) return;
    const [first] = showFieldRefusals(instance, fieldErrors);
    if (first) instance.scrollToField(first, { block: 'center' });
  }, [fieldErrors, instance, language]);

  const [node, setNode] = useState<HTMLElement | null>(null);
  useAnnounceFormErrors(node);

  const submit = async () => {
    await onSubmit(cleanSubmission(form, { ...(instance.getFieldsValue(true) as FormValues), ...lockedValues }));
  };
  const saveDraft = async () => {
    if (!onSaveDraft) return;
    await onSaveDraft(cleanSubmission(form, instance.getFieldsValue(true) as FormValues));
  };

  return (
    <OwnResultsProvider value={ownResults}>
      <section ref={setNode} className="rs-form-wrap">
        <Form<FormValues>
          form={instance}
          name={name}
          layout="vertical"
          preserve={false}
          initialValues={initialValues}
          onFinish={() => void submit()}
          onValuesChange={
            onValuesChange
              ? () => onValuesChange(cleanSubmission(form, instance.getFieldsValue(true) as FormValues))
              : undefined
          }
          scrollToFirstError={{ block: 'center' }}
          className="rs-form"
          requiredMark
        >
          {visible.map((field) => (
            <FieldView
              key={field.key}
              field={field}
              form={form}
              formName={name}
              language={language}
              context={context}
              stock={stock[field.key]}
              countries={countries}
              serverValue={serverValues[field.key]}
              initialValue={initialValues?.[field.key]}
              locked={lockedValues !== undefined && Object.hasOwn(lockedValues, field.key)}
              getValues={() => instance.getFieldsValue(true) as FormValues}
            />
          ))}
          {beforeActions}
          <div className="rs-form__actions">
            {onSaveDraft ? (
              <Button size="large" onClick={() => void saveDraft()} disabled={submitting} data-testid="save-draft">
                {t('registration.form.saveDraft')}
              </Button>
            ) : null}
            <Button type="primary" size="large" htmlType="submit" loading={submitting} data-testid="submit-form">
              {submitLabel ?? t('registration.form.submit')}
            </Button>
          </div>
        </Form>
      </section>
    </OwnResultsProvider>
  );
}

interface FieldViewProps {
  field: FormField;
  form: RegistrationForm;
  formName: string;
  language: Language;
  context: SubmissionContext;
  stock?: SizeStockAnswer;
  countries: ReturnType<typeof useCountries>;
  serverValue: unknown;
  /** The field's value as loaded (a saved application's). */
  initialValue: unknown;
  /** A value the page fixes: the input is disabled. */
  locked?: boolean;
  getValues: () => FormValues;
}

/** One field: disabled when the page fixes its value. */
function FieldView(props: FieldViewProps) {
  const view = <FieldInput {...props} />;
  return props.locked ? <ConfigProvider componentDisabled>{view}</ConfigProvider> : view;
}

/** One field: its Form.Item (label, help, checks, dependencies) and its input. */
function FieldInput({
  field,
  form,
  formName,
  language,
  context,
  stock,
  countries,
  serverValue,
  initialValue,
  getValues,
}: FieldViewProps) {
  const { t } = useTranslation();
  const clear = useSelectClear();
  const labelId = `${formName}_${field.key}_label`;
  const label = <span id={labelId}>{localText(language, field.label)}</span>;
  const placeholder = field.placeholder ? localText(language, field.placeholder) : undefined;
  const help = field.help ? localText(language, field.help) : undefined;
  const checkOn: CheckOn = BLUR_TYPES.includes(field.type) ? 'blur' : 'change';
  const wide = WIDE_TYPES.includes(field.type);

  const check = useMemo(() => {
    const own = (value: unknown) =>
      // A masked number the server answered, sent back unchanged, stands for the stored one (the server
      // checks that one): not checked again here.
      isMasked(value) && value === initialValue
        ? null
        : checkFieldValue(form, field.key, { ...getValues(), [field.key]: value }, context);
    if (field.type !== 'region') return own as FormCheck;
    const inData = regionCheck(!!field.required);
    return (async (value: unknown) => own(value) ?? (await inData(value))) as FormCheck;
  }, [form, field, context, getValues, initialValue]);

  const item = {
    name: field.key,
    label,
    extra: help,
    checks: [check],
    checkOn,
    required: !!field.required,
    wide,
    dependencies: fieldDependencies(field),
    className: `rs-field rs-field--${field.type}`,
  };

  switch (field.type) {
    case 'input':
      return (
        <FieldItem {...item}>
          <Input placeholder={placeholder} autoComplete={field.key === 'name' ? 'name' : 'off'} />
        </FieldItem>
      );
    case 'textarea':
      return (
        <FieldItem {...item}>
          <Input.TextArea
            placeholder={placeholder}
            maxLength={field.maxLength}
            showCount={field.maxLength !== undefined}
            autoSize={{ minRows: 3, maxRows: 8 }}
          />
        </FieldItem>
      );
    case 'number':
      return (
        <FieldItem {...item}>
          <Input placeholder={placeholder} inputMode="numeric" />
        </FieldItem>
      );
    case 'email':
      return (
        <FieldItem {...item}>
          <Input placeholder={placeholder} inputMode="email" autoComplete="email" maxLength={100} />
        </FieldItem>
      );
    case 'phone':
      return (
        <FieldItem {...item}>
          <Input placeholder={placeholder} inputMode="tel" autoComplete="tel" maxLength={11} />
        </FieldItem>
      );
    case 'url':
      return (
        <FieldItem {...item}>
          <Input placeholder={placeholder} inputMode="url" autoComplete="url" />
        </FieldItem>
      );
    case 'certificateNumber':
      return (
        <FieldItem {...item}>
          <Input placeholder={placeholder} autoComplete="off" maxLength={30} />
        </FieldItem>
      );
    case 'certificateType':
      return (
        <FieldItem
          {...item}
          initialValue={CERTIFICATE_TYPES.idCard}
          getValueFromEvent={(e: React.ChangeEvent<HTMLSelectElement>) => Number(e.target.value) as CertificateType}
          className={`${item.className} form-field--select`}
        >
          <select className="form-select">
            {CERTIFICATE_TYPE_LIST.map((type) => (
              <option key={type} value={type}>
                {t(CERTIFICATE_TYPE_LABELS[type])}
              </option>
            ))}
          </select>
        </FieldItem>
      );
    case 'gender':
      return (
        <FieldItem {...item}>
          <Radio.Group
            options={GENDER_CODES.map((code) => ({ value: code, label: t(GENDER_LABELS[code]) }))}
            aria-labelledby={labelId}
            role="radiogroup"
          />
        </FieldItem>
      );
    case 'radio':
      return (
        <FieldItem {...item}>
          <Radio.Group
            aria-labelledby={labelId}
            role="radiogroup"
            options={field.options.map((o) => ({ value: o.value, label: localText(language, o.label) }))}
          />
        </FieldItem>
      );
    case 'checkbox':
      return (
        <FieldItem {...item}>
          <Checkbox.Group
            aria-labelledby={labelId}
            role="group"
            options={field.options.map((o) => ({ value: o.value, label: localText(language, o.label) }))}
          />
        </FieldItem>
      );
    case 'picker':
      return (
        <FieldItem {...item}>
          <Select
            allowClear={clear}
            placeholder={placeholder ?? t('registration.choose')}
            options={field.options.map((o) => ({ value: o.value, label: localText(language, o.label) }))}
            style={{ width: '100%' }}
          />
        </FieldItem>
      );
    case 'country':
      return (
        <FieldItem {...item}>
          <CountrySelect countries={countries} placeholder={placeholder ?? t('registration.country.placeholder')} />
        </FieldItem>
      );
    case 'date':
      return (
        <FieldItem
          {...item}
          getValueProps={(value: unknown) => ({
            value: typeof value === 'string' && value ? dayjs(value, DATE_FORMAT) : undefined,
          })}
          normalize={(value: Dayjs | null) => (value ? value.format(DATE_FORMAT) : undefined)}
        >
          <OpeningDatePicker
            format={DATE_FORMAT}
            placeholder={placeholder ?? DATE_FORMAT}
            opensAt={datePickerStart(field)}
            minDate={field.min ? dayjs(field.min, DATE_FORMAT) : undefined}
            maxDate={field.max ? dayjs(field.max, DATE_FORMAT) : undefined}
            style={{ width: '100%' }}
          />
        </FieldItem>
      );
    case 'image':
    case 'file':
      return (
        <FieldItem {...item}>
          <UploadField
            kind={field.type}
            maxSize={field.upload.maxSize}
            maxCount={field.upload.maxCount}
            imageSize={
              field.upload.width !== undefined && field.upload.height !== undefined
                ? { width: field.upload.width, height: field.upload.height }
                : undefined
            }
            confirmAuthenticity={field.upload.confirmAuthenticity}
            aria-labelledby={labelId}
          />
        </FieldItem>
      );
    case 'region':
      return (
        <FieldItem {...item}>
          <RegionPicker placeholder={placeholder} />
        </FieldItem>
      );
    case 'clothingSize':
      return (
        <FieldItem {...item}>
          <ClothingSizeInput field={field} stock={stock} labelId={labelId} />
        </FieldItem>
      );
    case 'pastEvents':
      return (
        <FieldItem {...item}>
          <PastEventsInput labelId={labelId} />
        </FieldItem>
      );
    case 'scoreVerification':
      return (
        <FieldItem {...item}>
          <ScoreVerificationInput field={field} labelId={labelId} />
        </FieldItem>
      );
    case 'scoreValidationPaid':
      // Set by the organiser only: shown, never a value of the form.
      return (
        <Form.Item label={label} extra={help} className="form-field rs-field rs-field--scoreValidationPaid">
          <FeeStateTag value={serverValue} labelId={labelId} />
        </Form.Item>
      );
  }
}
