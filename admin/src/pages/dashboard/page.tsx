/**
 * A race's live figures (issue 30 §4): cards for the entries, places left, wait list, orders, money (owners
 * and finance only: the server sends none to the others), letters and pick-up; tables by item and by
 * channel; entries per hour (last 48 h) and per day as charts with their figures as tables. The page asks
 * again every DASHBOARD_POLL_MS (polling: the server may run as several workers; docs/architecture.md) and
 * shows when the figures were made; a failed refresh keeps the last figures and says so.
 */
import { Alert, Card, Col, Result, Row, Spin, Statistic, Table, Tag, type TableColumnsType } from 'antd';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { DASHBOARD_POLL_MS, type ConsoleDashboard, type ItemFigures } from '#contract/console-figures';
import { ENTRY_CHANNELS, formatFen, type EntryChannel } from '#contract/entry';
import { formatRaceTime } from '#contract/race-clock';
import { api, ConsoleApiError } from '../../api/client';
import { useConsole } from '../../store';
import { EntriesChart } from './entries-chart';
import './dashboard.css';

const STATUSES = [0, 1, 2, 3, 4, 5] as const;

interface ItemRow {
  key: string;
  label: string;
  capacity: number | null;
  taken: number | null;
  left: number | null;
  entries: Record<number, number>;
  total: number;
  waiting: number | null;
  letters: number | null;
}

interface ChannelRow {
  key: string;
  item: string;
  channel: EntryChannel;
  entries: Record<number, number>;
  total: number;
}

