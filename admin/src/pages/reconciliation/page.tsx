/**
 * Reconciliation (finance and owners, issue 31 §3): each payment provider's daily bill (China time) against our
 * payments and refunds of that provider. Run a day now (the bill fetched from the provider) or import a bill
 * file downloaded from the provider's merchant portal; see the runs (who or what ran them, both sides' counts)
 * and the differences, filtered by provider, days, state and kind; mark a difference handled with a note of
 * what was done. The server does yesterday's bills by itself every morning after 10:00, and records every run
 * and handling in the audit log.
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
  type TableColumnsType,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { formatFen } from '#contract/entry';
import {
  RECONCILIATION_KINDS,
  RECONCILIATION_NOTE_MAX,
  type ReconcileAnswer,
  type ReconciliationAnswer,
  type ReconciliationDifferenceView,
  type ReconciliationRunView,
} from '#contract/reconciliation';
import { DEFAULT_RACE_TIME_ZONE } from '#contract/time-zone';
import { api } from '../../api/client';
import { base64Of } from '../../lib/file-base64';
import { useAction } from '../../lib/use-action';
import { formatInstant } from '../../time';
import { useLoaded } from '../../use-loaded';

/** Bills are cut in China time: days are shown and chosen there. */
const BILL_ZONE = 'Asia/Shanghai';

interface Filters {
  provider?: string;
  days?: [Dayjs | null, Dayjs | null] | null;
  state?: 'open' | 'handled';
  kind?: string;
}

const money = (fen: number | null) => (fen === null ? '—' : `¥${formatFen(fen)}`);
/** The day before today in China: the latest bill out. */
const yesterday = () => dayjs().tz(BILL_ZONE).subtract(1, 'day');

