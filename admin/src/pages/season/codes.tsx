/**
 * The season page's Codes tab (issue 32 §1): issue invitation codes for an item (count, uses, expiry on the race
 * clock, note), import named codes from a CSV file (a preview with every bad row by line; nothing is written
 * until the file is clean and the import confirmed), the list filtered by item and state with each code's use
 * and the entries that used it, revoke, and download the list or one issue's codes as .xlsx or .csv (the server
 * records each download). The codes are secrets: the page and the files are the owner's.
 */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
  type TableColumnsType,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRaceTime } from '#contract/race-clock';
import {
  CODE_STATES,
  CONSOLE_CODES_PER_ISSUE_MAX,
  type CodeState,
  type CodesImportAnswer,
  type CodesIssueAnswer,
  type SeasonCode,
  type SeasonCodesPage,
  type SeasonItem,
} from '#contract/season';
import { api, apiUrl } from '../../api/client';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { useLoaded } from '../../use-loaded';

const PAGE_SIZE = 20;
/** The tags' colours (antd's presets, their text darkened for contrast by lib/tags.css). */
const STATE_TONES: Record<CodeState, string | undefined> = {
  usable: 'green',
  usedUp: undefined,
  expired: 'orange',
  revoked: 'red',
};

interface IssueForm {
  itemCode: string;
  count: number;
  uses: number;
  expires?: Dayjs | null;
  note?: string;
}

