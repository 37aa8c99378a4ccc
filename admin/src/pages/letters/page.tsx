/**
 * The commitment letter (issue 32; the CLI's letters-status / letters-export): the race's current letter (its
 * version, whether it is open to sign, until when), how many registered entries signed it, signed an older
 * version (the text changed since: they sign again) or have not signed; the roster filtered by that and by
 * item (pages of 20), its export (.xlsx / .csv, recorded in the audit log), and a link to the messages page
 * with the audience of those who have not signed.
 */
import MessageOutlined from '@ant-design/icons/MessageOutlined';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Input,
  Radio,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { LETTER_STANDINGS, type LetterRowView, type LettersPageAnswer } from '#contract/console-mailing';
import { api, apiUrl } from '../../api/client';
import { ExportButtons } from '../../lib/export-buttons';
import { useCan, useConsole } from '../../store';
import { formatInstant, zoneOfRace } from '../../time';
import { useLoaded } from '../../use-loaded';
import '../mailing/mailing.css';

// Colours whose text keeps AA contrast on their own background (antd's orange and gold do not).
const STANDING_COLORS = { current: 'green', older: 'purple', unsigned: 'red' } as const;

export default function LettersPage() {
  const { t } = useTranslation();
  const { raceId = '' } = useParams();
  const language = useConsole((s) => s.language);
  const races = useConsole((s) => s.races);
  const canMessage = useCan('messages');
  const zone = zoneOfRace(raceId, races);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const standing = params.get('standing') ?? '';
  const item = params.get('item') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const base = `/races/${encodeURIComponent(raceId)}/letters`;
  const load = useCallback(
    () =>
      api.get<LettersPageAnswer>(base, {
        q: q || undefined,
        standing: standing || undefined,
        item: item || undefined,
        page,
      }),
    [base, q, standing, item, page],
  );
  const { data, loading, error } = useLoaded(load);

  const setFilter = (key: 'q' | 'standing' | 'item', value: string | undefined) => {
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

  const local = (text: { zh: string; en: string }) => text[language] || text.zh;
  const items = data?.items ?? [];
  const itemName = (code: string) => {
    const found = items.find((candidate) => candidate.code === code);
    return found ? local(found.name) : code;
  };
  const exportUrl = (format: 'csv' | 'xlsx') =>
    apiUrl(`${base}/export`, { format, q: q || undefined, standing: standing || undefined, item: item || undefined });
  const letter = data?.letter ?? null;

  const columns: TableColumnsType<LetterRowView> = [
    { key: 'entryNo', title: t('letters.columns.entryNo'), dataIndex: 'entryNo', className: 'after-entry-number' },
    { key: 'name', title: t('letters.columns.name'), dataIndex: 'name' },
    { key: 'item', title: t('letters.columns.item'), render: (_, row) => local(row.itemName) },
    {
      key: 'certificate',
      title: t('letters.columns.certificate'),
      dataIndex: 'certificate',
      className: 'after-entry-number',
    },
    {
      key: 'standing',
      title: t('letters.columns.standing'),
      render: (_, row) => <Tag color={STANDING_COLORS[row.standing]}>{t(`letters.standings.${row.standing}`)}</Tag>,
    },
    {
      key: 'signedAt',
      title: t('letters.columns.signedAt'),
      className: 'after-entry-number',
      render: (_, row) => (row.signedAt === null ? '' : formatInstant(row.signedAt, zone)),
    },
    { key: 'signerName', title: t('letters.columns.signerName'), render: (_, row) => row.signerName ?? '' },
    {
      key: 'cosigners',
      title: t('letters.columns.cosigners'),
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          {row.guardian ? <span>{t('letters.guardian', { who: row.guardian })}</span> : null}
          {row.relative ? <span>{t('letters.relative', { who: row.relative })}</span> : null}
        </Space>
      ),
    },
  ];

  return (
    <div className="after-entry-page" data-testid="letters-page">
      <div className="console-page-head">
        <h1>{t('letters.title')}</h1>
        <Space wrap>
          {canMessage ? (
            <Button
              href={`#/races/${encodeURIComponent(raceId)}/messages?audience=unsigned`}
              icon={<MessageOutlined aria-hidden />}
              data-testid="letters-message-unsigned"
            >
              {t('letters.messageUnsigned')}
            </Button>
          ) : null}
          <ExportButtons
            url={exportUrl}
            labels={{ csv: t('letters.exportCsv'), xlsx: t('letters.exportXlsx') }}
            testId="letters"
          />
        </Space>
      </div>
      <Typography.Paragraph className="after-entry-hint">{t('letters.exportHint')}</Typography.Paragraph>
      {error ? <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} /> : null}

      {data && !letter ? (
        <Alert type="info" showIcon message={t('letters.noLetter')} style={{ marginBottom: 16 }} />
      ) : null}
      {letter ? (
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2, xl: 4 }}
          style={{ marginBottom: 16 }}
          data-testid="letters-letter"
          items={[
            { key: 'title', label: t('letters.letterTitle'), children: local(letter.title) },
            {
              key: 'version',
              label: t('letters.version'),
              children: <Typography.Text code>{letter.versionHash.slice(0, 12)}</Typography.Text>,
            },
            {
              key: 'state',
              label: t('letters.state'),
              children: (
                <Tag color={letter.state === 'open' ? 'green' : undefined}>{t(`letters.states.${letter.state}`)}</Tag>
              ),
            },
            { key: 'deadline', label: t('letters.deadline'), children: letter.deadline ?? '—' },
          ]}
        />
      ) : null}

      <section aria-label={t('letters.countsTitle')} className="after-entry-counts" data-testid="letters-counts">
        {LETTER_STANDINGS.map((key) => (
          <Card size="small" key={key}>
            <Statistic title={t(`letters.standings.${key}`)} value={data?.counts[key] ?? '—'} />
          </Card>
        ))}
      </section>

      <div className="after-entry-filters" role="search" aria-label={t('letters.filters')}>
        <Input.Search
          style={{ maxWidth: 320 }}
          aria-label={t('letters.search')}
          placeholder={t('letters.searchPlaceholder')}
          key={q}
          defaultValue={q}
          maxLength={64}
          enterButton={t('letters.search')}
          onSearch={(value) => setFilter('q', value.trim())}
          data-testid="letters-search"
        />
        <Radio.Group
          value={standing}
          onChange={(event) => setFilter('standing', String(event.target.value))}
          optionType="button"
          aria-label={t('letters.columns.standing')}
          options={[
            { value: '', label: t('letters.allStandings') },
            ...LETTER_STANDINGS.map((value) => ({ value, label: t(`letters.standings.${value}`) })),
          ]}
          data-testid="letters-filter"
        />
        <Select
          aria-label={t('letters.columns.item')}
          placeholder={t('letters.allItems')}
          value={item || undefined}
          allowClear
          onChange={(value?: string) => setFilter('item', value)}
          options={items.map((candidate) => ({ value: candidate.code, label: itemName(candidate.code) }))}
          data-testid="letters-item"
        />
      </div>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
      <div role="region" aria-label={t('letters.tableLabel')} tabIndex={0} className="after-entry-scroll">
        <Table<LetterRowView>
          rowKey="entryNo"
          size="middle"
          columns={columns}
          dataSource={data?.rows ?? []}
          loading={loading}
          locale={{ emptyText: loading ? ' ' : <span className="after-entry-empty">{t('letters.empty')}</span> }}
          pagination={{
            current: page,
            pageSize: data?.pageSize ?? 20,
            total: data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            showTotal: (count) => t('letters.total', { count }),
            onChange: setPage,
          }}
          data-testid="letters-table"
        />
      </div>
    </div>
  );
}