export default function ReconciliationPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [filters, setFilters] = useState<Filters>({});
  const query = useMemo(() => {
    const params: Record<string, string> = {};
    if (filters.provider) params.provider = filters.provider;
    if (filters.days?.[0]) params.from = filters.days[0].format('YYYY-MM-DD');
    if (filters.days?.[1]) params.to = filters.days[1].format('YYYY-MM-DD');
    if (filters.state) params.state = filters.state;
    if (filters.kind) params.kind = filters.kind;
    return params;
  }, [filters]);
  const load = useCallback(() => api.get<ReconciliationAnswer>('/reconciliation', query), [query]);
  const { data, loading, error, reload } = useLoaded(load);
  const providers = data?.providers ?? [];
  const providerName = (name: string) => t(`reconciliation.providers.${name}`, { defaultValue: name });

  // Run a day now, or import a bill file.
  const [provider, setProvider] = useState<string>();
  const [day, setDay] = useState<Dayjs>(yesterday);
  const chosen = provider ?? providers[0]?.name;
  const chosenCan = providers.find((p) => p.name === chosen);
  const action = useAction();
  const [outcome, setOutcome] = useState<ReconcileAnswer | null>(null);
  const ran = (answer: ReconcileAnswer) => {
    setOutcome(answer);
    void message.success(t('reconciliation.done'));
    reload();
  };
  const runNow = () =>
    action.run(async () => {
      if (!chosen) return;
      ran(await api.post<ReconcileAnswer>('/reconciliation/run', { provider: chosen, day: day.format('YYYY-MM-DD') }));
    });
  const importFile = (file: File) => {
    void action.run(async () => {
      if (!chosen) return;
      const content = await base64Of(file);
      ran(
        await api.postFile<ReconcileAnswer>('/reconciliation/import', {
          provider: chosen,
          day: day.format('YYYY-MM-DD'),
          content,
          fileName: file.name,
        }),
      );
    });
    return false;
  };

  // Mark handled.
  const [handling, setHandling] = useState<ReconciliationDifferenceView | null>(null);
  const [form] = Form.useForm<{ note: string }>();
  const handle = useAction();
  const saveHandling = async () => {
    const { note } = await form.validateFields();
    if (!handling) return;
    const done = await handle.run(() => api.post(`/reconciliation/differences/${handling.id}/handle`, { note }));
    if (done) {
      setHandling(null);
      form.resetFields();
      void message.success(t('reconciliation.handledSaved'));
      reload();
    }
  };

  const status = (run: ReconciliationRunView) => {
    const label = t(`reconciliation.status.${run.status}`);
    return run.status === 'matched' ? (
      <Tag>{label}</Tag>
    ) : (
      <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Typography.Text>
    );
  };
  const who = (actor: string, name: string | null) =>
    actor === 'job' ? t('reconciliation.byJob') : (name ?? actor.replace(/^cli:/, `${t('reconciliation.byCli')} `));

  const runColumns: TableColumnsType<ReconciliationRunView> = [
    { title: t('reconciliation.columns.day'), dataIndex: 'day', key: 'day' },
    { title: t('reconciliation.columns.provider'), key: 'provider', render: (_, r) => providerName(r.provider) },
    {
      title: t('reconciliation.columns.source'),
      key: 'source',
      render: (_, r) => t(`reconciliation.source.${r.source}`),
    },
    { title: t('reconciliation.columns.by'), key: 'by', render: (_, r) => who(r.actor, r.staffName) },
    {
      title: t('reconciliation.columns.at'),
      key: 'at',
      render: (_, r) => formatInstant(r.ranAt, DEFAULT_RACE_TIME_ZONE),
    },
    { title: t('reconciliation.columns.status'), key: 'status', render: (_, r) => status(r) },
    {
      title: t('reconciliation.columns.bill'),
      key: 'bill',
      render: (_, r) =>
        r.status === 'failed'
          ? r.error
          : t('reconciliation.counts', {
              payments: r.billPayments,
              paid: money(r.billPaidFen),
              refunds: r.billRefunds,
              refunded: money(r.billRefundFen),
            }),
    },
    {
      title: t('reconciliation.columns.ours'),
      key: 'ours',
      render: (_, r) =>
        r.status === 'failed'
          ? ''
          : t('reconciliation.counts', {
              payments: r.ourPayments,
              paid: money(r.ourPaidFen),
              refunds: r.ourRefunds,
              refunded: money(r.ourRefundFen),
            }),
    },
    { title: t('reconciliation.columns.differences'), dataIndex: 'differences', key: 'differences', align: 'right' },
  ];

  const differenceColumns: TableColumnsType<ReconciliationDifferenceView> = [
    { title: t('reconciliation.columns.day'), dataIndex: 'day', key: 'day' },
    { title: t('reconciliation.columns.provider'), key: 'provider', render: (_, d) => providerName(d.provider) },
    {
      title: t('reconciliation.columns.kind'),
      key: 'kind',
      render: (_, d) => <Typography.Text strong>{t(`reconciliation.kinds.${d.kind}`)}</Typography.Text>,
    },
    {
      title: t('reconciliation.columns.record'),
      key: 'record',
      render: (_, d) => (
        <Space direction="vertical" size={0}>
          {d.paymentId ? <Typography.Text code>{d.paymentId}</Typography.Text> : null}
          {d.refundNo ? <Typography.Text code>{d.refundNo}</Typography.Text> : null}
          {d.orderNo ? <span>{t('reconciliation.order', { orderNo: d.orderNo })}</span> : null}
        </Space>
      ),
    },
    {
      title: t('reconciliation.columns.oursAmount'),
      key: 'ours',
      render: (_, d) =>
        d.oursFen === null
          ? t('reconciliation.none')
          : `${money(d.oursFen)}${d.ourStatus ? ` (${t(`reconciliation.ourStatus.${d.ourStatus}`, { defaultValue: d.ourStatus })})` : ''}`,
    },
    {
      title: t('reconciliation.columns.theirsAmount'),
      key: 'theirs',
      render: (_, d) => (d.theirsFen === null ? t('reconciliation.none') : money(d.theirsFen)),
    },
    {
      title: t('reconciliation.columns.handling'),
      key: 'handling',
      render: (_, d) =>
        d.handledAt === null ? (
          <Button size="small" onClick={() => setHandling(d)} data-testid={`reconcile-handle-${d.id}`}>
            {t('reconciliation.markHandled')}
          </Button>
        ) : (
          <Space direction="vertical" size={0} data-testid={`reconcile-handled-${d.id}`}>
            <span>{d.note}</span>
            <Typography.Text type="secondary">
              {t('reconciliation.handledBy', {
                name: who(d.handledBy ?? '', d.handledByName),
                at: formatInstant(d.handledAt, DEFAULT_RACE_TIME_ZONE),
              })}
            </Typography.Text>
            {d.stillFound ? null : <Tag>{t('reconciliation.noLongerFound')}</Tag>}
          </Space>
        ),
    },
  ];

  return (
    <div data-testid="reconciliation-page">
      <div className="console-page-head" style={{ marginBottom: 4 }}>
        <h1>{t('reconciliation.title')}</h1>
      </div>
      <Typography.Paragraph>{t('reconciliation.intro')}</Typography.Paragraph>
      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}

      <section aria-labelledby="reconcile-run-title" style={{ marginBottom: 24 }}>
        <Typography.Title level={2} id="reconcile-run-title">
          {t('reconciliation.runTitle')}
        </Typography.Title>
        <Space wrap align="end">
          <label>
            <div>{t('reconciliation.provider')}</div>
            <Select
              style={{ minWidth: 160 }}
              value={chosen}
              onChange={setProvider}
              aria-label={t('reconciliation.provider')}
              options={providers.map((p) => ({ value: p.name, label: providerName(p.name) }))}
              data-testid="reconcile-provider"
            />
          </label>
          <label>
            <div>{t('reconciliation.day')}</div>
            <DatePicker
              value={day}
              onChange={(value) => value && setDay(value)}
              allowClear={false}
              aria-label={t('reconciliation.day')}
              disabledDate={(d) => !d.isBefore(dayjs().tz(BILL_ZONE).startOf('day'), 'day')}
              data-testid="reconcile-day"
            />
          </label>
          <Button
            type="primary"
            onClick={() => void runNow()}
            loading={action.busy}
            disabled={!chosenCan?.fetch}
            data-testid="reconcile-run"
          >
            {t('reconciliation.runNow')}
          </Button>
          <Upload
            accept=".csv,.txt,text/csv,text/plain"
            showUploadList={false}
            beforeUpload={importFile}
            disabled={!chosenCan?.file}
          >
            <Button disabled={!chosenCan?.file} loading={action.busy} data-testid="reconcile-import">
              {t('reconciliation.import')}
            </Button>
          </Upload>
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('reconciliation.runHelp')}
        </Typography.Paragraph>
        {action.error ? (
          <Alert type="error" showIcon message={action.error} data-testid="reconcile-error" role="alert" />
        ) : null}
        {outcome ? (
          <Alert
            type={outcome.run.status === 'matched' ? 'success' : 'warning'}
            showIcon
            data-testid="reconcile-outcome"
            message={t(`reconciliation.outcome.${outcome.run.status}`, {
              provider: providerName(outcome.run.provider),
              day: outcome.run.day,
              count: outcome.run.differences,
            })}
          />
        ) : null}
      </section>

      <section aria-labelledby="reconcile-filter-title">
        <Typography.Title level={2} id="reconcile-filter-title">
          {t('reconciliation.filterTitle')}
        </Typography.Title>
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            allowClear
            style={{ minWidth: 160 }}
            placeholder={t('reconciliation.allProviders')}
            aria-label={t('reconciliation.provider')}
            value={filters.provider}
            onChange={(value?: string) => setFilters((f) => ({ ...f, provider: value }))}
            options={providers.map((p) => ({ value: p.name, label: providerName(p.name) }))}
          />
          <DatePicker.RangePicker
            value={filters.days ?? null}
            onChange={(value) => setFilters((f) => ({ ...f, days: value }))}
            aria-label={t('reconciliation.days')}
            placeholder={[t('reconciliation.from'), t('reconciliation.to')]}
          />
          <Select
            allowClear
            style={{ minWidth: 140 }}
            placeholder={t('reconciliation.allStates')}
            aria-label={t('reconciliation.state')}
            value={filters.state}
            onChange={(value?: 'open' | 'handled') => setFilters((f) => ({ ...f, state: value }))}
            options={[
              { value: 'open', label: t('reconciliation.states.open') },
              { value: 'handled', label: t('reconciliation.states.handled') },
            ]}
            data-testid="reconcile-filter-state"
          />
          <Select
            allowClear
            style={{ minWidth: 220 }}
            placeholder={t('reconciliation.allKinds')}
            aria-label={t('reconciliation.columns.kind')}
            value={filters.kind}
            onChange={(value?: string) => setFilters((f) => ({ ...f, kind: value }))}
            options={RECONCILIATION_KINDS.map((kind) => ({ value: kind, label: t(`reconciliation.kinds.${kind}`) }))}
          />
        </Space>
      </section>

      <section aria-labelledby="reconcile-differences-title">
        <Typography.Title level={2} id="reconcile-differences-title">
          {t('reconciliation.differencesTitle')}
        </Typography.Title>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
        <div role="region" aria-labelledby="reconcile-differences-title" tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table
            rowKey="id"
            size="small"
            loading={loading}
            columns={differenceColumns}
            dataSource={data?.differences ?? []}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            locale={{ emptyText: <Typography.Text>{t('reconciliation.noDifferences')}</Typography.Text> }}
            data-testid="reconcile-differences"
          />
        </div>
      </section>

      <section aria-labelledby="reconcile-runs-title" style={{ marginTop: 24 }}>
        <Typography.Title level={2} id="reconcile-runs-title">
          {t('reconciliation.runsTitle')}
        </Typography.Title>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
        <div role="region" aria-labelledby="reconcile-runs-title" tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table
            rowKey="id"
            size="small"
            loading={loading}
            columns={runColumns}
            dataSource={data?.runs ?? []}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            locale={{ emptyText: <Typography.Text>{t('reconciliation.noRuns')}</Typography.Text> }}
            data-testid="reconcile-runs"
          />
        </div>
      </section>

      <Modal
        open={handling !== null}
        title={t('reconciliation.handleTitle')}
        okText={t('reconciliation.save')}
        cancelText={t('reconciliation.cancel')}
        onOk={() => void saveHandling()}
        confirmLoading={handle.busy}
        onCancel={() => {
          setHandling(null);
          handle.setError('');
        }}
        destroyOnHidden
      >
        {handling ? (
          <Typography.Paragraph>
            {t(`reconciliation.kinds.${handling.kind}`)} · {handling.paymentId ?? ''} {handling.refundNo ?? ''}
          </Typography.Paragraph>
        ) : null}
        <Form form={form} layout="vertical">
          <Form.Item
            name="note"
            label={t('reconciliation.note')}
            extra={t('reconciliation.noteHelp')}
            rules={[
              { required: true, whitespace: true, message: t('reconciliation.noteRequired') },
              { max: RECONCILIATION_NOTE_MAX },
            ]}
          >
            <Input.TextArea rows={3} maxLength={RECONCILIATION_NOTE_MAX} data-testid="reconcile-note" />
          </Form.Item>
        </Form>
        {handle.error ? <Alert type="error" showIcon message={handle.error} role="alert" /> : null}
      </Modal>
    </div>
  );
}