export function CodesTab({ raceId, items, zone }: { raceId: string; items: SeasonItem[]; zone?: string }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const language = useConsole((s) => s.language);
  const base = `/races/${encodeURIComponent(raceId)}/season/codes`;
  const itemName = (code: string) => {
    const item = items.find((i) => i.code === code);
    return item ? item.name[language] || item.name.zh || code : code;
  };

  // The list and its filters.
  const [filters, setFilters] = useState<{ item?: string; state?: CodeState; batch?: number }>({});
  const [page, setPage] = useState(1);
  const query = useMemo(
    () => ({ item: filters.item, state: filters.state, batch: filters.batch, page, pageSize: PAGE_SIZE }),
    [filters, page],
  );
  const load = useCallback(() => api.get<SeasonCodesPage>(base, query), [base, query]);
  const { data, loading, error, reload } = useLoaded(load);
  const filter = (next: typeof filters) => {
    setFilters(next);
    setPage(1);
  };
  const fileUrl = (format: 'xlsx' | 'csv', batch?: number) =>
    apiUrl(`${base}/export`, batch === undefined ? { format, ...filters } : { format, batch });

  // Issue.
  const [form] = Form.useForm<IssueForm>();
  const issue = useAction();
  const [issued, setIssued] = useState<CodesIssueAnswer | null>(null);
  const submitIssue = async (values: IssueForm) => {
    const ok = await issue.run(async () => {
      const answer = await api.post<CodesIssueAnswer>(`${base}/issue`, {
        itemCode: values.itemCode,
        count: values.count,
        uses: values.uses,
        ...(values.expires ? { expires: values.expires.format('YYYY-MM-DD HH:mm:ss') } : {}),
        note: values.note ?? '',
      });
      setIssued(answer);
    });
    if (ok) {
      void message.success(t('season.codes.issuedToast'));
      form.resetFields(['count', 'note', 'expires']);
      reload();
    }
  };

  // Import: preview first.
  const importing = useAction();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [preview, setPreview] = useState<CodesImportAnswer | null>(null);
  const chooseFile = (chosen: File) => {
    void importing.run(async () => {
      const text = await chosen.text();
      setFile({ name: chosen.name, text });
      setPreview(null);
      setPreview(
        await api.postFile<CodesImportAnswer>(`${base}/import`, { text, fileName: chosen.name, write: false }),
      );
    });
    return false;
  };
  const confirmImport = () => {
    if (!file || !preview) return;
    modal.confirm({
      title: t('season.codes.importConfirmTitle', { count: preview.imported.length }),
      content: t('season.codes.importConfirmText', { file: file.name }),
      okText: t('season.codes.importWrite'),
      cancelText: t('season.cancel'),
      onOk: async () => {
        const ok = await importing.run(async () => {
          const answer = await api.postFile<CodesImportAnswer>(`${base}/import`, {
            text: file.text,
            fileName: file.name,
            write: true,
          });
          setPreview(answer);
        });
        if (ok) {
          void message.success(t('season.codes.importedToast'));
          reload();
        }
      },
    });
  };

  // Revoke.
  const revoke = (code: SeasonCode) => {
    modal.confirm({
      title: t('season.codes.revokeTitle', { code: code.code }),
      content: t('season.codes.revokeText'),
      okText: t('season.codes.revoke'),
      okButtonProps: { danger: true },
      cancelText: t('season.cancel'),
      onOk: async () => {
        try {
          await api.post(`${base}/${encodeURIComponent(code.code)}/revoke`);
          void message.success(t('season.codes.revokedToast', { code: code.code }));
          reload();
        } catch (failure) {
          void message.error((failure as Error).message);
        }
      },
    });
  };

  const time = (ms: number | null) => (ms === null ? '' : formatRaceTime(ms, 'YYYY-MM-DD HH:mm', zone));
  const columns: TableColumnsType<SeasonCode> = [
    {
      key: 'code',
      title: t('season.codes.columns.code'),
      render: (_, c) => <code className="season-code">{c.code}</code>,
    },
    { key: 'item', title: t('season.codes.columns.item'), render: (_, c) => itemName(c.itemCode) },
    { key: 'kind', title: t('season.codes.columns.kind'), render: (_, c) => t(`season.codes.kinds.${c.kind}`) },
    {
      key: 'used',
      title: t('season.codes.columns.used'),
      render: (_, c) => <span className="season-number">{`${c.used} / ${c.maxUses}`}</span>,
    },
    {
      key: 'state',
      title: t('season.codes.columns.state'),
      render: (_, c) => (
        <Tag color={STATE_TONES[c.state]} data-testid={`season-code-state-${c.code}`}>
          {t(`season.codes.states.${c.state}`)}
        </Tag>
      ),
    },
    {
      key: 'expires',
      title: t('season.codes.columns.expires'),
      render: (_, c) => (c.expiresAt === null ? t('season.codes.noExpiry') : time(c.expiresAt)),
    },
    { key: 'named', title: t('season.codes.columns.namedFor'), render: (_, c) => c.namedFor ?? '' },
    { key: 'note', title: t('season.codes.columns.note'), dataIndex: 'note' },
    {
      key: 'entries',
      title: t('season.codes.columns.entries'),
      render: (_, c) =>
        c.entries.length === 0 ? (
          ''
        ) : (
          <span className="season-number">
            {c.entries.slice(0, 3).join(', ')}
            {c.entries.length > 3 ? ` ${t('season.codes.more', { count: c.entries.length - 3 })}` : ''}
          </span>
        ),
    },
    {
      key: 'actions',
      title: t('season.codes.columns.actions'),
      render: (_, c) =>
        c.state === 'revoked' ? (
          <span className="season-none">{t('season.codes.revokedAt', { time: time(c.revokedAt) })}</span>
        ) : (
          <Button size="small" danger onClick={() => revoke(c)} data-testid={`season-revoke-${c.code}`}>
            {t('season.codes.revoke')}
          </Button>
        ),
    },
  ];

  const itemOptions = items.map((item) => ({ value: item.code, label: `${itemName(item.code)} (${item.code})` }));

  return (
    <Space direction="vertical" size={16} className="season-codes">
      <Card title={t('season.codes.issueTitle')} size="small">
        <Form<IssueForm>
          form={form}
          layout="inline"
          initialValues={{ uses: 1, count: 10 }}
          onFinish={(values) => void submitIssue(values)}
          className="season-issue"
          data-testid="season-issue-form"
        >
          <Form.Item
            name="itemCode"
            label={t('season.codes.item')}
            rules={[{ required: true, message: t('season.codes.itemRequired') }]}
          >
            <Select
              className="season-select"
              options={itemOptions}
              placeholder={t('season.codes.chooseItem')}
              data-testid="season-issue-item"
            />
          </Form.Item>
          <Form.Item
            name="count"
            label={t('season.codes.count')}
            rules={[{ required: true, message: t('season.codes.countRequired', { max: CONSOLE_CODES_PER_ISSUE_MAX }) }]}
          >
            <InputNumber min={1} max={CONSOLE_CODES_PER_ISSUE_MAX} precision={0} data-testid="season-issue-count" />
          </Form.Item>
          <Form.Item name="uses" label={t('season.codes.uses')} rules={[{ required: true }]}>
            <InputNumber min={1} max={1_000_000} precision={0} data-testid="season-issue-uses" />
          </Form.Item>
          <Form.Item name="expires" label={t('season.codes.expires', { zone: zone ?? '' })}>
            <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" placeholder={t('season.codes.noExpiry')} />
          </Form.Item>
          <Form.Item name="note" label={t('season.codes.note')}>
            <Input maxLength={200} className="season-note" data-testid="season-issue-note" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={issue.busy} data-testid="season-issue">
              {t('season.codes.issue')}
            </Button>
          </Form.Item>
        </Form>
        {issue.error && <Alert type="error" showIcon message={issue.error} className="season-alert" role="alert" />}
        {issued && (
          <Alert
            type="success"
            showIcon
            className="season-alert"
            data-testid="season-issued"
            message={t('season.codes.issued', { count: issued.count, item: itemName(issued.itemCode) })}
            description={
              <Space wrap>
                <Button size="small" onClick={() => filter({ batch: issued.batch })}>
                  {t('season.codes.showIssued')}
                </Button>
                <Button
                  size="small"
                  href={fileUrl('xlsx', issued.batch)}
                  download
                  icon={<DownloadOutlined aria-hidden />}
                >
                  {t('season.codes.downloadXlsx')}
                </Button>
                <Button
                  size="small"
                  href={fileUrl('csv', issued.batch)}
                  download
                  icon={<DownloadOutlined aria-hidden />}
                >
                  {t('season.codes.downloadCsv')}
                </Button>
              </Space>
            }
          />
        )}
      </Card>

      <Card title={t('season.codes.importTitle')} size="small">
        <Typography.Paragraph className="season-hint">{t('season.codes.importHint')}</Typography.Paragraph>
        <Space wrap>
          <Upload accept=".csv,text/csv" showUploadList={false} beforeUpload={chooseFile}>
            <Button icon={<UploadOutlined aria-hidden />} loading={importing.busy} data-testid="season-import-file">
              {t('season.codes.chooseFile')}
            </Button>
          </Upload>
          {file && <span className="season-file">{file.name}</span>}
        </Space>
        {importing.error && (
          <Alert type="error" showIcon message={importing.error} className="season-alert" role="alert" />
        )}
        {preview && (
          <ImportPreview preview={preview} itemName={itemName} onWrite={confirmImport} busy={importing.busy} />
        )}
      </Card>

      <Card title={t('season.codes.listTitle')} size="small">
        <div className="season-filters" role="search" aria-label={t('season.codes.filters')}>
          <Select
            className="season-select"
            aria-label={t('season.codes.item')}
            placeholder={t('season.codes.allItems')}
            allowClear
            value={filters.item}
            options={itemOptions}
            onChange={(value?: string) => filter({ ...filters, item: value, batch: undefined })}
            data-testid="season-filter-item"
          />
          <Select
            className="season-select"
            aria-label={t('season.codes.state')}
            placeholder={t('season.codes.allStates')}
            allowClear
            value={filters.state}
            options={CODE_STATES.map((state) => ({
              value: state,
              label: `${t(`season.codes.states.${state}`)} (${data?.counts[state] ?? 0})`,
            }))}
            onChange={(value?: CodeState) => filter({ ...filters, state: value, batch: undefined })}
            data-testid="season-filter-state"
          />
          {filters.batch !== undefined && (
            <Tag closable onClose={() => filter({})} className="season-batch">
              {t('season.codes.oneIssue', { time: time(filters.batch) })}
            </Tag>
          )}
          <Button href={fileUrl('xlsx')} download icon={<DownloadOutlined aria-hidden />} data-testid="season-xlsx">
            {t('season.codes.downloadXlsx')}
          </Button>
          <Button href={fileUrl('csv')} download icon={<DownloadOutlined aria-hidden />} data-testid="season-csv">
            {t('season.codes.downloadCsv')}
          </Button>
        </div>
        <Typography.Paragraph className="season-hint">{t('season.codes.secretHint')}</Typography.Paragraph>
        {error && <Alert type="error" showIcon message={error} className="season-alert" role="alert" />}
        <Table<SeasonCode>
          rowKey="code"
          size="middle"
          columns={columns}
          dataSource={data?.codes ?? []}
          loading={loading}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: loading ? ' ' : <span className="season-empty">{t('season.codes.empty')}</span> }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => t('season.codes.total', { count: total }),
            onChange: setPage,
          }}
          data-testid="season-codes"
        />
      </Card>
    </Space>
  );
}