const sum = (counts: Record<number, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** The figures of the race, asked again every DASHBOARD_POLL_MS while the page is open. */
function useLiveFigures(raceId: string) {
  // Kept with the race they are of: another race's figures are never shown while the new race's load.
  const [state, setState] = useState<{ raceId: string; figures?: ConsoleDashboard; error?: ConsoleApiError }>();
  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const load = async () => {
      try {
        const figures = await api.get<ConsoleDashboard>(`/races/${encodeURIComponent(raceId)}/dashboard`);
        if (!stopped) setState({ raceId, figures });
      } catch (failure) {
        if (stopped) return;
        const error = failure instanceof ConsoleApiError ? failure : new ConsoleApiError(String(failure), 0, undefined);
        // A failed refresh keeps the last figures (the page says they are not fresh).
        setState((last) => ({ raceId, figures: last?.raceId === raceId ? last.figures : undefined, error }));
      }
      if (!stopped) timer = window.setTimeout(() => void load(), DASHBOARD_POLL_MS);
    };
    void load();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [raceId]);
  return state?.raceId === raceId ? state : { figures: undefined, error: undefined };
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const { raceId = '' } = useParams();
  const language = useConsole((s) => s.language);
  const { figures, error } = useLiveFigures(raceId);

  const name = useCallback((item: ItemFigures) => item.name[language] || item.name.zh, [language]);
  const itemRows = useMemo<ItemRow[]>(
    () =>
      (figures?.items ?? []).flatMap((item) =>
        item.pools.map((pool) => ({
          key: `${item.itemCode}-${pool.pool}`,
          label: pool.pool === 'charity' ? t('dashboard.items.charity', { name: name(item) }) : name(item),
          capacity: pool.capacity,
          taken: pool.taken,
          left: pool.left,
          entries: pool.entries,
          total: sum(pool.entries),
          // The wait list and letters are the item's (a charity pool has neither of its own).
          waiting: pool.pool === 'main' ? item.waiting : null,
          letters: pool.pool === 'main' ? item.lettersSigned : null,
        })),
      ),
    [figures, name, t],
  );
  const channelRows = useMemo<ChannelRow[]>(
    () =>
      (figures?.items ?? []).flatMap((item) =>
        ENTRY_CHANNELS.filter((channel) => item.channels[channel]).map((channel) => ({
          key: `${item.itemCode}-${channel}`,
          item: name(item),
          channel,
          entries: item.channels[channel]!,
          total: sum(item.channels[channel]!),
        })),
      ),
    [figures, name],
  );
  const hourLabel = useCallback((at: string) => at.slice(11), []);
  const dayLabel = useCallback((at: string) => at.slice(5), []);
  const perHour = useMemo(() => (figures?.perHour ?? []).map((h) => ({ at: h.hour, count: h.count })), [figures]);
  const perDay = useMemo(() => (figures?.perDay ?? []).map((d) => ({ at: d.day, count: d.count })), [figures]);

  if (!figures) {
    if (error) {
      const missing = error.msgCode === 'raceNotFound';
      return (
        <Result
          status={missing ? '404' : 'error'}
          title={t(missing ? 'dashboard.notFound' : 'dashboard.loadFailed')}
          subTitle={missing ? undefined : error.message}
        />
      );
    }
    return <Spin className="console-page-loading" tip={t('shell.loading')} />;
  }

  const statusColumns = STATUSES.map((status) => ({
    title: t(`dashboard.status.${status}`),
    key: `s${status}`,
    align: 'right' as const,
    render: (_: unknown, row: { entries: Record<number, number> }) => row.entries[status] ?? 0,
  }));
  const dash = (n: number | null) => (n === null ? '–' : n);
  const itemColumns: TableColumnsType<ItemRow> = [
    { title: t('dashboard.items.item'), dataIndex: 'label', key: 'label' },
    { title: t('dashboard.items.capacity'), key: 'capacity', align: 'right', render: (_, r) => dash(r.capacity) },
    { title: t('dashboard.items.taken'), key: 'taken', align: 'right', render: (_, r) => dash(r.taken) },
    { title: t('dashboard.items.left'), key: 'left', align: 'right', render: (_, r) => dash(r.left) },
    ...statusColumns,
    { title: t('dashboard.items.total'), dataIndex: 'total', key: 'total', align: 'right' },
    { title: t('dashboard.items.waiting'), key: 'waiting', align: 'right', render: (_, r) => dash(r.waiting) },
    { title: t('dashboard.items.letters'), key: 'letters', align: 'right', render: (_, r) => dash(r.letters) },
  ];
  const channelColumns: TableColumnsType<ChannelRow> = [
    { title: t('dashboard.items.item'), dataIndex: 'item', key: 'item' },
    {
      title: t('dashboard.channels.channel'),
      key: 'channel',
      render: (_, r) => t(`dashboard.channels.${r.channel}`),
    },
    ...statusColumns,
    { title: t('dashboard.items.total'), dataIndex: 'total', key: 'total', align: 'right' },
  ];

  const { totals, orders, money, pickup } = figures;
  const zone = figures.timeZone;
  const updated = formatRaceTime(figures.asOf, 'HH:mm:ss', zone);
  const yuan = (fen: number) => formatFen(fen);
  const card = (testId: string, title: string, value: number | string, extra?: ReactNode) => (
    <Col xs={12} md={8} xl={6} key={testId}>
      <Card size="small" className="dashboard-card" data-testid={testId}>
        <Statistic title={<span className="dashboard-card__title">{title}</span>} value={value} />
        {extra && <div className="dashboard-card__extra">{extra}</div>}
      </Card>
    </Col>
  );

  return (
    <div className="dashboard" data-testid="dashboard-page">
      <div className="dashboard__head">
        <h1 className="dashboard__title">
          {figures.raceName[language] || figures.raceName.zh} · {t('dashboard.title')}
        </h1>
        <Tag color={figures.signUpOpen ? 'green' : undefined}>
          {t(figures.signUpOpen ? 'dashboard.signUpOpen' : 'dashboard.signUpClosed')}
        </Tag>
        <span className="dashboard__updated" data-testid="dashboard-updated">
          {t('dashboard.updated', { time: updated })}
        </span>
        <span className="dashboard__live">
          {t('dashboard.live', { seconds: DASHBOARD_POLL_MS / 1000 })} · {t('dashboard.charts.zone', { zone })}
        </span>
      </div>
      {error && (
        <Alert
          className="dashboard__alert"
          type="warning"
          showIcon
          role="status"
          message={t('dashboard.stale', { message: error.message, time: updated })}
        />
      )}

      <Row gutter={[12, 12]} className="dashboard__cards">
        {card('dashboard-entries', t('dashboard.cards.entries'), totals.entries)}
        {card(
          'dashboard-left',
          t('dashboard.cards.left'),
          totals.left === null ? t('dashboard.cards.noPlaces') : totals.left,
          totals.capacity === null
            ? undefined
            : t('dashboard.cards.ofCapacity', { capacity: totals.capacity.toLocaleString('en') }),
        )}
        {card('dashboard-waiting', t('dashboard.cards.waiting'), totals.waiting)}
        {card(
          'dashboard-letters',
          t('dashboard.cards.letters'),
          totals.lettersSigned,
          t('dashboard.cards.ofRegistered', { count: totals.byStatus[1] ?? 0 }),
        )}
        {card('dashboard-unpaid', t('dashboard.cards.unpaid'), orders[1] ?? 0)}
        {card('dashboard-paid', t('dashboard.cards.paid'), orders[3] ?? 0)}
        {card('dashboard-cancelled', t('dashboard.cards.cancelled'), orders[4] ?? 0)}
        {card('dashboard-refunded-orders', t('dashboard.cards.refundedOrders'), orders[5] ?? 0)}
        {card('dashboard-pickup-booked', t('dashboard.cards.pickupBooked'), pickup.booked)}
        {card('dashboard-pickup-collected', t('dashboard.cards.pickupCollected'), pickup.collected)}
        {money && (
          <>
            {card(
              'dashboard-received',
              t('dashboard.cards.received'),
              `${t('dashboard.cards.yuan')}${yuan(money.paidFen)}`,
            )}
            {card(
              'dashboard-refunded',
              t('dashboard.cards.refunded'),
              `${t('dashboard.cards.yuan')}${yuan(money.refundedFen)}`,
            )}
            {card('dashboard-net', t('dashboard.cards.net'), `${t('dashboard.cards.yuan')}${yuan(money.netFen)}`)}
            {card(
              'dashboard-owed',
              t('dashboard.cards.owed'),
              `${t('dashboard.cards.yuan')}${yuan(money.owedRefundFen)}`,
              t('dashboard.cards.owedCount', { count: money.owedRefunds }),
            )}
          </>
        )}
      </Row>
      {!money && (
        <p className="dashboard__note" data-testid="dashboard-money-hidden">
          {t('dashboard.moneyHidden')}
        </p>
      )}

      <Row gutter={[12, 12]} className="dashboard__charts">
        <Col xs={24} xl={12}>
          <Card size="small">
            <EntriesChart
              testId="dashboard-per-hour"
              title={t('dashboard.charts.perHour')}
              unit="hour"
              points={perHour}
              axisLabel={hourLabel}
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small">
            <EntriesChart
              testId="dashboard-per-day"
              title={t('dashboard.charts.perDay')}
              unit="day"
              points={perDay}
              axisLabel={dayLabel}
            />
          </Card>
        </Col>
      </Row>

      <section className="dashboard__section" aria-labelledby="dashboard-items-title">
        <h2 id="dashboard-items-title">{t('dashboard.items.title')}</h2>
        {/* Scrolls sideways on a narrow screen, and takes the focus to be scrolled by keyboard. */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is reached by keyboard */}
        <div className="dashboard__table-scroll" tabIndex={0} role="region" aria-labelledby="dashboard-items-title">
          <Table<ItemRow>
            size="small"
            data-testid="dashboard-items"
            columns={itemColumns}
            dataSource={itemRows}
            pagination={false}
            locale={{ emptyText: <span className="dashboard__empty">{t('dashboard.items.empty')}</span> }}
          />
        </div>
      </section>
      <section className="dashboard__section" aria-labelledby="dashboard-channels-title">
        <h2 id="dashboard-channels-title">{t('dashboard.channels.title')}</h2>
        {/* Scrolls sideways on a narrow screen, and takes the focus to be scrolled by keyboard. */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is reached by keyboard */}
        <div className="dashboard__table-scroll" tabIndex={0} role="region" aria-labelledby="dashboard-channels-title">
          <Table<ChannelRow>
            size="small"
            data-testid="dashboard-channels"
            columns={channelColumns}
            dataSource={channelRows}
            pagination={false}
            locale={{ emptyText: <span className="dashboard__empty">{t('dashboard.items.empty')}</span> }}
          />
        </div>
      </section>
    </div>
  );
}
