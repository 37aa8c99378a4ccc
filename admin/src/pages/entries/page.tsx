/**
 * The race's entries (issue 30 §5): search by name, phone, certificate, entry, order or bib number; filters by
 * item, status and channel; pages of 50 from the server; each row opens the entry. The search and filters live
 * in the address (back from an entry finds the list as it was), and the export buttons download the list as
 * filtered (.csv, .xlsx; whole numbers and money by the role, decided by the server).
 */
import { Alert, Input, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { ENTRY_CHANNELS, entryStatusLabel, type EntryChannel, type EntryModel } from '#contract/entry';
import { ORDER_STATUS_KEYS, REGISTRATION_STATUS_KEYS } from '#contract/enums';
import { formatRaceTime } from '#contract/race-clock';
import { api, apiUrl } from '../../api/client';
import { ExportButtons } from '../../lib/export-buttons';
import { useCan, useConsole } from '../../store';
import './entries.css';

interface EntryRow {
  entryNo: string;
  itemCode: string;
  channel: string;
  status: number;
  name: string;
  certMasked: string;
  phoneMasked: string;
  bib: string | null;
  createdAt: number;
  orderNo: string | null;
  orderStatus: number | null;
}

interface EntryItem {
  code: string;
  name: { zh: string; en: string };
  model: EntryModel;
}

interface EntryList {
  total: number;
  page: number;
  pageSize: number;
  rows: EntryRow[];
  items: EntryItem[];
  zone: string;
}

const FILTERS = ['q', 'item', 'status', 'channel'] as const;
type Filter = (typeof FILTERS)[number];

export default function EntriesPage() {
  const { t } = useTranslation();
  const { raceId = '' } = useParams();
  const language = useConsole((s) => s.language);
  const wholeNumbers = useCan('entries.personal');
  const [params, setParams] = useSearchParams();
  const filters = useMemo(
    () => Object.fromEntries(FILTERS.map((key) => [key, params.get(key) ?? ''])) as Record<Filter, string>,
    [params],
  );
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [list, setList] = useState<EntryList>();
  const [failed, setFailed] = useState<string>();
  // The list shown is the answer to `answered`; another address waits for its own.
  const [answered, setAnswered] = useState<string>();
  const asked = JSON.stringify([raceId, filters, page]);
  const loading = answered !== asked;

  useEffect(() => {
    let current = true;
    api.get<EntryList>(`/races/${encodeURIComponent(raceId)}/entries`, { ...filters, page }).then(
      (answer) => {
        if (!current) return;
        setList(answer);
        setFailed(undefined);
        setAnswered(asked);
      },
      (error: Error) => {
        if (!current) return;
        setFailed(error.message);
        setAnswered(asked);
      },
    );
    return () => {
      current = false;
    };
  }, [raceId, filters, page, asked]);

  /** The address with a filter changed (back to page 1). */
  const setFilter = (key: Filter, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next);
  };
  const setPage = (value: number) => {
    const next = new URLSearchParams(params);
    if (value > 1) next.set('page', String(value));
    else next.delete('page');
    setParams(next);
  };

  const items = list?.items ?? [];
  const itemOf = (code: string) => items.find((item) => item.code === code);
  const itemName = (code: string) => itemOf(code)?.name[language] || itemOf(code)?.name.zh || code;
  // One model for every item: the status filter is worded by it; else by the draw's wording.
  const models = [...new Set(items.map((item) => item.model))];
  const statusText = (status: number, model?: EntryModel, channel?: string) =>
    t(`entries.${entryStatusLabel(status, model, channel as EntryChannel).slice('enums.'.length)}`);
  const orderText = (status: number | null) => {
    const key = status === null ? undefined : ORDER_STATUS_KEYS[status];
    return key ? t(`entries.orderStatuses.${key}`) : '';
  };
  const exportUrl = (format: 'csv' | 'xlsx') =>
    apiUrl(`/races/${encodeURIComponent(raceId)}/entries/export`, { format, lang: language, ...filters });

  const columns: TableColumnsType<EntryRow> = [
    {
      key: 'entryNo',
      title: t('entries.columns.entryNo'),
      dataIndex: 'entryNo',
      render: (entryNo: string) => (
        <Link
          to={`/races/${encodeURIComponent(raceId)}/entries/${encodeURIComponent(entryNo)}`}
          aria-label={t('entries.open', { entryNo })}
          data-testid="entries-open"
        >
          {entryNo}
        </Link>
      ),
    },
    { key: 'name', title: t('entries.columns.name'), dataIndex: 'name' },
    { key: 'item', title: t('entries.columns.item'), render: (_, row) => itemName(row.itemCode) },
    {
      key: 'channel',
      title: t('entries.columns.channel'),
      render: (_, row) => t(`entries.channels.${row.channel}`, { defaultValue: row.channel }),
    },
    {
      key: 'status',
      title: t('entries.columns.status'),
      render: (_, row) => statusText(row.status, itemOf(row.itemCode)?.model, row.channel),
    },
    { key: 'cert', title: t('entries.columns.cert'), dataIndex: 'certMasked', className: 'entries-number' },
    { key: 'phone', title: t('entries.columns.phone'), dataIndex: 'phoneMasked', className: 'entries-number' },
    { key: 'bib', title: t('entries.columns.bib'), dataIndex: 'bib', render: (bib: string | null) => bib ?? '' },
    {
      key: 'order',
      title: t('entries.columns.order'),
      render: (_, row) =>
        row.orderNo ? (
          <Space direction="vertical" size={0}>
            <span className="entries-number">{row.orderNo}</span>
            <Tag color={row.orderStatus === 3 ? 'green' : undefined}>{orderText(row.orderStatus)}</Tag>
          </Space>
        ) : (
          ''
        ),
    },
    {
      key: 'created',
      title: t('entries.columns.created'),
      render: (_, row) => formatRaceTime(row.createdAt, 'YYYY-MM-DD HH:mm', list?.zone),
    },
  ];

  return (
    <div className="entries-page" data-testid="entries-page">
      <div className="console-page-head">
        <h1>{t('entries.title')}</h1>
        <Space wrap>
          <ExportButtons
            url={exportUrl}
            labels={{ csv: t('entries.exportCsv'), xlsx: t('entries.exportXlsx') }}
            testId="entries"
          />
        </Space>
      </div>
      <Typography.Paragraph className="entries-hint">
        {t('entries.exportHint')}
        {wholeNumbers ? '' : ` ${t('entries.exportMasked')}`}
      </Typography.Paragraph>
      <div role="search" className="entries-filters" aria-label={t('entries.filters')}>
        <Input.Search
          className="entries-filters__search"
          aria-label={t('entries.search')}
          placeholder={t('entries.searchPlaceholder')}
          // A new search in the address (back, a link) starts the box again with it.
          key={filters.q}
          defaultValue={filters.q}
          maxLength={64}
          enterButton={t('entries.search')}
          onSearch={(value) => setFilter('q', value.trim())}
          data-testid="entries-search"
        />
        <Select
          className="entries-filters__select"
          aria-label={t('entries.item')}
          placeholder={t('entries.allItems')}
          value={filters.item || undefined}
          allowClear
          onChange={(value?: string) => setFilter('item', value)}
          options={items.map((item) => ({ value: item.code, label: itemName(item.code) }))}
          data-testid="entries-item"
        />
        <Select
          className="entries-filters__select"
          aria-label={t('entries.status')}
          placeholder={t('entries.allStatuses')}
          value={filters.status || undefined}
          allowClear
          onChange={(value?: string) => setFilter('status', value)}
          options={REGISTRATION_STATUS_KEYS.map((_, status) => ({
            value: String(status),
            label: statusText(status, models.length === 1 ? models[0] : undefined),
          }))}
          popupMatchSelectWidth={false}
          data-testid="entries-status"
        />
        <Select
          className="entries-filters__select"
          aria-label={t('entries.channel')}
          placeholder={t('entries.allChannels')}
          value={filters.channel || undefined}
          allowClear
          onChange={(value?: string) => setFilter('channel', value)}
          options={ENTRY_CHANNELS.map((channel) => ({ value: channel, label: t(`entries.channels.${channel}`) }))}
          data-testid="entries-channel"
        />
      </div>
      {failed && <Alert type="error" showIcon message={failed} className="entries-error" role="alert" />}
      <Table<EntryRow>
        rowKey="entryNo"
        size="middle"
        columns={columns}
        dataSource={list?.rows ?? []}
        loading={loading}
        scroll={{ x: 'max-content' }}
        // Nothing said while the first answer is on its way; then antd's grey would be too light to read.
        locale={{ emptyText: loading ? ' ' : <span className="entries-empty">{t('entries.empty')}</span> }}
        pagination={{
          current: page,
          pageSize: list?.pageSize ?? 50,
          total: list?.total ?? 0,
          showSizeChanger: false,
          showTotal: (count) => t('entries.total', { count }),
          onChange: setPage,
        }}
        data-testid="entries-table"
      />
    </div>
  );
}