function ImportPreview({
  preview,
  itemName,
  onWrite,
  busy,
}: {
  preview: CodesImportAnswer;
  itemName: (code: string) => string;
  onWrite: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  if (preview.problems.length > 0) {
    return (
      <Alert
        type="error"
        showIcon
        className="season-alert"
        role="alert"
        data-testid="season-import-problems"
        message={t('season.codes.importProblems', { count: preview.problems.length })}
        description={
          <ul className="season-problems">
            {preview.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        }
      />
    );
  }
  const rows = [
    ...preview.imported.map((row) => ({ ...row, key: `i${row.line}`, what: 'import' as const })),
    ...preview.skipped.map((row) => ({ ...row, code: row.existing, key: `s${row.line}`, what: 'skip' as const })),
  ].sort((a, b) => a.line - b.line);
  return (
    <div className="season-preview" data-testid="season-import-preview">
      <Alert
        type={preview.written ? 'success' : 'info'}
        showIcon
        className="season-alert"
        message={t(preview.written ? 'season.codes.importWritten' : 'season.codes.importReady', {
          count: preview.imported.length,
          skipped: preview.skipped.length,
        })}
      />
      <Table
        rowKey="key"
        size="small"
        dataSource={rows}
        pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
        columns={[
          { key: 'line', title: t('season.codes.columns.line'), dataIndex: 'line' },
          {
            key: 'code',
            title: t('season.codes.columns.code'),
            render: (_, row) => (row.code ? <code>{row.code}</code> : t('season.codes.generated')),
          },
          { key: 'item', title: t('season.codes.columns.item'), render: (_, row) => itemName(row.itemCode) },
          { key: 'name', title: t('season.codes.columns.namedFor'), dataIndex: 'name' },
          {
            key: 'what',
            title: t('season.codes.columns.outcome'),
            render: (_, row) =>
              t(
                row.what === 'skip'
                  ? 'season.codes.willSkip'
                  : preview.written
                    ? 'season.codes.imported'
                    : 'season.codes.willImport',
              ),
          },
        ]}
      />
      {!preview.written && preview.imported.length > 0 && (
        <Button type="primary" onClick={onWrite} loading={busy} data-testid="season-import-write">
          {t('season.codes.importWriteCount', { count: preview.imported.length })}
        </Button>
      )}
    </div>
  );
}
