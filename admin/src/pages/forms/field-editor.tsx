/**
 * One field of the form, edited in a drawer: its key, labels, help and placeholder in Chinese and English,
 * whether it is required, and what its type has (docs/registration-form.md): options with their labels, the
 * textarea's length, the date's limits, the upload's size, count and exact px, the size chart, the certificate
 * type field; the rules its type allows (lengths, limits, differs-from, positive integer, no blank text) and
 * when it shows (an earlier field's answers). Keys the editor does not know are kept. The field's problems
 * from the form checks are listed at the top. "Apply" gives the page the field; nothing is saved until the
 * page's "Save draft".
 */
import { Alert, Button, Drawer, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LocalText } from '#contract/registration-form';
import type { ConfigProblem } from '#contract/site-config/document-limits';
import { OPTION_TYPES, rulesFor, UPLOAD_TYPES, type EditedField } from './field-model';

type Row = Record<string, unknown>;

const asText = (value: unknown): LocalText => {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<LocalText>;
  return { zh: typeof v.zh === 'string' ? v.zh : '', en: typeof v.en === 'string' ? v.en : '' };
};
const asRows = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const asNumber = (value: unknown) => (typeof value === 'number' ? value : null);
/** Sets or, for undefined, removes a key (an empty optional setting leaves the document). */
const withKey = <T extends Row>(row: T, key: string, value: unknown): T => {
  const next = { ...row } as Row;
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next as T;
};

/** A text in both languages; an optional one left empty in both is removed. */
function LocalTextInput({
  label,
  value,
  optional,
  onChange,
  testId,
}: {
  label: string;
  value: unknown;
  optional?: boolean;
  onChange: (next: LocalText | undefined) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const text = asText(value);
  const set = (lang: 'zh' | 'en', v: string) => {
    const next = { ...text, [lang]: v };
    onChange(optional && !next.zh && !next.en ? undefined : next);
  };
  return (
    <fieldset className="forms-fieldset">
      <legend>{label}</legend>
      <Space.Compact block>
        <Input
          addonBefore={t('forms.zh')}
          aria-label={`${label} ${t('forms.zh')}`}
          value={text.zh}
          onChange={(e) => set('zh', e.target.value)}
          data-testid={`${testId}-zh`}
        />
        <Input
          addonBefore={t('forms.en')}
          aria-label={`${label} ${t('forms.en')}`}
          value={text.en}
          onChange={(e) => set('en', e.target.value)}
          data-testid={`${testId}-en`}
        />
      </Space.Compact>
    </fieldset>
  );
}

/** Options (value and label): radio, checkbox, picker; the score claim's items. */
function OptionsInput({ value, onChange, label }: { value: unknown; onChange: (rows: Row[]) => void; label: string }) {
  const { t } = useTranslation();
  const rows = asRows(value);
  const set = (i: number, row: Row) => onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <fieldset className="forms-fieldset" data-testid="field-options">
      <legend>{label}</legend>
      {rows.map((row, i) => {
        const text = asText(row.label);
        return (
          <Space.Compact key={i} block className="forms-row">
            <Input
              aria-label={t('forms.field.optionValue', { n: i + 1 })}
              placeholder={t('forms.field.value')}
              value={typeof row.value === 'string' ? row.value : String(row.value ?? '')}
              onChange={(e) => set(i, { ...row, value: e.target.value })}
              style={{ width: '25%' }}
              data-testid={`option-${i}-value`}
            />
            <Input
              aria-label={t('forms.field.optionZh', { n: i + 1 })}
              placeholder={t('forms.zh')}
              value={text.zh}
              onChange={(e) => set(i, { ...row, label: { ...text, zh: e.target.value } })}
              data-testid={`option-${i}-zh`}
            />
            <Input
              aria-label={t('forms.field.optionEn', { n: i + 1 })}
              placeholder={t('forms.en')}
              value={text.en}
              onChange={(e) => set(i, { ...row, label: { ...text, en: e.target.value } })}
              data-testid={`option-${i}-en`}
            />
            <Button
              icon={<DeleteOutlined aria-hidden />}
              aria-label={t('forms.field.removeOption', { n: i + 1 })}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            />
          </Space.Compact>
        );
      })}
      <Button
        icon={<PlusOutlined aria-hidden />}
        onClick={() => onChange([...rows, { value: '', label: { zh: '', en: '' } }])}
        data-testid="add-option"
      >
        {t('forms.field.addOption')}
      </Button>
    </fieldset>
  );
}

