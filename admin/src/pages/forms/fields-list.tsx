/**
 * The form's fields as a list, in the order the runner sees them: each with its type, labels, whether it is
 * required, what it has (options, sizes, limits, rules, a condition) and its problems; add a field of any
 * type, edit one (field-editor.tsx), move it up or down, remove it (after a confirmation). The form's title
 * is edited above the list. Every change gives the page the new document.
 */
import { Badge, Button, Input, Popconfirm, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import ArrowDownOutlined from '@ant-design/icons/ArrowDownOutlined';
import ArrowUpOutlined from '@ant-design/icons/ArrowUpOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LocalText } from '#contract/registration-form';
import type { ConfigProblem } from '#contract/site-config/document-limits';
import { useConsole } from '../../store';
import { FieldEditor } from './field-editor';
import { FIELD_TYPES, moved, newField, type EditedDocument, type EditedField, type FieldType } from './field-model';

const fieldPrefix = (i: number) => `$.fields[${i}]`;
/** The problems under a field's path. */
export const problemsOfField = (problems: readonly ConfigProblem[], i: number) =>
  problems.filter(
    (p) =>
      p.path === fieldPrefix(i) || p.path.startsWith(`${fieldPrefix(i)}.`) || p.path.startsWith(`${fieldPrefix(i)}[`),
  );

interface Row {
  index: number;
  field: EditedField;
}

export function FieldsList({
  doc,
  problems,
  onChange,
  editing,
  setEditing,
}: {
  doc: EditedDocument;
  problems: readonly ConfigProblem[];
  onChange: (next: EditedDocument) => void;
  /** The field open in the drawer (its index), or null. */
  editing: number | null;
  setEditing: (index: number | null) => void;
}) {
  const { t } = useTranslation();
  const language = useConsole((s) => s.language);
  const [type, setType] = useState<FieldType>('picker');
  const fields = doc.fields;
  const setFields = (next: EditedField[]) => onChange({ ...doc, fields: next });
  const title = (doc.title ?? { zh: '', en: '' }) as LocalText;
  const labelOf = (field: EditedField) => {
    const label = (field.label ?? {}) as Partial<LocalText>;
    return { zh: label.zh ?? '', en: label.en ?? '' };
  };

  const summary = (field: EditedField) => {
    const parts: string[] = [];
    const count = (key: string) => (Array.isArray(field[key]) ? (field[key] as unknown[]).length : 0);
    if (count('options') > 0) parts.push(t('forms.list.options', { count: count('options') }));
    if (count('sizes') > 0) parts.push(t('forms.list.sizes', { count: count('sizes') }));
    if (count('items') > 0) parts.push(t('forms.list.items', { count: count('items') }));
    if (typeof field.maxLength === 'number') parts.push(t('forms.list.maxLength', { n: field.maxLength }));
    if (typeof field.min === 'string' || typeof field.max === 'string') {
      parts.push(`${String(field.min ?? '…')} – ${String(field.max ?? '…')}`);
    }
    const upload = field.upload as { maxCount?: number; width?: number; height?: number } | undefined;
    if (upload) {
      parts.push(t('forms.list.upload', { count: upload.maxCount ?? 0 }));
      if (upload.width && upload.height) parts.push(`${upload.width}×${upload.height} px`);
    }
    if (count('rules') > 0) {
      const rules = (field.rules as { rule?: string }[]).map((r) =>
        t(`forms.rules.${r.rule}`, { defaultValue: r.rule }),
      );
      parts.push(`${t('forms.list.rules')}: ${rules.join(', ')}`);
    }
    const when = field.showWhen as { field?: string; equals?: unknown } | undefined;
    if (when) parts.push(t('forms.list.showWhen', { field: when.field, values: String(when.equals) }));
    return parts;
  };

  const columns: TableColumnsType<Row> = [
    { key: 'n', title: '#', width: 56, render: (_, row) => row.index + 1 },
    {
      key: 'label',
      title: t('forms.list.label'),
      render: (_, row) => {
        const label = labelOf(row.field);
        return (
          <Space direction="vertical" size={0}>
            <strong>{label[language] || label.zh || row.field.key}</strong>
            <span className="forms-muted">{language === 'zh' ? label.en : label.zh}</span>
            <code className="forms-muted">{row.field.key}</code>
          </Space>
        );
      },
    },
    {
      key: 'type',
      title: t('forms.list.type'),
      render: (_, row) => <Tag>{t(`forms.types.${row.field.type}`, { defaultValue: row.field.type })}</Tag>,
    },
    {
      key: 'required',
      title: t('forms.list.required'),
      render: (_, row) => (row.field.required === true ? t('forms.list.yes') : t('forms.list.no')),
    },
    {
      key: 'settings',
      title: t('forms.list.settings'),
      render: (_, row) => (
        <ul className="forms-summary">
          {summary(row.field).map((part, i) => (
            <li key={i}>{part}</li>
          ))}
        </ul>
      ),
    },
    {
      key: 'problems',
      title: t('forms.list.problems'),
      render: (_, row) => {
        const count = problemsOfField(problems, row.index).length;
        return count > 0 ? (
          <Badge count={count} color="#c13a22" aria-label={t('forms.list.problemCount', { count })} />
        ) : (
          <span className="forms-muted">—</span>
        );
      },
    },
    {
      key: 'actions',
      title: t('forms.list.actions'),
      render: (_, row) => {
        const name = labelOf(row.field)[language] || row.field.key;
        return (
          <Space wrap size={4}>
            <Button
              size="small"
              icon={<ArrowUpOutlined aria-hidden />}
              disabled={row.index === 0}
              aria-label={t('forms.list.up', { name })}
              onClick={() => setFields(moved(fields, row.index, row.index - 1))}
            />
            <Button
              size="small"
              icon={<ArrowDownOutlined aria-hidden />}
              disabled={row.index === fields.length - 1}
              aria-label={t('forms.list.down', { name })}
              onClick={() => setFields(moved(fields, row.index, row.index + 1))}
            />
            <Button size="small" onClick={() => setEditing(row.index)} data-testid={`edit-field-${row.field.key}`}>
              {t('forms.list.edit')}
            </Button>
            <Popconfirm
              title={t('forms.list.removeTitle', { name })}
              description={t('forms.list.removeText')}
              okText={t('forms.list.remove')}
              okButtonProps={{ danger: true }}
              cancelText={t('forms.cancel')}
              onConfirm={() => setFields(fields.filter((_, i) => i !== row.index))}
            >
              <Button size="small" danger data-testid={`remove-field-${row.field.key}`}>
                {t('forms.list.remove')}
              </Button>
            </Popconfirm>
          </Space>
        );
      },
    },
  ];

  return (
    <div className="forms-fields" data-testid="forms-fields">
      <fieldset className="forms-fieldset">
        <legend>{t('forms.list.formTitle')}</legend>
        <Space.Compact block>
          <Input
            addonBefore={t('forms.zh')}
            aria-label={`${t('forms.list.formTitle')} ${t('forms.zh')}`}
            value={title.zh ?? ''}
            onChange={(e) => onChange({ ...doc, title: { ...title, zh: e.target.value } })}
          />
          <Input
            addonBefore={t('forms.en')}
            aria-label={`${t('forms.list.formTitle')} ${t('forms.en')}`}
            value={title.en ?? ''}
            onChange={(e) => onChange({ ...doc, title: { ...title, en: e.target.value } })}
          />
        </Space.Compact>
      </fieldset>
      <Space wrap className="forms-add">
        <Select
          aria-label={t('forms.list.newType')}
          value={type}
          onChange={setType}
          options={FIELD_TYPES.map((value) => ({ value, label: `${t(`forms.types.${value}`)} (${value})` }))}
          style={{ width: 300 }}
          showSearch
          optionFilterProp="label"
          data-testid="new-field-type"
        />
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={() => {
            setFields([
              ...fields,
              newField(type, fields, {
                zh: t('forms.list.newFieldLabel', { lng: 'zh' }),
                en: t('forms.list.newFieldLabel', { lng: 'en' }),
              }),
            ]);
            setEditing(fields.length);
          }}
          data-testid="add-field"
        >
          {t('forms.list.add')}
        </Button>
      </Space>
      <Table<Row>
        rowKey={(row) => `${row.index}-${row.field.key}`}
        columns={columns}
        dataSource={fields.map((field, index) => ({ field, index }))}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        size="middle"
        scroll={{ x: 900 }}
      />
      {editing !== null && fields[editing] ? (
        <FieldEditor
          key={editing}
          field={fields[editing]}
          index={editing}
          fields={fields}
          problems={problemsOfField(problems, editing)}
          onClose={() => setEditing(null)}
          onApply={(field) => {
            setFields(fields.map((f, i) => (i === editing ? field : f)));
            setEditing(null);
          }}
        />
      ) : null}
    </div>
  );
}
