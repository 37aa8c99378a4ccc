/**
 * The audit log (owner only, issue 30 §3): the newest records first, filtered by action, race, who and dates,
 * 50 to a page (newer / older); "verify the chain" says whether the hash chain is intact or where it breaks;
 * "export CSV" downloads every record matching the filters (the server records the export). Times are shown in
 * the record's race's time zone, or the organiser's.
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, DatePicker, Select, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import type { AuditEntry, AuditPage, AuditVerdict, StaffListed } from '#contract/staff';
import { api, apiUrl } from '../../api/client';
import { raceLabel, useConsole } from '../../store';
import { formatInstant, startOfDayIn, zoneOfRace } from '../../time';
import { ScrollRegion } from '../../lib/scroll-region';
import { useLoaded } from '../../use-loaded';
import { auditActionName } from './action-name';

type AuditRow = AuditEntry;
type Verdict = AuditVerdict;

interface Filters {
  action?: string;
  race?: string;
  actor?: string;
  dates?: [Dayjs | null, Dayjs | null] | null;
}

const PAGE_SIZE = 50;
const loadActions = () => api.get<string[]>('/audit/actions');
const loadStaff = () => api.get<StaffListed[]>('/staff');

/** A stored JSON value, shown compactly. */
function shown(json: string | null): string {
  if (json === null) return '';
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.entries(value)
        .map(([key, v]) => `${key}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(', ');
    }
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return json;
  }
}

/** Only the fields that changed, when both sides are objects; else both sides whole. */
function change(before: string | null, after: string | null): { before: string; after: string } {
  try {
    const b: unknown = before === null ? null : JSON.parse(before);
    const a: unknown = after === null ? null : JSON.parse(after);
    if (b && a && typeof b === 'object' && typeof a === 'object' && !Array.isArray(b) && !Array.isArray(a)) {
      const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
        (key) =>
          JSON.stringify((b as Record<string, unknown>)[key]) !== JSON.stringify((a as Record<string, unknown>)[key]),
      );
      const pick = (o: object) =>
        JSON.stringify(Object.fromEntries(keys.map((k) => [k, (o as Record<string, unknown>)[k] ?? null])));
      return { before: shown(pick(b)), after: shown(pick(a)) };
    }
  } catch {
    // not JSON: shown as it is
  }
  return { before: shown(before), after: shown(after) };
}

export default function AuditPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { language, races } = useConsole();
  const [filters, setFilters] = useState<Filters>({});
  const [befores, setBefores] = useState<(number | undefined)[]>([undefined]);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [verifying, setVerifying] = useState(false);

  // Days of the date filter: in the chosen race's zone, else the organiser's.
  const zone = zoneOfRace(filters.race, races);
  const query = useMemo(() => {
    const params: Record<string, string> = {};
    if (filters.action) params.action = filters.action;
    if (filters.race) params.race = filters.race;
    if (filters.actor) params.actor = filters.actor;
    const [start, end] = filters.dates ?? [];
    if (start) params.from = String(startOfDayIn(start, zone));
    if (end) params.to = String(startOfDayIn(end.add(1, 'day'), zone));
    return params;
  }, [filters, zone]);

  const before = befores.at(-1);
  const listed = useLoaded(
    useCallback(
      () => api.get<AuditPage>('/audit', { ...query, limit: PAGE_SIZE, ...(before ? { before } : {}) }),
      [query, before],
    ),
  );
  const page = listed.data;
  const actions = useLoaded(loadActions).data ?? [];
  const staff = useLoaded(loadStaff).data ?? [];

  const changeFilters = (next: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...next }));
    setBefores([undefined]);
  };

  const verify = async () => {
    setVerifying(true);
    setVerdict(null);
    try {
      setVerdict(await api.get<Verdict>('/audit/verify'));
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setVerifying(false);
    }
  };

  const exportHref = apiUrl('/audit/export', { format: 'csv', ...query });

  const raceName = (raceId: string | null) => {
    if (raceId === null) return t('audit.none');
    const race = races.find((r) => r.raceId === raceId);
    return race ? raceLabel(race, language) : raceId;
  };

  const columns: TableColumnsType<AuditRow> = [
    { title: t('audit.columns.seq'), dataIndex: 'seq', width: 72 },
    {
      title: t('audit.columns.at'),
      dataIndex: 'at',
      // The date over the time, neither broken: no column of the table breaks inside a word or a number.
      render: (at: number, row) => (
        <div style={{ whiteSpace: 'nowrap' }}>
          {formatInstant(at, zoneOfRace(row.raceId, races))
            .split(' ')
            .map((part) => (
              <div key={part}>{part}</div>
            ))}
        </div>
      ),
    },
    {
      title: t('audit.columns.actor'),
      dataIndex: 'actorName',
      render: (name: string, row) => (row.staffId === null ? `${t('audit.filters.cli')} (${name})` : name),
    },
    { title: t('audit.columns.source'), dataIndex: 'source' },
    {
      title: t('audit.columns.action'),
      dataIndex: 'action',
      width: 190,
      // The name, and under it the code the export and the command line show (one line: a code is one word).
      render: (action: string) => (
        <>
          <div>{auditActionName(t, action)}</div>
          <Typography.Text type="secondary" code style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
            {action}
          </Typography.Text>
        </>
      ),
    },
    { title: t('audit.columns.race'), dataIndex: 'raceId', render: raceName },
    { title: t('audit.columns.target'), dataIndex: 'target' },
    {
      title: t('audit.columns.change'),
      key: 'change',
      render: (_: unknown, row) => {
        const { before: b, after: a } = change(row.before, row.after);
        if (!b && !a) return t('audit.none');
        const text = `${b || t('audit.none')} → ${a || t('audit.none')}`;
        return (
          <Tooltip title={text}>
            <Typography.Text ellipsis style={{ maxWidth: 360, display: 'inline-block' }}>
              {text}
            </Typography.Text>
          </Tooltip>
        );
      },
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="audit-page">
      <div>
        <div className="console-page-head" style={{ marginBottom: 4 }}>
          <h1>{t('audit.title')}</h1>
          <Button onClick={() => void verify()} loading={verifying} data-testid="audit-verify">
            {verifying ? t('audit.verifying') : t('audit.verify')}
          </Button>
          <Tooltip title={t('audit.exportHelp')}>
            <Button href={exportHref} download data-testid="audit-export">
              {t('audit.export')}
            </Button>
          </Tooltip>
        </div>
        <Typography.Text>{t('audit.intro')}</Typography.Text>
      </div>
      {verdict &&
        (verdict.ok ? (
          <Alert
            type="success"
            showIcon
            data-testid="audit-verdict"
            message={t('audit.intact', { count: verdict.count })}
            description={<span style={{ wordBreak: 'break-all' }}>{t('audit.head', { head: verdict.head })}</span>}
          />
        ) : (
          <Alert
            type="error"
            showIcon
            data-testid="audit-verdict"
            message={t('audit.broken', { seq: verdict.brokenAt })}
            description={t('audit.brokenReason', { reason: verdict.reason, count: verdict.count })}
          />
        ))}
      <Space wrap>
        <Select
          aria-label={t('audit.filters.action')}
          style={{ minWidth: 200 }}
          allowClear
          showSearch
          placeholder={t('audit.filters.anyAction')}
          value={filters.action}
          onChange={(action?: string) => changeFilters({ action })}
          // Found by its name or by its code (the one exports and the command line show).
          filterOption={(input, option) =>
            `${option?.label ?? ''} ${option?.value ?? ''}`.toLowerCase().includes(input.trim().toLowerCase())
          }
          options={actions.map((action) => ({ value: action, label: auditActionName(t, action) }))}
        />
        <Select
          aria-label={t('audit.filters.race')}
          style={{ minWidth: 200 }}
          allowClear
          placeholder={t('audit.filters.anyRace')}
          value={filters.race}
          onChange={(race?: string) => changeFilters({ race })}
          options={races.map((race) => ({ value: race.raceId, label: raceLabel(race, language) }))}
        />
        <Select
          aria-label={t('audit.filters.actor')}
          style={{ minWidth: 220 }}
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder={t('audit.filters.anyActor')}
          value={filters.actor}
          onChange={(actor?: string) => changeFilters({ actor })}
          options={[
            { value: 'cli', label: t('audit.filters.cli') },
            ...staff.map((s) => ({ value: String(s.id), label: `${s.name} <${s.email}>` })),
          ]}
        />
        <DatePicker.RangePicker
          aria-label={t('audit.filters.dates')}
          placeholder={[t('audit.filters.start'), t('audit.filters.end')]}
          value={filters.dates ?? null}
          onChange={(dates) => changeFilters({ dates })}
        />
        <Button
          onClick={() => {
            setFilters({});
            setBefores([undefined]);
          }}
        >
          {t('audit.filters.reset')}
        </Button>
      </Space>
      <Typography.Text>{t('audit.timeZone', { zone })}</Typography.Text>
      {listed.error && <Alert type="error" showIcon message={listed.error} />}
      <ScrollRegion label={t('audit.title')}>
        <Table<AuditRow>
          rowKey="seq"
          size="small"
          loading={listed.loading}
          dataSource={page?.records ?? []}
          columns={columns}
          pagination={false}
          locale={{ emptyText: t('audit.empty') }}
        />
      </ScrollRegion>
      <Space>
        <Button disabled={befores.length <= 1} onClick={() => setBefores([undefined])}>
          {t('audit.first')}
        </Button>
        <Button disabled={befores.length <= 1} onClick={() => setBefores((list) => list.slice(0, -1))}>
          {t('audit.newer')}
        </Button>
        <Typography.Text>{t('audit.page', { page: befores.length })}</Typography.Text>
        <Button
          disabled={!page || page.next === null}
          onClick={() => page?.next && setBefores((list) => [...list, page.next ?? undefined])}
          data-testid="audit-older"
        >
          {t('audit.older')}
        </Button>
      </Space>
    </Space>
  );
}
