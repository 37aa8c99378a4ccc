/**
 * Bib assignment (owners, issue 32; the CLI's bibs-assign, services/entry/bibs.ts): per item how many registered
 * entries have a bib and how many still need one, and the series (prefix and width) in use; a series for an
 * item (prefix, first number, width) previewed first (how many bibs, the first and the last, or why it would
 * give none: a bib of another item's series, a number too wide) and then assigned, all or none, after a
 * confirmation. Each assignment is in the audit log (bibs.assign).
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Alert, App, Button, Form, Input, InputNumber, Modal, Select, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { ConsoleBibItem, ConsoleBibsAnswer, ConsoleBibsPreview } from '#contract/console-ballot';
import { api } from '../../api/client';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { useLoaded } from '../../use-loaded';

interface SeriesForm {
  itemCode: string;
  prefix: string;
  from: number;
  width: number;
}

const sameSeries = (a: SeriesForm | undefined, b: SeriesForm) =>
  a !== undefined &&
  a.itemCode === b.itemCode &&
  a.prefix.trim().toUpperCase() === b.prefix.trim().toUpperCase() &&
  a.from === b.from &&
  a.width === b.width;

export default function BibsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { raceId = '' } = useParams();
  const language = useConsole((s) => s.language);
  const base = `/races/${encodeURIComponent(raceId)}/bibs`;
  const load = useCallback(() => api.get<ConsoleBibsAnswer>(base), [base]);
  const { data, loading, error, reload } = useLoaded(load);
  const [form] = Form.useForm<SeriesForm>();
  const [previewed, setPreviewed] = useState<{ series: SeriesForm; preview: ConsoleBibsPreview }>();
  const [confirming, setConfirming] = useState(false);
  const previewAction = useAction();
  const assignAction = useAction();
  const itemName = (item: Pick<ConsoleBibItem, 'itemName' | 'itemCode'>) =>
    `${item.itemName[language] || item.itemName.zh} (${item.itemCode})`;
  const limits = data?.limits;

  const bodyOf = (series: SeriesForm) => ({ prefix: series.prefix ?? '', from: series.from, width: series.width });

  const preview = async () => {
    const series = await form.validateFields();
    setPreviewed(undefined);
    await previewAction.run(async () => {
      const answer = await api.post<ConsoleBibsPreview>(
        `${base}/${encodeURIComponent(series.itemCode)}/preview`,
        bodyOf(series),
      );
      setPreviewed({ series, preview: answer });
    });
  };

  const assign = async () => {
    if (!previewed) return;
    const { series } = previewed;
    const done = await assignAction.run(async () => {
      const answer = await api.post<ConsoleBibsPreview>(
        `${base}/${encodeURIComponent(series.itemCode)}/assign`,
        bodyOf(series),
      );
      void message.success(t('bibs.assigned', { count: answer.count, first: answer.first, last: answer.last }));
    });
    if (done) {
      setConfirming(false);
      setPreviewed(undefined);
      reload();
    }
  };

  const columns: TableColumnsType<ConsoleBibItem> = [
    { title: t('bibs.columns.item'), key: 'item', render: (_, r) => itemName(r) },
    { title: t('bibs.columns.withBib'), dataIndex: 'withBib', key: 'withBib', align: 'right' },
    {
      title: t('bibs.columns.awaiting'),
      key: 'awaiting',
      align: 'right',
      render: (_, r) => (r.awaiting > 0 ? <Typography.Text strong>{r.awaiting}</Typography.Text> : 0),
    },
    {
      title: t('bibs.columns.series'),
      key: 'series',
      render: (_, r) =>
        r.series.length === 0 ? (
          <Typography.Text type="secondary">{t('bibs.noSeries')}</Typography.Text>
        ) : (
          <Space direction="vertical" size={0}>
            {r.series.map((s) => (
              <span key={`${s.prefix}-${s.width}`}>
                {t('bibs.seriesLine', {
                  prefix: s.prefix || t('bibs.noPrefix'),
                  width: s.width,
                  count: s.count,
                  first: s.first,
                  last: s.last,
                })}
              </span>
            ))}
          </Space>
        ),
    },
  ];

  const current = previewed?.preview;
  return (
    <div data-testid="bibs-page">
      <div className="console-page-head">
        <h1>{t('bibs.title')}</h1>
      </div>
      <Typography.Paragraph>{t('bibs.intro')}</Typography.Paragraph>
      {error ? <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 16 }} /> : null}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
      <div role="region" aria-label={t('bibs.tableLabel')} tabIndex={0} style={{ overflowX: 'auto', marginBottom: 24 }}>
        <Table
          rowKey="itemCode"
          size="small"
          loading={loading}
          columns={columns}
          dataSource={data?.items ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: <Typography.Text>{t('bibs.noItems')}</Typography.Text> }}
          data-testid="bibs-items"
        />
      </div>

      <section aria-labelledby="bibs-assign-title">
        <Typography.Title level={2} id="bibs-assign-title" style={{ fontSize: 18 }}>
          {t('bibs.assignTitle')}
        </Typography.Title>
        <Form
          form={form}
          layout="inline"
          initialValues={{ prefix: '', from: 1, width: limits?.widthDefault ?? 5 }}
          onValuesChange={() => setPreviewed(undefined)}
          className="bibs-form"
          style={{ rowGap: 12 }}
        >
          <Form.Item
            name="itemCode"
            label={t('bibs.item')}
            rules={[{ required: true, message: t('bibs.itemRequired') }]}
          >
            <Select
              style={{ minWidth: 220 }}
              options={(data?.items ?? []).map((item) => ({
                value: item.itemCode,
                label: `${itemName(item)} · ${t('bibs.awaitingShort', { count: item.awaiting })}`,
              }))}
              data-testid="bibs-item"
            />
          </Form.Item>
          <Form.Item
            name="prefix"
            label={t('bibs.prefix')}
            normalize={(value: string) => value.toUpperCase()}
            rules={[
              { pattern: /^[A-Za-z0-9]{0,10}$/, message: t('bibs.prefixRule', { max: limits?.prefixMax ?? 10 }) },
            ]}
          >
            <Input maxLength={limits?.prefixMax ?? 10} style={{ width: 120 }} data-testid="bibs-prefix" />
          </Form.Item>
          <Form.Item name="from" label={t('bibs.from')} rules={[{ required: true, message: t('bibs.fromRequired') }]}>
            <InputNumber
              min={limits?.fromMin ?? 1}
              max={limits?.fromMax}
              precision={0}
              style={{ width: 140 }}
              data-testid="bibs-from"
            />
          </Form.Item>
          <Form.Item
            name="width"
            label={t('bibs.width')}
            rules={[{ required: true, message: t('bibs.widthRequired') }]}
          >
            <InputNumber
              min={limits?.widthMin ?? 1}
              max={limits?.widthMax ?? 10}
              precision={0}
              style={{ width: 100 }}
              data-testid="bibs-width"
            />
          </Form.Item>
          <Form.Item>
            <Button onClick={() => void preview()} loading={previewAction.busy} data-testid="bibs-preview">
              {t('bibs.preview')}
            </Button>
          </Form.Item>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('bibs.help')}
        </Typography.Paragraph>
        {previewAction.error ? (
          <Alert type="error" showIcon role="alert" message={previewAction.error} data-testid="bibs-refusal" />
        ) : null}
        {current ? (
          <Alert
            type={current.count > 0 ? 'info' : 'warning'}
            showIcon
            data-testid="bibs-preview-result"
            message={
              current.count > 0
                ? t('bibs.wouldGive', { count: current.count, first: current.first, last: current.last })
                : t('bibs.noneAwaiting')
            }
            action={
              current.count > 0 ? (
                <Button type="primary" onClick={() => setConfirming(true)} data-testid="bibs-assign">
                  {t('bibs.assign')}
                </Button>
              ) : null
            }
          />
        ) : null}
      </section>

      <Modal
        open={confirming && previewed !== undefined}
        title={t('bibs.confirmTitle')}
        onCancel={() => {
          assignAction.setError('');
          setConfirming(false);
        }}
        onOk={() => {
          const values = form.getFieldsValue();
          if (previewed && !sameSeries(previewed.series, values)) {
            setConfirming(false);
            setPreviewed(undefined);
            return;
          }
          void assign();
        }}
        okText={t('bibs.assign')}
        cancelText={t('bibs.cancel')}
        confirmLoading={assignAction.busy}
        okButtonProps={{ ...{ 'data-testid': 'bibs-confirm' } }}
        destroyOnHidden
      >
        {current ? (
          <Typography.Paragraph>
            {t('bibs.confirmText', {
              count: current.count,
              first: current.first,
              last: current.last,
              item: previewed ? previewed.series.itemCode : '',
            })}
          </Typography.Paragraph>
        ) : null}
        {assignAction.error ? (
          <Alert type="error" showIcon role="alert" message={assignAction.error} data-testid="bibs-assign-error" />
        ) : null}
      </Modal>
    </div>
  );
}
