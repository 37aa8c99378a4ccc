/**
 * The actions on one entry (issue 30 §5), each in a modal with its reason: edit answers, transfer, cancel
 * (entries.edit), offline payment and refund (money), bib (entries.edit). Shown only for the permissions the
 * member has and what the entry allows; the server checks both again. A refusal is shown in the modal in the
 * console's language, a form's refusals next to their fields.
 */
import { App, Button, Checkbox, Form, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ENTRY_REASON_MAX,
  OFFLINE_PAYMENT_METHODS,
  OFFLINE_PROVIDER_PREFIX,
  type ConsoleEntryAnswer,
  type ConsoleEntryDetail,
} from '#contract/console-entry';
import type { MessageParams } from '#contract/messages';
import type { LocalText } from '#contract/registration-form';
import zhCommon from '../../../../src/locales/zh/common.json';
import enCommon from '../../../../src/locales/en/common.json';
import { api, ConsoleApiError } from '../../api/client';
import { consoleMessage } from '../../messages';
import { useCan, useConsole, type ConsoleLanguage } from '../../store';
import { yuanText } from './format';

type Action = 'edit' | 'transfer' | 'cancel' | 'offline' | 'refund' | 'bib';
const PATHS: Record<Action, string> = {
  edit: 'answers',
  transfer: 'transfer',
  cancel: 'cancel',
  offline: 'offline-payment',
  refund: 'refund',
  bib: 'bib',
};
const ENUMS = { zh: zhCommon.enums, en: enCommon.enums } as const;
const local = (text: LocalText, language: ConsoleLanguage) => (language === 'en' ? text.en || text.zh : text.zh);

/** The choices of a field the form (or the site's enums) defines. */
function choicesOf(
  answer: ConsoleEntryAnswer,
  language: ConsoleLanguage,
): { value: string | number; label: string }[] | undefined {
  if (answer.options) return answer.options.map((o) => ({ value: o.value, label: local(o.label, language) }));
  const table =
    answer.type === 'gender'
      ? ENUMS[language].genders
      : answer.type === 'certificateType'
        ? ENUMS[language].certificateTypes
        : undefined;
  if (!table) return undefined;
  return Object.entries(table)
    .filter(([value]) => answer.type !== 'gender' || value !== '0')
    .map(([value, label]) => ({ value: Number(value), label: String(label) }));
}

function AnswerFields({ answers, language }: { answers: ConsoleEntryAnswer[]; language: ConsoleLanguage }) {
  const { t } = useTranslation();
  return (
    <>
      {answers.map((answer) => {
        const choices = choicesOf(answer, language);
        const rules = answer.required ? [{ required: true, message: t('entry.actions.fieldRequired') }] : [];
        return (
          <Form.Item key={answer.key} name={['values', answer.key]} label={local(answer.label, language)} rules={rules}>
            {choices ? (
              <Select options={choices} mode={answer.type === 'checkbox' ? 'multiple' : undefined} allowClear />
            ) : answer.type === 'number' ? (
              <InputNumber className="entry-wide" />
            ) : (
              <Input />
            )}
          </Form.Item>
        );
      })}
    </>
  );
}

