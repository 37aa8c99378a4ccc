/**
 * "Query the provider" on one payment attempt of the entry page (issue 32; money staff): the provider that made
 * the payment is asked its state, shown beside ours; when the provider took the money and we have no record of
 * it (its notification never came), the member may record it, which the server does exactly as that
 * notification would (once, whoever does it first; in the audit log).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, Descriptions, Modal, Popconfirm, Space } from 'antd';
import { OFFLINE_PROVIDER_PREFIX, type ConsoleEntryPayment } from '#contract/console-entry';
import type { ConsolePaymentQuery, ConsolePaymentRecorded } from '#contract/console-refunds';
import { api } from '../../api/client';
import { useAction } from '../../lib/use-action';
import { yuanText } from './format';

interface Props {
  /** The entry's API path (/races/:raceId/entries/:entryNo). */
  base: string;
  payment: ConsoleEntryPayment;
  /** Formats an instant as the page does. */
  time: (at: number | null) => string;
  onRecorded: () => void;
}

export function PaymentQuery({ base, payment, time, onRecorded }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [answer, setAnswer] = useState<ConsolePaymentQuery | null>(null);
  const [open, setOpen] = useState(false);
  const ask = useAction();
  const record = useAction();
  const path = `${base}/payments/${encodeURIComponent(payment.paymentId)}`;
  if (payment.provider.startsWith(OFFLINE_PROVIDER_PREFIX)) return null;

  const query = () => {
    setOpen(true);
    setAnswer(null);
    record.setError('');
    void ask.run(async () => setAnswer(await api.get<ConsolePaymentQuery>(`${path}/query`)));
  };
  const save = () =>
    void record.run(async () => {
      const done = await api.post<ConsolePaymentRecorded>(`${path}/record`);
      void message.success(t(done.fresh ? 'entry.query.recorded' : 'entry.query.recordedBefore'));
      setAnswer(await api.get<ConsolePaymentQuery>(`${path}/query`));
      onRecorded();
    });
  const status = (value: string) => t(`entry.query.status.${value}`, { defaultValue: value });

  return (
    <>
      <Button size="small" onClick={query} loading={ask.busy} data-testid={`payment-query-${payment.paymentId}`}>
        {t('entry.query.button')}
      </Button>
      <Modal
        open={open}
        title={t('entry.query.title', { paymentId: payment.paymentId })}
        onCancel={() => setOpen(false)}
        footer={<Button onClick={() => setOpen(false)}>{t('entry.query.close')}</Button>}
        destroyOnHidden
      >
        {ask.error ? <Alert type="error" showIcon role="alert" message={ask.error} /> : null}
        {answer ? (
          <Space direction="vertical" style={{ width: '100%' }} data-testid="payment-query-answer">
            <Descriptions
              bordered
              size="small"
              column={1}
              items={[
                { key: 'provider', label: t('entry.orders.provider'), children: answer.provider },
                {
                  key: 'ours',
                  label: t('entry.query.ours'),
                  children: `${status(answer.ours.status)} · ${yuanText(answer.ours.amountFen)} · ${answer.ours.tradeNo ?? '—'}`,
                },
                {
                  key: 'theirs',
                  label: t('entry.query.theirs'),
                  children: (
                    <span data-testid="payment-query-theirs">
                      {status(answer.theirs.status)}
                      {answer.theirs.amountFen === null ? '' : ` · ${yuanText(answer.theirs.amountFen)}`}
                      {` · ${answer.theirs.tradeNo ?? '—'}`}
                      {answer.theirs.paidAt ? ` · ${time(answer.theirs.paidAt)}` : ''}
                    </span>
                  ),
                },
              ]}
            />
            {answer.canRecord ? (
              <Alert
                type="warning"
                showIcon
                message={t('entry.query.missing')}
                action={
                  <Popconfirm
                    title={t('entry.query.recordConfirm')}
                    okText={t('entry.query.record')}
                    cancelText={t('entry.query.close')}
                    onConfirm={save}
                  >
                    <Button size="small" type="primary" loading={record.busy} data-testid="payment-record">
                      {t('entry.query.record')}
                    </Button>
                  </Popconfirm>
                }
              />
            ) : (
              <Alert type="info" showIcon message={t('entry.query.nothing')} />
            )}
            {record.error ? <Alert type="error" showIcon role="alert" message={record.error} /> : null}
          </Space>
        ) : null}
      </Modal>
    </>
  );
}