/** The size chart of a clothing-size field. */
function SizesInput({ value, onChange }: { value: unknown; onChange: (rows: Row[]) => void }) {
  const { t } = useTranslation();
  const rows = asRows(value);
  const set = (i: number, row: Row) => onChange(rows.map((r, j) => (j === i ? row : r)));
  const number = (i: number, row: Row, key: string) => (
    <InputNumber
      aria-label={t(`forms.field.size.${key}`, { n: i + 1 })}
      placeholder={t(`forms.field.size.${key}Short`)}
      min={0}
      value={asNumber(row[key])}
      onChange={(v) => set(i, withKey(row, key, v === null ? undefined : v))}
      style={{ width: '16%' }}
    />
  );
  return (
    <fieldset className="forms-fieldset">
      <legend>{t('forms.field.sizes')}</legend>
      {rows.map((row, i) => {
        const text = asText(row.label);
        return (
          <Space.Compact key={i} block className="forms-row">
            <Input
              aria-label={t('forms.field.size.code', { n: i + 1 })}
              placeholder={t('forms.field.size.codeShort')}
              value={typeof row.code === 'string' ? row.code : ''}
              onChange={(e) => set(i, { ...row, code: e.target.value })}
              style={{ width: '14%' }}
            />
            <Input
              aria-label={t('forms.field.optionZh', { n: i + 1 })}
              placeholder={t('forms.zh')}
              value={text.zh}
              onChange={(e) => set(i, { ...row, label: { ...text, zh: e.target.value } })}
            />
            <Input
              aria-label={t('forms.field.optionEn', { n: i + 1 })}
              placeholder={t('forms.en')}
              value={text.en}
              onChange={(e) => set(i, { ...row, label: { ...text, en: e.target.value } })}
            />
            {number(i, row, 'chest')}
            {number(i, row, 'length')}
            {number(i, row, 'stock')}
            <Button
              icon={<DeleteOutlined aria-hidden />}
              aria-label={t('forms.field.removeOption', { n: i + 1 })}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            />
          </Space.Compact>
        );
      })}
      <Button
        icon={<PlusOutlined aria-hidden />}
        onClick={() => onChange([...rows, { code: '', label: { zh: '', en: '' } }])}
      >
        {t('forms.field.addSize')}
      </Button>
    </fieldset>
  );
}

/** The rules the type allows, with their settings and an optional message code. */
function RulesInput({
  field,
  others,
  onChange,
}: {
  field: EditedField;
  others: string[];
  onChange: (rows: Row[] | undefined) => void;
}) {
  const { t } = useTranslation();
  const allowed = rulesFor(field.type);
  const rows = asRows(field.rules);
  if (allowed.length === 0) return null;
  const set = (i: number, row: Row) => onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <fieldset className="forms-fieldset" data-testid="field-rules">
      <legend>{t('forms.field.rules')}</legend>
      {rows.map((row, i) => {
        const rule = String(row.rule ?? '');
        return (
          <Space.Compact key={i} block className="forms-row">
            <Select
              aria-label={t('forms.field.rule', { n: i + 1 })}
              value={rule}
              options={allowed.map((name) => ({ value: name, label: t(`forms.rules.${name}`) }))}
              onChange={(name: string) =>
                set(i, {
                  rule: name,
                  ...(name === 'differsFrom' ? { field: others[0] ?? '' } : {}),
                  ...(['min', 'max', 'minLength', 'maxLength'].includes(name) ? { value: 1 } : {}),
                })
              }
              style={{ width: '40%' }}
            />
            {['min', 'max', 'minLength', 'maxLength'].includes(rule) ? (
              <InputNumber
                aria-label={t('forms.field.ruleValue', { n: i + 1 })}
                value={asNumber(row.value)}
                min={rule.endsWith('Length') ? 0 : undefined}
                onChange={(v) => set(i, { ...row, value: v ?? 0 })}
              />
            ) : null}
            {rule === 'differsFrom' ? (
              <Select
                aria-label={t('forms.field.ruleField', { n: i + 1 })}
                value={typeof row.field === 'string' ? row.field : undefined}
                options={others.map((key) => ({ value: key, label: key }))}
                onChange={(key: string) => set(i, { ...row, field: key })}
                style={{ width: '30%' }}
              />
            ) : null}
            <Input
              aria-label={t('forms.field.ruleMessage', { n: i + 1 })}
              placeholder={t('forms.field.ruleMessageHint')}
              value={typeof row.message === 'string' ? row.message : ''}
              onChange={(e) => set(i, withKey(row, 'message', e.target.value || undefined))}
            />
            <Button
              icon={<DeleteOutlined aria-hidden />}
              aria-label={t('forms.field.removeRule', { n: i + 1 })}
              onClick={() => {
                const next = rows.filter((_, j) => j !== i);
                onChange(next.length > 0 ? next : undefined);
              }}
            />
          </Space.Compact>
        );
      })}
      <Button
        icon={<PlusOutlined aria-hidden />}
        onClick={() =>
          onChange([
            ...rows,
            {
              rule: allowed[0]!,
              ...(['min', 'max', 'minLength', 'maxLength'].includes(allowed[0]!) ? { value: 1 } : {}),
            },
          ])
        }
        data-testid="add-rule"
      >
        {t('forms.field.addRule')}
      </Button>
    </fieldset>
  );
}