export function EntryActions({
  base,
  detail,
  onDone,
}: {
  base: string;
  detail: ConsoleEntryDetail;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const language = useConsole((s) => s.language);
  const canEdit = useCan('entries.edit');
  const canMoney = useCan('money');
  const [open, setOpen] = useState<Action>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [form] = Form.useForm();

  const live = detail.status === 0 || detail.status === 1;
  const registered = detail.status === 1;
  const unpaid = detail.orders.find((o) => o.status === 1);
  const paid = [...detail.orders].reverse().find((o) => o.status === 3);
  // Paid offline: no provider can give it back; the money goes back by hand and is recorded as refunded.
  const paidOffline = paid?.payments.some((p) => p.status === 'paid' && p.provider.startsWith(OFFLINE_PROVIDER_PREFIX));
  const shown: { action: Action; label: string; danger?: boolean }[] = [
    ...(canEdit && detail.answers ? [{ action: 'edit' as const, label: t('entry.actions.edit') }] : []),
    ...(canEdit && detail.allows.transfer && registered && detail.answers
      ? [{ action: 'transfer' as const, label: t('entry.actions.transfer') }]
      : []),
    ...(canEdit && registered
      ? [{ action: 'bib' as const, label: t(detail.bib ? 'entry.actions.changeBib' : 'entry.actions.bib') }]
      : []),
    ...(canMoney && unpaid ? [{ action: 'offline' as const, label: t('entry.actions.offline') }] : []),
    ...(canMoney && paid ? [{ action: 'refund' as const, label: t('entry.actions.refund') }] : []),
    ...(canEdit && live ? [{ action: 'cancel' as const, label: t('entry.actions.cancel'), danger: true }] : []),
  ];
  if (shown.length === 0) return null;

  const start = (action: Action) => {
    form.resetFields();
    setProblem(undefined);
    if (action === 'edit') {
      form.setFieldsValue({ values: Object.fromEntries((detail.answers ?? []).map((a) => [a.key, a.value])) });
    }
    if (action === 'offline' && unpaid) form.setFieldsValue({ amountYuan: unpaid.amountFen / 100, method: 'cash' });
    setOpen(action);
  };

  const submit = async () => {
    if (!open) return;
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    const body: Record<string, unknown> = { reason: values.reason };
    if (open === 'edit' || open === 'transfer') body.values = values.values;
    if (open === 'bib') body.bib = values.bib;
    if (open === 'offline') {
      body.amountFen = Math.round(Number(values.amountYuan) * 100);
      body.method = values.method;
      body.reference = values.reference;
    }
    if (open === 'cancel' && values.refund === true) body.refund = true;
    if (open === 'refund' && values.amountYuan !== undefined && values.amountYuan !== null) {
      body.amountFen = Math.round(Number(values.amountYuan) * 100);
    }
    setBusy(true);
    try {
      await api.post(`${base}/${PATHS[open]}`, body);
      setOpen(undefined);
      void message.success(t('entry.actions.done'));
      onDone();
    } catch (error) {
      const refusal = error instanceof ConsoleApiError ? error : undefined;
      setProblem(refusal?.message ?? String(error));
      const fields = (
        refusal?.data as { fields?: Record<string, { code: string; params?: MessageParams }> } | undefined
      )?.fields;
      if (fields) {
        form.setFields(
          Object.entries(fields).map(([key, r]) => ({
            name: ['values', key],
            errors: [consoleMessage(language, r.code, r.params)],
          })),
        );
      }
    } finally {
      setBusy(false);
    }
  };

  const reasonField = (
    <Form.Item
      name="reason"
      label={t('entry.actions.reason')}
      extra={t('entry.actions.reasonHelp')}
      rules={[{ required: true, whitespace: true, message: t('entry.actions.reasonRequired') }]}
    >
      <Input.TextArea maxLength={ENTRY_REASON_MAX} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
    </Form.Item>
  );
  const title = shown.find((s) => s.action === open)?.label;
  const blankAnswers = (detail.answers ?? []).filter((a) => a.key !== 'item');

  return (
    <div className="entry-actions" data-testid="entry-actions">
      <Space wrap>
        {shown.map(({ action, label, danger }) => (
          <Button key={action} danger={danger} onClick={() => start(action)} data-testid={`entry-action-${action}`}>
            {label}
          </Button>
        ))}
      </Space>
      <Modal
        open={open !== undefined}
        title={title}
        onCancel={() => setOpen(undefined)}
        onOk={submit}
        okText={t('entry.actions.submit')}
        confirmLoading={busy}
        okButtonProps={{ danger: open === 'cancel', ...{ 'data-testid': 'entry-action-submit' } }}
        destroyOnHidden
        className="entry-action-modal"
        width={open === 'edit' || open === 'transfer' ? 720 : 520}
      >
        <Form form={form} layout="vertical" data-testid={`entry-form-${open ?? ''}`}>
          {problem && (
            <Typography.Paragraph type="danger" role="alert" data-testid="entry-action-problem">
              {problem}
            </Typography.Paragraph>
          )}
          {open === 'cancel' && <Typography.Paragraph>{t('entry.actions.cancelConfirm')}</Typography.Paragraph>}
          {open === 'cancel' && !canMoney && paid && (
            <Typography.Paragraph>{t('entry.actions.cancelPaidNoRefund')}</Typography.Paragraph>
          )}
          {open === 'cancel' && canMoney && paid && (
            <Form.Item name="refund" valuePropName="checked" initialValue={false}>
              <Checkbox data-testid="entry-cancel-refund">
                {t(paidOffline ? 'entry.actions.cancelRefundOffline' : 'entry.actions.cancelRefund', {
                  amount: yuanText(paid.lineFen),
                })}
              </Checkbox>
            </Form.Item>
          )}
          {open === 'transfer' && <Typography.Paragraph>{t('entry.actions.transferHelp')}</Typography.Paragraph>}
          {(open === 'edit' || open === 'transfer') && (
            <AnswerFields answers={open === 'edit' ? (detail.answers ?? []) : blankAnswers} language={language} />
          )}
          {open === 'bib' && (
            <Form.Item
              name="bib"
              label={t('entry.actions.newBib')}
              initialValue={detail.bib ?? ''}
              rules={[{ required: true, whitespace: true, message: t('entry.actions.bibRequired') }]}
            >
              <Input maxLength={20} />
            </Form.Item>
          )}
          {open === 'offline' && unpaid && (
            <>
              <Typography.Paragraph>
                {t('entry.actions.offlineHelp', { amount: yuanText(unpaid.amountFen) })}
              </Typography.Paragraph>
              <Form.Item
                name="amountYuan"
                label={t('entry.actions.amountYuan')}
                rules={[{ required: true, message: t('entry.actions.amountRequired') }]}
              >
                <InputNumber min={0} precision={2} className="entry-wide" />
              </Form.Item>
              <Form.Item name="method" label={t('entry.actions.method')}>
                <Select
                  options={OFFLINE_PAYMENT_METHODS.map((m) => ({ value: m, label: t(`entry.actions.methods.${m}`) }))}
                />
              </Form.Item>
              <Form.Item
                name="reference"
                label={t('entry.actions.reference')}
                rules={[{ required: true, whitespace: true, message: t('entry.actions.referenceRequired') }]}
              >
                <Input maxLength={64} />
              </Form.Item>
            </>
          )}
          {open === 'refund' && paid && (
            <>
              <Typography.Paragraph>
                {t('entry.actions.refundHelp', { max: yuanText(paid.lineFen) })}
              </Typography.Paragraph>
              {paidOffline && (
                <Typography.Paragraph strong>{t('entry.actions.refundOfflineHelp')}</Typography.Paragraph>
              )}
              <Form.Item name="amountYuan" label={t('entry.actions.refundAmount')}>
                <InputNumber min={0.01} max={paid.lineFen / 100} precision={2} className="entry-wide" />
              </Form.Item>
            </>
          )}
          {reasonField}
        </Form>
      </Modal>
    </div>
  );
}
