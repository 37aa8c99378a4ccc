/**
 * Race-pack mailing (issue 32; the CLI's mailing-export / mailing-import): how many runners chose to have their
 * pack mailed, how many parcels are shipped with a tracking number and how many still wait; the list (pages of
 * 20, filtered by the parcel's state; phones masked unless the role sees whole numbers); the list as .xlsx /
 * .csv for the courier (recorded in the audit log: it holds addresses); and the tracking file's import: the
 * file is checked first and every bad row shown by its line, nothing written until the organiser imports the
 * good rows (each runner messaged with the carrier and number).
 */
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import {
  Alert,
  App,
  Button,
  Card,
  Radio,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
  Upload,
  type TableColumnsType,
} from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import {
  PARCEL_STATES,
  TRACKING_COLUMNS,
  type MailingPageAnswer,
  type MailingRowView,
  type TrackingImportAnswer,
  type TrackingPreviewAnswer,
  type TrackingProblem,
  type TrackingRowView,
} from '#contract/console-mailing';
import { api, apiUrl } from '../../api/client';
import { ExportButtons } from '../../lib/export-buttons';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { formatInstant, zoneOfRace } from '../../time';
import { useLoaded } from '../../use-loaded';
import './mailing.css';

/** The tracking file as the preview checked it: imported as it is, never read again from the disk. */
interface Checked {
  fileName: string;
  content: string;
  preview: TrackingPreviewAnswer;
}

