/**
 * Results and photos imports (issue 32 §1; owner and results): choose a CSV file and see, before anything is
 * written, the first rows as they will be written and every bad row with its line and what is wrong; only a
 * file without a bad row can be imported (the CLI's import-results / import-photos: the same rules, nothing
 * written when any row is bad; results replace those of the same bib). The import's result, the race's history
 * of imports (console and CLI, from the audit log) and a template file with the right header.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import InboxOutlined from '@ant-design/icons/InboxOutlined';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import {
  Alert,
  App,
  Button,
  Empty,
  Popconfirm,
  Segmented,
  Space,
  Table,
  Typography,
  Upload,
  type TableColumnsType,
} from 'antd';
import {
  IMPORT_FILE_MAX_BYTES,
  IMPORT_TEMPLATE_HEADERS,
  importProblemText,
  type ConsoleImportKind,
  type ImportDone,
  type ImportHistoryItem,
  type ImportPreview,
  type ImportPreviewRow,
  type ImportProblem,
} from '#contract/console-imports';
import { api } from '../../api/client';
import { base64Of } from '../../lib/file-base64';
import { ScrollRegion } from '../../lib/scroll-region';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { formatInstant, zoneOfRace } from '../../time';
import { useLoaded } from '../../use-loaded';

interface Chosen {
  name: string;
  content: string;
}

/** The template of a kind: its header row (UTF-8 with a byte-order mark, so spreadsheet programs read it). */
function downloadTemplate(kind: ConsoleImportKind) {
  const blob = new Blob([`\uFEFF${IMPORT_TEMPLATE_HEADERS[kind].join(',')}\r\n`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${kind}-template.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function ImportsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { raceId = '' } = useParams();
  const language = useConsole((s) => s.language);
  const zone = useConsole((s) => zoneOfRace(raceId, s.races));
  const base = `/races/${encodeURIComponent(raceId)}/imports`;
  const [kind, setKind] = useState<ConsoleImportKind>('results');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [done, setDone] = useState<ImportDone | null>(null);
  const reading = useAction();
  const importing = useAction();
  const loadHistory = useCallback(() => api.get<ImportHistoryItem[]>(base), [base]);
  const history = useLoaded(loadHistory);

  const reset = () => {
    setChosen(null);
    setPreview(null);
    setDone(null);
    reading.setError('');
    importing.setError('');
  };
  const choose = (file: File) => {
    reset();
    void reading.run(async () => {
      if (file.size > IMPORT_FILE_MAX_BYTES) throw new Error(t('imports.tooLarge'));
      const next = { name: file.name, content: await base64Of(file) };
      setChosen(next);
      setPreview(
        await api.postFile<ImportPreview>(`${base}/${kind}/preview`, { content: next.content, fileName: file.name }),
      );
    });
    return false;
  };
  const runImport = () =>
    importing.run(async () => {
      if (!chosen) return;
      const answer = await api.postFile<ImportDone>(`${base}/${kind}`, {
        content: chosen.content,
        fileName: chosen.name,
      });
      setDone(answer);
      setPreview(null);
      setChosen(null);
      void message.success(t('imports.doneShort'));
      history.reload();
    });

  const problems = preview?.problems ?? [];
  const canImport = preview !== null && problems.length === 0 && preview.goodRows > 0 && !done;
  const problemColumns: TableColumnsType<ImportProblem & { key: number }> = [
    { title: t('imports.line'), key: 'line', width: 90, render: (_, p) => p.line ?? '—' },
    { title: t('imports.problem'), key: 'problem', render: (_, p) => importProblemText(p, language) },
  ];
  const rowColumns: TableColumnsType<ImportPreviewRow> = (preview?.columns ?? []).map((column) => ({
    title: t(`imports.columns.${column}`, { defaultValue: column }),
    dataIndex: column,
    key: column,
  }));
  const historyColumns: TableColumnsType<ImportHistoryItem> = [
    { title: t('imports.history.at'), key: 'at', render: (_, h) => formatInstant(h.at, zone) },
    { title: t('imports.history.kind'), key: 'kind', render: (_, h) => t(`imports.kinds.${h.kind}`) },
    {
      title: t('imports.history.by'),
      key: 'by',
      render: (_, h) => h.actor.replace(/^cli:/, `${t('imports.history.cli')} `),
    },
    { title: t('imports.history.file'), key: 'file', render: (_, h) => h.fileName ?? '—' },
    { title: t('imports.history.rows'), dataIndex: 'rows', key: 'rows', align: 'right' },
    { title: t('imports.history.replaced'), dataIndex: 'replaced', key: 'replaced', align: 'right' },
  ];

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="imports-page">
      <div>
        <div className="console-page-head" style={{ marginBottom: 4 }}>
          <h1>{t('imports.title')}</h1>
        </div>
        <Typography.Paragraph>{t('imports.intro')}</Typography.Paragraph>
      </div>
      <Space wrap>
        <Segmented<ConsoleImportKind>
          aria-label={t('imports.kind')}
          options={(['results', 'photos'] as const).map((value) => ({ value, label: t(`imports.kinds.${value}`) }))}
          value={kind}
          onChange={(value) => {
            setKind(value);
            reset();
          }}
        />
        <Button icon={<DownloadOutlined aria-hidden />} onClick={() => downloadTemplate(kind)}>
          {t('imports.template')}
        </Button>
      </Space>
      <Typography.Paragraph>{t(`imports.columnsHelp.${kind}`)}</Typography.Paragraph>
      <Upload.Dragger
        accept=".csv,text/csv"
        multiple={false}
        showUploadList={false}
        beforeUpload={choose}
        disabled={reading.busy || importing.busy}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined aria-hidden />
        </p>
        <p className="ant-upload-text">{t('imports.choose')}</p>
        <p className="ant-upload-hint">{t('imports.chooseHint')}</p>
      </Upload.Dragger>
      {reading.busy && <Typography.Text>{t('imports.reading')}</Typography.Text>}
      {reading.error && <Alert type="error" showIcon message={reading.error} />}
      {done && (
        <Alert
          type="success"
          showIcon
          message={t('imports.done', {
            rows: done.rows,
            replaced: done.replaced,
            kind: t(`imports.kinds.${done.kind}`),
          })}
        />
      )}
      {preview && chosen && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Title level={2} style={{ fontSize: 18 }}>
            {t('imports.previewTitle', { file: chosen.name })}
          </Typography.Title>
          {problems.length > 0 ? (
            <Alert
              type="error"
              showIcon
              message={t('imports.bad', { count: problems.length + preview.moreProblems })}
              description={t('imports.badHelp')}
            />
          ) : (
            <Alert
              type="info"
              showIcon
              message={t('imports.good', { rows: preview.goodRows, replaces: preview.replaces })}
            />
          )}
          {problems.length > 0 && (
            <ScrollRegion label={t('imports.problemsTable')}>
              <Table
                size="small"
                rowKey="key"
                columns={problemColumns}
                dataSource={problems.map((p, key) => ({ ...p, key }))}
                pagination={{ pageSize: 50, hideOnSinglePage: true }}
              />
            </ScrollRegion>
          )}
          {preview.rows.length > 0 && (
            <>
              <Typography.Text strong>
                {t('imports.firstRows', { shown: preview.rows.length, rows: preview.goodRows })}
              </Typography.Text>
              <ScrollRegion label={t('imports.rowsTable')}>
                <Table<ImportPreviewRow>
                  size="small"
                  rowKey={(_, index) => String(index)}
                  columns={rowColumns}
                  dataSource={preview.rows}
                  pagination={false}
                />
              </ScrollRegion>
            </>
          )}
          {importing.error && <Alert type="error" showIcon message={importing.error} />}
          <Space wrap>
            <Popconfirm
              title={t('imports.confirm', { rows: preview.goodRows })}
              okText={t('imports.import')}
              cancelText={t('imports.cancel')}
              onConfirm={runImport}
              disabled={!canImport}
            >
              <Button type="primary" disabled={!canImport} loading={importing.busy}>
                {t('imports.import')}
              </Button>
            </Popconfirm>
            <Button onClick={reset}>{t('imports.cancel')}</Button>
          </Space>
        </Space>
      )}
      <div>
        <Typography.Title level={2} style={{ fontSize: 18 }}>
          {t('imports.history.title')}
        </Typography.Title>
        {history.error && <Alert type="error" showIcon message={history.error} />}
        <ScrollRegion label={t('imports.history.title')}>
          <Table<ImportHistoryItem>
            rowKey={(h) => `${h.at}-${h.kind}-${h.fileName ?? ''}`}
            columns={historyColumns}
            dataSource={history.data ?? []}
            loading={history.loading}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            locale={{ emptyText: <Empty description={t('imports.history.empty')} /> }}
          />
        </ScrollRegion>
      </div>
    </Space>
  );
}