export interface FieldEditorProps {
  /** The field and its place in the list (the drawer is made anew for each field it opens). */
  field: EditedField;
  index: number;
  /** Every field of the form (for the keys a rule or a condition may name, and the certificate type). */
  fields: readonly EditedField[];
  problems: readonly ConfigProblem[];
  onApply: (field: EditedField) => void;
  onClose: () => void;
}

export function FieldEditor({ field, index, fields, problems, onApply, onClose }: FieldEditorProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<EditedField>(field);
  const set = (key: string, value: unknown) => setDraft((d) => withKey(d, key, value));
  const earlier = fields.slice(0, index).map((f) => f.key);
  const others = fields.filter((_, i) => i !== index).map((f) => f.key);
  const showWhen = (draft.showWhen ?? null) as { field?: string; equals?: unknown } | null;
  const equalsText = showWhen
    ? (Array.isArray(showWhen.equals) ? showWhen.equals : [showWhen.equals ?? '']).map(String).join(', ')
    : '';
  const upload = (draft.upload ?? {}) as Row;
  const maxSize = (upload.maxSize ?? { size: 0, unit: 'MB' }) as { size?: number; unit?: string };
  const setUpload = (key: string, value: unknown) => set('upload', withKey(upload, key, value));
  const type = draft.type;

  return (
    <Drawer
      open
      width={720}
      title={t('forms.field.title', { key: field.key })}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('forms.cancel')}</Button>
          <Button type="primary" onClick={() => onApply(draft)} data-testid="field-apply">
            {t('forms.field.apply')}
          </Button>
        </Space>
      }
    >
      <div className="forms-field-editor" data-testid="field-editor">
        {problems.length > 0 && (
          <Alert
            type="error"
            showIcon
            title={t('forms.field.problems', { count: problems.length })}
            description={
              <ul className="forms-problem-list">
                {problems.map((p, i) => (
                  <li key={i}>
                    <code>{p.path}</code> {p.message}
                  </li>
                ))}
              </ul>
            }
          />
        )}
        <Typography.Paragraph>
          {t('forms.field.type')}: <strong>{t(`forms.types.${type}`, { defaultValue: type })}</strong> ({type})
        </Typography.Paragraph>
        <label className="forms-label">
          {t('forms.field.key')}
          <Input value={draft.key} onChange={(e) => set('key', e.target.value)} data-testid="field-key" />
          <span className="forms-hint">{t('forms.field.keyHint')}</span>
        </label>
        <LocalTextInput
          label={t('forms.field.label')}
          value={draft.label}
          onChange={(v) => set('label', v ?? { zh: '', en: '' })}
          testId="field-label"
        />
        <LocalTextInput
          label={t('forms.field.help')}
          value={draft.help}
          optional
          onChange={(v) => set('help', v)}
          testId="field-help"
        />
        <LocalTextInput
          label={t('forms.field.placeholder')}
          value={draft.placeholder}
          optional
          onChange={(v) => set('placeholder', v)}
          testId="field-placeholder"
        />
        {type !== 'scoreValidationPaid' && (
          <label className="forms-switch">
            <Switch
              checked={draft.required === true}
              onChange={(on) => set('required', on ? true : undefined)}
              data-testid="field-required"
            />
            {t('forms.field.required')}
          </label>
        )}
        {OPTION_TYPES.includes(type) && (
          <OptionsInput
            label={t('forms.field.options')}
            value={draft.options}
            onChange={(rows) => set('options', rows)}
          />
        )}
        {type === 'scoreVerification' && (
          <OptionsInput
            label={t('forms.field.items')}
            value={draft.items}
            onChange={(rows) => set('items', rows.length > 0 ? rows : undefined)}
          />
        )}
        {type === 'textarea' && (
          <label className="forms-label">
            {t('forms.field.maxLength')}
            <InputNumber
              min={1}
              value={asNumber(draft.maxLength)}
              onChange={(v) => set('maxLength', v ?? undefined)}
              style={{ width: 200 }}
            />
          </label>
        )}
        {type === 'date' && (
          <Space wrap>
            {(['min', 'max'] as const).map((key) => (
              <label key={key} className="forms-label">
                {t(`forms.field.date.${key}`)}
                <Input
                  placeholder="YYYY-MM-DD"
                  value={typeof draft[key] === 'string' ? (draft[key] as string) : ''}
                  onChange={(e) => set(key, e.target.value || undefined)}
                />
              </label>
            ))}
          </Space>
        )}
        {UPLOAD_TYPES.includes(type) && (
          <fieldset className="forms-fieldset">
            <legend>{t('forms.field.upload.title')}</legend>
            <Space wrap>
              <label className="forms-label">
                {t('forms.field.upload.maxSize')}
                <Space.Compact>
                  <InputNumber
                    min={0}
                    value={maxSize.size ?? 0}
                    onChange={(v) => setUpload('maxSize', { ...maxSize, size: v ?? 0 })}
                  />
                  <Select
                    aria-label={t('forms.field.upload.unit')}
                    value={maxSize.unit ?? 'MB'}
                    options={['B', 'KB', 'MB', 'GB'].map((u) => ({ value: u, label: u }))}
                    onChange={(u: string) => setUpload('maxSize', { ...maxSize, unit: u })}
                    style={{ width: 80 }}
                  />
                </Space.Compact>
              </label>
              <label className="forms-label">
                {t('forms.field.upload.maxCount')}
                <InputNumber
                  min={0}
                  value={asNumber(upload.maxCount) ?? 0}
                  onChange={(v) => setUpload('maxCount', v ?? 0)}
                />
              </label>
              {type === 'image' &&
                (['width', 'height'] as const).map((key) => (
                  <label key={key} className="forms-label">
                    {t(`forms.field.upload.${key}`)}
                    <InputNumber
                      min={1}
                      value={asNumber(upload[key])}
                      onChange={(v) => setUpload(key, v ?? undefined)}
                    />
                  </label>
                ))}
            </Space>
            <label className="forms-switch">
              <Switch
                checked={upload.confirmAuthenticity === true}
                onChange={(on) => setUpload('confirmAuthenticity', on ? true : undefined)}
              />
              {t('forms.field.upload.confirmAuthenticity')}
            </label>
          </fieldset>
        )}
        {type === 'clothingSize' && <SizesInput value={draft.sizes} onChange={(rows) => set('sizes', rows)} />}
        {type === 'certificateNumber' && (
          <label className="forms-label">
            {t('forms.field.typeField')}
            <Select
              value={typeof draft.typeField === 'string' ? draft.typeField : undefined}
              options={fields.filter((f) => f.type === 'certificateType').map((f) => ({ value: f.key, label: f.key }))}
              onChange={(key: string) => set('typeField', key)}
            />
          </label>
        )}
        <RulesInput field={draft} others={others} onChange={(rows) => set('rules', rows)} />
        <fieldset className="forms-fieldset" data-testid="field-show-when">
          <legend>{t('forms.field.showWhen')}</legend>
          <Space wrap>
            <label className="forms-label">
              {t('forms.field.showWhenField')}
              <Select
                allowClear
                placeholder={t('forms.field.always')}
                value={showWhen?.field}
                options={earlier.map((key) => ({ value: key, label: key }))}
                onChange={(key?: string) =>
                  set('showWhen', key ? { field: key, equals: showWhen?.equals ?? '' } : undefined)
                }
                style={{ width: 220 }}
              />
            </label>
            {showWhen && (
              <label className="forms-label">
                {t('forms.field.showWhenEquals')}
                <Input
                  value={equalsText}
                  onChange={(e) => {
                    const values = e.target.value
                      .split(',')
                      .map((v) => v.trim())
                      .filter(Boolean);
                    set('showWhen', { field: showWhen.field, equals: values.length === 1 ? values[0] : values });
                  }}
                  style={{ width: 260 }}
                />
              </label>
            )}
          </Space>
        </fieldset>
      </div>
    </Drawer>
  );
}
