/**
 * One entry in the console (issue 30 §5): the person (numbers masked, the whole ones behind "Show" for roles
 * that may see them, each showing logged by the server), every answer of the registration form by its labels,
 * the orders with payments and refunds, the timeline with who took each step, the letter, pick-up, mailing
 * and requests; the actions the role may take (actions.tsx), each with a reason.
 */
import { Alert, Button, Descriptions, Empty, Result, Space, Spin, Table, Tabs, Tag, Timeline, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type {
  ConsoleEntryAnswer,
  ConsoleEntryDetail,
  ConsoleEntryPayment,
  ConsoleEntryPersonal,
  ConsoleEntryStep,
} from '#contract/console-entry';
import { OFFLINE_PROVIDER_PREFIX } from '#contract/console-entry';
import { entryStatusLabel } from '#contract/entry';
import { ORDER_STATUS_KEYS } from '#contract/enums';
import type { LocalText } from '#contract/registration-form';
import zhCommon from '../../../../src/locales/zh/common.json';
import enCommon from '../../../../src/locales/en/common.json';
import zhCentre from '../../../../src/locales/zh/centre.json';
import enCentre from '../../../../src/locales/en/centre.json';
import { api } from '../../api/client';
import { refundProblemWords } from '../../lib/refund-problem';
import { useCan, useConsole, type ConsoleLanguage } from '../../store';
import { EntryActions } from './actions';
import { PaymentQuery } from './payment-query';
import { yuanText } from './format';
import { formatInstant, zoneOfRace } from '../../time';
import './entry.css';

/** The site's own names of statuses, certificate types, channels and timeline steps (src/locales). */
const SITE = {
  zh: { enums: zhCommon.enums, channels: zhCentre.channels, steps: zhCentre.timeline },
  en: { enums: enCommon.enums, channels: enCentre.channels, steps: enCentre.timeline },
} as const;
const pick = (table: object, key: string | number): string =>
  (table as Record<string, string>)[String(key)] ?? String(key);

const local = (text: LocalText | undefined, language: ConsoleLanguage) =>
  text ? (language === 'en' ? text.en || text.zh : text.zh) : '';

function answerText(answer: ConsoleEntryAnswer, language: ConsoleLanguage): string {
  if (answer.shown) {
    const shown = Array.isArray(answer.shown) ? answer.shown : [answer.shown];
    return shown.map((s) => local(s, language)).join(', ');
  }
  const { value } = answer;
  if (value === null || value === undefined || value === '') return '—';
  if (answer.type === 'gender') return pick(SITE[language].enums.genders, String(value));
  if (answer.type === 'certificateType') return pick(SITE[language].enums.certificateTypes, String(value));
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export default function EntryPage() {
  const { t } = useTranslation();
  const { raceId = '', entryId = '' } = useParams();
  const language = useConsole((s) => s.language);
  const races = useConsole((s) => s.races);
  /** A payment's way: the provider's name, or the offline method. */
  const providerWords = (provider: string) =>
    provider.startsWith(OFFLINE_PROVIDER_PREFIX)
      ? `${t('entry.actions.offline')} · ${t(`entry.actions.methods.${provider.slice(OFFLINE_PROVIDER_PREFIX.length)}`, { defaultValue: provider })}`
      : t(`reconciliation.providers.${provider}`, { defaultValue: provider });
  /** An instant in the race's time zone. */
  const time = (at: number | null | undefined) => (at ? formatInstant(at, zoneOfRace(raceId, races)) : '—');
  const mayShow = useCan('entries.personal');
  const mayQuery = useCan('money');
  const [detail, setDetail] = useState<ConsoleEntryDetail>();
  const [problem, setProblem] = useState<string>();
  const [whole, setWhole] = useState<ConsoleEntryPersonal>();
  const base = `/races/${encodeURIComponent(raceId)}/entries/${encodeURIComponent(entryId)}`;

  const load = useCallback(() => {
    api.get<ConsoleEntryDetail>(base).then(
      (d) => {
        setDetail(d);
        setProblem(undefined);
      },
      (error: Error) => setProblem(error.message),
    );
  }, [base]);
  useEffect(load, [load]);

  const showWhole = () =>
    api.post<ConsoleEntryPersonal>(`${base}/personal`).then(setWhole, (error: Error) => setProblem(error.message));

  if (problem && !detail) {
    return (
      <Result
        status="warning"
        title={problem}
        extra={<Link to={`/races/${encodeURIComponent(raceId)}/entries`}>{t('entry.back')}</Link>}
      />
    );
  }
  if (!detail) return <Spin className="console-page-loading" />;

  const site = SITE[language];
  // The site's wording: 'registered' for a place taken at entry, 'won the lottery' for a place by draw.
  const statusKey = entryStatusLabel(detail.status, detail.itemModel ?? undefined, detail.channel).split('.');
  const status = pick(site.enums[statusKey[1] as 'registrationStatuses'], statusKey[2] ?? '');
  const showButton = (what: string) =>
    mayShow && !whole ? (
      <Button
        size="small"
        type="link"
        onClick={showWhole}
        data-testid={`entry-show-${what}`}
        title={t('entry.showHint')}
      >
        {t('entry.show')}
      </Button>
    ) : null;
  const p = detail.person;

  const personTab = (
    <>
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        title={t('entry.person.heading')}
        data-testid="entry-person"
        items={[
          { key: 'name', label: t('entry.person.name'), children: p.name },
          { key: 'gender', label: t('entry.person.gender'), children: pick(site.enums.genders, p.gender) },
          { key: 'birthday', label: t('entry.person.birthday'), children: p.birthday },
          {
            key: 'certType',
            label: t('entry.person.certType'),
            children: pick(site.enums.certificateTypes, p.certType),
          },
          {
            key: 'cert',
            label: t('entry.person.certNumber'),
            children: (
              <Space>
                <span data-testid="entry-cert">{whole?.certNumber ?? p.certMasked}</span>
                {showButton('cert')}
              </Space>
            ),
          },
          {
            key: 'phone',
            label: t('entry.person.phone'),
            children: (
              <Space>
                <span data-testid="entry-phone">{whole?.phone ?? p.phoneMasked}</span>
                {showButton('phone')}
              </Space>
            ),
          },
          { key: 'account', label: t('entry.person.account'), children: detail.account.contactMasked || '—' },
          { key: 'team', label: t('entry.person.team'), children: detail.team ? detail.team.name : '—' },
        ]}
      />
      <Typography.Title level={2} className="entry-section-title">
        {t('entry.answers.heading')}
      </Typography.Title>
      {detail.answers ? (
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, md: 2 }}
          data-testid="entry-answers"
          items={detail.answers.map((a) => ({
            key: a.key,
            label: local(a.label, language),
            children: answerText(a, language),
          }))}
        />
      ) : (
        <Alert type="info" showIcon message={t('entry.answers.none')} />
      )}
    </>
  );

  const ordersTab =
    detail.orders.length === 0 ? (
      <Empty description={t('entry.orders.none')} />
    ) : (
      <Space direction="vertical" size="large" className="entry-orders">
        {detail.orders.map((order) => (
          <div key={order.orderNo} data-testid={`entry-order-${order.orderNo}`}>
            <Descriptions
              bordered
              size="small"
              column={{ xs: 1, md: 2 }}
              title={t('entry.orders.order', { orderNo: order.orderNo })}
              items={[
                {
                  key: 'status',
                  label: t('entry.orders.status'),
                  children: pick(site.enums.orderStatuses, ORDER_STATUS_KEYS[order.status] ?? ''),
                },
                { key: 'amount', label: t('entry.orders.amount'), children: yuanText(order.amountFen) },
                {
                  key: 'line',
                  label: t('entry.orders.line'),
                  children: `${order.subOrderNo} · ${yuanText(order.lineFen)}`,
                },
                { key: 'paid', label: t('entry.orders.paid'), children: yuanText(order.paidFen) },
                { key: 'refunded', label: t('entry.orders.refunded'), children: yuanText(order.refundedFen) },
                { key: 'createdAt', label: t('entry.orders.createdAt'), children: time(order.createdAt) },
                { key: 'deadline', label: t('entry.orders.deadline'), children: time(order.deadlineAt) },
                { key: 'paidAt', label: t('entry.orders.paidAt'), children: time(order.paidAt) },
                { key: 'serialNo', label: t('entry.orders.serialNo'), children: order.serialNo ?? '—' },
              ]}
            />
            <Table
              size="small"
              rowKey="paymentId"
              pagination={false}
              title={() => t('entry.orders.payments')}
              locale={{ emptyText: t('entry.orders.noPayments') }}
              dataSource={order.payments}
              scroll={{ x: true }}
              columns={[
                { title: t('entry.orders.paymentId'), dataIndex: 'paymentId' },
                { title: t('entry.orders.provider'), dataIndex: 'provider', render: (p: string) => providerWords(p) },
                { title: t('entry.orders.amount'), dataIndex: 'amountFen', render: (fen: number) => yuanText(fen) },
                {
                  title: t('entry.orders.status'),
                  dataIndex: 'status',
                  render: (status: string) => t(`entry.orders.paymentStatuses.${status}`, { defaultValue: status }),
                },
                { title: t('entry.orders.tradeNo'), dataIndex: 'tradeNo', render: (v: string | null) => v ?? '—' },
                { title: t('entry.orders.createdAt'), dataIndex: 'createdAt', render: (at: number) => time(at) },
                ...(mayQuery
                  ? [
                      {
                        title: t('entry.query.button'),
                        key: 'query',
                        render: (_: unknown, payment: ConsoleEntryPayment) => (
                          <PaymentQuery base={base} payment={payment} time={time} onRecorded={load} />
                        ),
                      },
                    ]
                  : []),
              ]}
            />
            <Table
              size="small"
              rowKey="refundNo"
              pagination={false}
              title={() => t('entry.orders.refunds')}
              locale={{ emptyText: t('entry.orders.noRefunds') }}
              dataSource={order.refunds}
              scroll={{ x: true }}
              columns={[
                { title: t('entry.orders.refundNo'), dataIndex: 'refundNo' },
                { title: t('entry.orders.amount'), dataIndex: 'amountFen', render: (fen: number) => yuanText(fen) },
                {
                  title: t('entry.orders.reason'),
                  dataIndex: 'cause',
                  render: (cause: string) => t(`refunds.causes.${cause}`),
                },
                {
                  title: t('entry.orders.status'),
                  dataIndex: 'status',
                  render: (status: string) => t(`entry.orders.refundStatuses.${status}`, { defaultValue: status }),
                },
                { title: t('entry.orders.attempts'), dataIndex: 'attempts' },
                {
                  title: t('entry.orders.lastError'),
                  dataIndex: 'lastError',
                  render: (v: string | null) => (v ? refundProblemWords(t, v) : '—'),
                },
              ]}
            />
          </div>
        ))}
      </Space>
    );

  const who = (step: ConsoleEntryStep) => {
    const a = step.actor;
    if (a.kind === 'staff') return t('entry.timeline.staff', { name: a.name });
    if (a.kind === 'cli') return t('entry.timeline.cli', { name: a.name });
    return t(`entry.timeline.${a.kind}`);
  };
  const timelineTab = (
    <Timeline
      data-testid="entry-timeline"
      items={detail.timeline.map((step, i) => ({
        key: i,
        color: step.actor.kind === 'staff' || step.actor.kind === 'cli' ? 'orange' : 'blue',
        children: (
          <div>
            <strong>{pick(site.steps, step.step)}</strong> · {time(step.at)}
            <div className="entry-step-who">{t('entry.timeline.by', { who: who(step) })}</div>
            {step.note && <div className="entry-step-note">{step.note}</div>}
          </div>
        ),
      }))}
    />
  );

  const { letter, pickup, mailing } = detail;
  const afterTab = (
    <Descriptions
      bordered
      size="small"
      column={1}
      data-testid="entry-after"
      items={[
        {
          key: 'letter',
          label: t('entry.after.letter'),
          children: !letter.enabled
            ? t('entry.after.letterOff')
            : letter.signed
              ? t(letter.current ? 'entry.after.signed' : 'entry.after.signedOlder', {
                  at: time(letter.signedAt),
                  name: letter.signerName,
                })
              : t('entry.after.unsigned'),
        },
        {
          key: 'pickup',
          label: t('entry.after.pickup'),
          children: pickup
            ? `${t('entry.after.slot', { slot: pickup.slotId, status: pickup.status })}${
                pickup.collectedAt
                  ? ` · ${t('entry.after.collected', { at: time(pickup.collectedAt), by: pickup.collectedBy ?? '' })}`
                  : ''
              }`
            : t('entry.after.noPickup'),
        },
        {
          key: 'mailing',
          label: t('entry.after.mailing'),
          children: mailing
            ? `${mailing.method}${mailing.address ? ` · ${mailing.address}` : ''}${
                mailing.shipment ? ` · ${t('entry.after.shipment', mailing.shipment)}` : ''
              }`
            : t('entry.after.noMailing'),
        },
        {
          key: 'requests',
          label: t('entry.after.requests'),
          children:
            detail.requests.length === 0
              ? t('entry.after.noRequests')
              : detail.requests.map((r) => (
                  <div key={r.id}>
                    {t(`entry.after.${r.kind}`)} · {r.status} · {yuanText(r.amountFen)} · {r.reason}
                    {r.rejectReason ? ` · ${r.rejectReason}` : ''}
                  </div>
                )),
        },
      ]}
    />
  );

  return (
    <div className="console-entry" data-testid="entry-page">
      <Space wrap align="center" className="entry-heading">
        <Typography.Title level={1} className="entry-title">
          {t('entry.title', { entryNo: detail.entryNo })}
        </Typography.Title>
        <Tag color="blue" data-testid="entry-status">
          {status}
        </Tag>
        <span>
          {local(detail.itemName, language)} · {pick(site.channels, detail.channel)} ·{' '}
          {detail.bib ? `${t('entry.person.bib')} ${detail.bib}` : t('entry.person.noBib')} · {yuanText(detail.feeFen)}{' '}
          · {time(detail.createdAt)}
          {detail.waitRank !== null ? ` · ${t('entry.person.waitRank')} ${detail.waitRank}` : ''}
        </span>
      </Space>
      {problem && <Alert type="error" showIcon message={problem} />}
      <EntryActions base={base} detail={detail} onDone={load} />
      <Tabs
        defaultActiveKey="person"
        items={[
          { key: 'person', label: t('entry.tabs.person'), children: personTab },
          { key: 'orders', label: t('entry.tabs.orders'), children: ordersTab },
          { key: 'timeline', label: t('entry.tabs.timeline'), children: timelineTab },
          { key: 'after', label: t('entry.tabs.after'), children: afterTab },
        ]}
      />
    </div>
  );
}