export default function MailingPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { raceId = '' } = useParams();
  const races = useConsole((s) => s.races);
  const zone = zoneOfRace(raceId, races);
  const [params, setParams] = useSearchParams();
  const state = params.get('state') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const base = `/races/${encodeURIComponent(raceId)}/mailing`;
  const load = useCallback(
    () => api.get<MailingPageAnswer>(base, { state: state || undefined, page }),
    [base, state, page],
  );
  const { data, loading, error, reload } = useLoaded(load);

  const setFilter = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('state', value);
    else next.delete('state');
    next.delete('page');
    setParams(next);
  };
  const setPage = (value: number) => {
    const next = new URLSearchParams(params);
    if (value > 1) next.set('page', String(value));
    else next.delete('page');
    setParams(next);
  };

  // The tracking file: checked (preview), then imported.
  const [checked, setChecked] = useState<Checked | null>(null);
  const [imported, setImported] = useState<TrackingImportAnswer | null>(null);
  const check = useAction();
  const write = useAction();
  const preview = (file: File) => {
    setImported(null);
    setChecked(null);
    write.setError('');
    void check.run(async () => {
      const content = await file.text();
      const answer = await api.postFile<TrackingPreviewAnswer>(`${base}/tracking/preview`, {
        content,
        fileName: file.name,
      });
      setChecked({ fileName: file.name, content, preview: answer });
    });
    return false;
  };
  const importChecked = () =>
    write.run(async () => {
      if (!checked) return;
      const answer = await api.postFile<TrackingImportAnswer>(`${base}/tracking/import`, {
        content: checked.content,
        fileName: checked.fileName,
      });
      setImported(answer);
      setChecked(null);
      void message.success(t('mailing.imported'));
      reload();
    });

  const problemText = (problem: TrackingProblem) =>
    t(`mailing.problems.${problem.code}`, { ...problem.params, line: problem.line });
  const counts = data?.counts;
  const changes = checked?.preview.rows.filter((row) => row.change !== 'same').length ?? 0;

  const columns: TableColumnsType<MailingRowView> = [
    { key: 'key', title: t('mailing.columns.key'), dataIndex: 'key', className: 'after-entry-number' },
    { key: 'name', title: t('mailing.columns.name'), dataIndex: 'name' },
    { key: 'phone', title: t('mailing.columns.phone'), dataIndex: 'phone', className: 'after-entry-number' },
    {
      key: 'address',
      title: t('mailing.columns.address'),
      render: (_, row) => `${row.region.join('')} ${row.address}`,
    },
    {
      key: 'entries',
      title: t('mailing.columns.entries'),
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          {row.entries.map((entry) => (
            <span key={entry}>{entry}</span>
          ))}
        </Space>
      ),
    },
    {
      key: 'state',
      title: t('mailing.columns.state'),
      render: (_, row) => (
        <Tag color={row.state === 'shipped' ? 'green' : undefined}>{t(`mailing.states.${row.state}`)}</Tag>
      ),
    },
    {
      key: 'tracking',
      title: t('mailing.columns.tracking'),
      render: (_, row) =>
        row.trackingNo ? (
          <Space direction="vertical" size={0}>
            <span>{row.carrier}</span>
            <span className="after-entry-number">{row.trackingNo}</span>
          </Space>
        ) : (
          ''
        ),
    },
    {
      key: 'shippedAt',
      title: t('mailing.columns.shippedAt'),
      className: 'after-entry-number',
      render: (_, row) => (row.shippedAt === null ? '' : formatInstant(row.shippedAt, zone)),
    },
  ];

  const previewColumns: TableColumnsType<TrackingRowView> = [
    { key: 'line', title: t('mailing.columns.line'), dataIndex: 'line', className: 'after-entry-number' },
    { key: 'key', title: t('mailing.columns.key'), dataIndex: 'key', className: 'after-entry-number' },
    { key: 'name', title: t('mailing.columns.name'), dataIndex: 'name' },
    { key: 'carrier', title: t('mailing.columns.carrier'), dataIndex: 'carrier' },
    {
      key: 'trackingNo',
      title: t('mailing.columns.trackingNo'),
      dataIndex: 'trackingNo',
      className: 'after-entry-number',
    },
    {
      key: 'change',
      title: t('mailing.columns.change'),
      render: (_, row) => (
        <Tag color={row.change === 'same' ? undefined : 'blue'}>{t(`mailing.changes.${row.change}`)}</Tag>
      ),
    },
  ];
  const problemColumns: TableColumnsType<TrackingProblem> = [
    { key: 'line', title: t('mailing.columns.line'), dataIndex: 'line', className: 'after-entry-number' },
    { key: 'problem', title: t('mailing.columns.problem'), render: (_, problem) => problemText(problem) },
  ];

  const exportUrl = (format: 'csv' | 'xlsx') => apiUrl(`${base}/export`, { format });

  return (
    <div className="after-entry-page" data-testid="mailing-page">
      <div className="console-page-head">
        <h1>{t('mailing.title')}</h1>
        <Space wrap>
          <ExportButtons
            url={exportUrl}
            labels={{ csv: t('mailing.exportCsv'), xlsx: t('mailing.exportXlsx') }}
            testId="mailing"
          />
        </Space>
      </div>
      <Typography.Paragraph className="after-entry-hint">
        {t('mailing.exportHint')}
        {data && !data.wholePhones ? ` ${t('mailing.exportMasked')}` : ''}
      </Typography.Paragraph>
      {error ? <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} /> : null}

      <section aria-label={t('mailing.countsTitle')} className="after-entry-counts" data-testid="mailing-counts">
        {(['toSend', 'shipped', 'waiting', 'pickups'] as const).map((key) => (
          <Card size="small" key={key}>
            <Statistic title={t(`mailing.counts.${key}`)} value={counts?.[key] ?? '—'} />
          </Card>
        ))}
      </section>

      <section aria-labelledby="mailing-list-title">
        <Typography.Title level={2} id="mailing-list-title">
          {t('mailing.listTitle')}
        </Typography.Title>
        <div className="after-entry-filters">
          <Radio.Group
            value={state}
            onChange={(event) => setFilter(String(event.target.value))}
            optionType="button"
            aria-label={t('mailing.filter')}
            options={[
              { value: '', label: t('mailing.allStates') },
              ...PARCEL_STATES.map((value) => ({ value, label: t(`mailing.states.${value}`) })),
            ]}
            data-testid="mailing-filter"
          />
        </div>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
        <div role="region" aria-labelledby="mailing-list-title" tabIndex={0} className="after-entry-scroll">
          <Table<MailingRowView>
            rowKey="key"
            size="middle"
            columns={columns}
            dataSource={data?.rows ?? []}
            loading={loading}
            locale={{ emptyText: loading ? ' ' : <span className="after-entry-empty">{t('mailing.empty')}</span> }}
            pagination={{
              current: page,
              pageSize: data?.pageSize ?? 20,
              total: data?.total ?? 0,
              showSizeChanger: false,
              hideOnSinglePage: true,
              showTotal: (count) => t('mailing.total', { count }),
              onChange: setPage,
            }}
            data-testid="mailing-table"
          />
        </div>
      </section>

      <section aria-labelledby="mailing-import-title" className="after-entry-section">
        <Typography.Title level={2} id="mailing-import-title">
          {t('mailing.importTitle')}
        </Typography.Title>
        <Typography.Paragraph>{t('mailing.importHelp', { columns: TRACKING_COLUMNS.join(',') })}</Typography.Paragraph>
        <Upload accept=".csv,text/csv" showUploadList={false} beforeUpload={preview}>
          <Button icon={<UploadOutlined aria-hidden />} loading={check.busy} data-testid="mailing-choose-file">
            {t('mailing.chooseFile')}
          </Button>
        </Upload>
        {check.error ? (
          <Alert
            type="error"
            showIcon
            message={check.error}
            role="alert"
            style={{ marginTop: 16 }}
            data-testid="mailing-file-error"
          />
        ) : null}
        {imported ? (
          <Alert
            type={imported.problems.length > 0 ? 'warning' : 'success'}
            showIcon
            style={{ marginTop: 16 }}
            data-testid="mailing-imported"
            message={t('mailing.importedCounts', {
              shipped: imported.shipped,
              unchanged: imported.unchanged,
              refused: imported.problems.length,
            })}
          />
        ) : null}
        {checked ? (
          <div data-testid="mailing-preview" style={{ marginTop: 16 }}>
            <Alert
              type={checked.preview.problems.length > 0 ? 'warning' : 'info'}
              showIcon
              message={t('mailing.previewSummary', {
                file: checked.fileName,
                good: checked.preview.rows.length,
                changes,
                bad: checked.preview.problems.length,
              })}
              description={t('mailing.previewNothingWritten')}
            />
            {checked.preview.problems.length > 0 ? (
              <>
                <Typography.Title level={3} style={{ marginTop: 16 }} id="mailing-problems-title">
                  {t('mailing.problemsTitle', { count: checked.preview.problems.length })}
                </Typography.Title>
                <Table<TrackingProblem>
                  rowKey={(problem) => `${problem.line}-${problem.code}`}
                  size="small"
                  columns={problemColumns}
                  dataSource={checked.preview.problems}
                  pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
                  data-testid="mailing-problems"
                />
              </>
            ) : null}
            <Typography.Title level={3} style={{ marginTop: 16 }} id="mailing-good-title">
              {t('mailing.goodTitle', { count: checked.preview.rows.length })}
            </Typography.Title>
            {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
            <div role="region" aria-labelledby="mailing-good-title" tabIndex={0} className="after-entry-scroll">
              <Table<TrackingRowView>
                rowKey="line"
                size="small"
                columns={previewColumns}
                dataSource={checked.preview.rows}
                locale={{ emptyText: <span className="after-entry-empty">{t('mailing.noGoodRows')}</span> }}
                pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
                data-testid="mailing-good-rows"
              />
            </div>
            {write.error ? <Alert type="error" showIcon message={write.error} role="alert" /> : null}
            <Space wrap style={{ marginTop: 16 }}>
              <Button
                type="primary"
                onClick={() => void importChecked()}
                loading={write.busy}
                disabled={checked.preview.rows.length === 0}
                data-testid="mailing-import"
              >
                {t('mailing.importRows', { count: checked.preview.rows.length })}
              </Button>
              <Button onClick={() => setChecked(null)} disabled={write.busy} data-testid="mailing-cancel">
                {t('mailing.cancel')}
              </Button>
            </Space>
          </div>
        ) : null}
      </section>
    </div>
  );
}
