/**
 * Refunds and deferrals of a race (issue 32; money: finance and owners). The race's rules as the runners read
 * them (the share of what was paid, until when; the deferral), the runners' requests worked from the top:
 * approve (the share refunded through the provider that took the money, once however often it is clicked) or
 * reject with a reason the runner reads; and the refunds owed (a pay-first draw's losers, a late or double
 * payment, an approved request) that the provider has not confirmed yet, with what it answered and "Retry".
 * The CLI's refunds-list, refund-approve, refund-reject, refunds-owed and refund-retry do the same; every
 * decision is in the audit log.
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Form,
  Input,
  Modal,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { REFUND_REJECT_REASON_MAX, type RefundRequestStatus } from '#contract/after-entry';
import type {
  ConsoleDeferralsIssued,
  ConsoleOwedRefund,
  ConsoleRefundOutcome,
  ConsoleRefundQueue,
  ConsoleRefundRequest,
  ConsoleRetryOutcome,
} from '#contract/console-refunds';
import { formatFen } from '#contract/entry';
import { api } from '../../api/client';
import { refundProblemWords } from '../../lib/refund-problem';
import { useAction } from '../../lib/use-action';
import { raceLabel, useConsole } from '../../store';
import { formatInstant, zoneOfRace } from '../../time';
import { useLoaded } from '../../use-loaded';

type StatusFilter = RefundRequestStatus | 'all';

const money = (fen: number) => `¥${formatFen(fen)}`;

export default function RefundsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { raceId = '' } = useParams();
  const language = useConsole((s) => s.language);
  const zone = useConsole((s) => zoneOfRace(raceId, s.races));
  const at = (ms: number | null) => (ms === null ? '—' : formatInstant(ms, zone));
  const base = `/races/${encodeURIComponent(raceId)}`;
  const entryLink = (entryNo: string) => `${base}/entries/${encodeURIComponent(entryNo)}`;

  const [status, setStatus] = useState<StatusFilter>('review');
  const loadQueue = useCallback(
    () => api.get<ConsoleRefundQueue>(`${base}/refunds`, status === 'all' ? {} : { status }),
    [base, status],
  );
  const queue = useLoaded(loadQueue);
  const loadOwed = useCallback(() => api.get<ConsoleOwedRefund[]>(`${base}/refunds-owed`), [base]);
  const owed = useLoaded(loadOwed);

  // Approve: once per click, the button busy meanwhile (the server refunds once whatever happens).
  const decide = useAction();
  const [deciding, setDeciding] = useState('');
  const approve = (request: ConsoleRefundRequest) => {
    setDeciding(request.entryNo);
    void decide
      .run(async () => {
        const outcome = await api.post<ConsoleRefundOutcome>(
          `${base}/refunds/${encodeURIComponent(request.entryNo)}/approve`,
        );
        if (!outcome.fresh) void message.info(t('refunds.alreadyDecided'));
        else if (outcome.kind === 'deferral') void message.success(t('refunds.deferralApproved'));
        else if (outcome.pending > 0)
          void message.warning(t('refunds.approvedPending', { amount: money(outcome.amountFen) }));
        else void message.success(t('refunds.approvedDone', { amount: money(outcome.refundedFen) }));
      })
      .finally(() => {
        setDeciding('');
        queue.reload();
        owed.reload();
      });
  };

  // Reject with a reason the runner reads.
  const [rejecting, setRejecting] = useState<ConsoleRefundRequest | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const reject = useAction();
  const saveReject = async () => {
    const { reason } = await form.validateFields();
    if (!rejecting) return;
    const done = await reject.run(() =>
      api.post(`${base}/refunds/${encodeURIComponent(rejecting.entryNo)}/reject`, { reason }),
    );
    if (done) {
      setRejecting(null);
      form.resetFields();
      void message.success(t('refunds.rejected'));
      queue.reload();
    }
  };

  // Retry one refund owed now.
  const retry = useAction();
  const [retrying, setRetrying] = useState('');
  const retryOne = (refund: ConsoleOwedRefund) => {
    setRetrying(refund.refundNo);
    void retry
      .run(async () => {
        const outcome = await api.post<ConsoleRetryOutcome>(
          `${base}/refunds-owed/${encodeURIComponent(refund.refundNo)}/retry`,
        );
        if (outcome.result === 'pending') {
          void message.warning(t('refunds.retryPending', { error: refundProblemWords(t, outcome.lastError) }));
        } else void message.success(t('refunds.retryDone', { refundNo: refund.refundNo }));
      })
      .finally(() => {
        setRetrying('');
        owed.reload();
        queue.reload();
      });
  };

  // The approved deferrals' codes for the next race.
  const races = useConsole((s) => s.races);
  const [issuing, setIssuing] = useState(false);
  const [issued, setIssued] = useState<ConsoleDeferralsIssued | null>(null);
  const [deferralForm] = Form.useForm<{ toRaceId: string; expires?: string }>();
  const issue = useAction();
  const issueCodes = async () => {
    const values = await deferralForm.validateFields();
    await issue.run(async () => {
      setIssued(await api.post<ConsoleDeferralsIssued>(`${base}/deferrals/issue`, values));
      queue.reload();
    });
  };

  const rules = queue.data?.rules;
  const counts = queue.data?.counts;
  const windowText = (w: { allowed: boolean; until: string; state: string }) =>
    w.allowed ? t(`refunds.window.${w.state}`, { until: w.until }) : t('refunds.window.closed');

  const requestColumns: TableColumnsType<ConsoleRefundRequest> = [
    {
      title: t('refunds.columns.entry'),
      key: 'entry',
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Link to={entryLink(r.entryNo)}>{r.entryNo}</Link>
          <span>
            {r.nameMasked} · {language === 'en' ? r.itemName.en || r.itemName.zh : r.itemName.zh}
          </span>
        </Space>
      ),
    },
    {
      title: t('refunds.columns.kind'),
      key: 'kind',
      render: (_, r) => <Tag>{t(`refunds.kinds.${r.kind}`)}</Tag>,
    },
    { title: t('refunds.columns.requested'), key: 'requested', render: (_, r) => at(r.createdAt) },
    { title: t('refunds.columns.reason'), dataIndex: 'reason', key: 'reason' },
    {
      title: t('refunds.columns.amount'),
      key: 'amount',
      render: (_, r) =>
        r.kind === 'refund' ? t('refunds.amountOf', { amount: money(r.amountFen), paid: money(r.paidFen) }) : '—',
    },
    {
      title: t('refunds.columns.decision'),
      key: 'decision',
      render: (_, r) => {
        if (r.status === 'review') {
          return (
            <Space wrap>
              <Popconfirm
                title={t(r.kind === 'refund' ? 'refunds.approveConfirm' : 'refunds.approveDeferralConfirm', {
                  entryNo: r.entryNo,
                  amount: money(r.amountFen),
                })}
                okText={t('refunds.approve')}
                cancelText={t('refunds.cancel')}
                onConfirm={() => approve(r)}
              >
                <Button
                  type="primary"
                  size="small"
                  loading={decide.busy && deciding === r.entryNo}
                  disabled={decide.busy}
                  data-testid={`refund-approve-${r.entryNo}`}
                >
                  {t('refunds.approve')}
                </Button>
              </Popconfirm>
              <Button
                size="small"
                danger
                onClick={() => setRejecting(r)}
                disabled={decide.busy}
                data-testid={`refund-reject-${r.entryNo}`}
              >
                {t('refunds.reject')}
              </Button>
            </Space>
          );
        }
        return (
          <Space direction="vertical" size={0} data-testid={`refund-decided-${r.entryNo}`}>
            <Typography.Text strong>
              {t(`refunds.statuses.${r.status}`)} · {at(r.decidedAt)}
            </Typography.Text>
            {r.rejectReason ? <span>{r.rejectReason}</span> : null}
            {r.refund ? (
              <Typography.Text strong={r.refund.status !== 'done'}>
                {r.refund.status === 'done'
                  ? t('refunds.refundDone', { at: at(r.refund.doneAt) })
                  : t('refunds.refundOwed', { attempts: r.refund.attempts })}
              </Typography.Text>
            ) : null}
          </Space>
        );
      },
    },
  ];

  const owedColumns: TableColumnsType<ConsoleOwedRefund> = [
    {
      title: t('refunds.columns.refund'),
      key: 'refund',
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text code>{r.refundNo}</Typography.Text>
          <span>{t('refunds.order', { orderNo: r.orderNo })}</span>
        </Space>
      ),
    },
    {
      title: t('refunds.columns.entry'),
      key: 'entry',
      // An entry number (10 characters) on one line, and the heading with it.
      width: 120,
      render: (_, r) => (r.entryNo ? <Link to={entryLink(r.entryNo)}>{r.entryNo}</Link> : '—'),
    },
    {
      title: t('refunds.columns.amount'),
      key: 'amount',
      render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{money(r.amountFen)}</span>,
    },
    { title: t('refunds.columns.cause'), key: 'cause', render: (_, r) => t(`refunds.causes.${r.cause}`) },
    {
      title: t('refunds.columns.state'),
      key: 'state',
      render: (_, r) =>
        r.state === 'failing' ? (
          <Typography.Text strong data-testid={`owed-state-${r.refundNo}`} style={{ whiteSpace: 'nowrap' }}>
            {t('refunds.states.failing')}
          </Typography.Text>
        ) : (
          <Tag data-testid={`owed-state-${r.refundNo}`}>{t('refunds.states.pending')}</Tag>
        ),
    },
    { title: t('refunds.columns.attempts'), dataIndex: 'attempts', key: 'attempts', align: 'right' },
    {
      title: t('refunds.columns.lastError'),
      key: 'lastError',
      render: (_, r) => (r.lastError ? refundProblemWords(t, r.lastError) : '—'),
    },
    { title: t('refunds.columns.created'), key: 'created', render: (_, r) => at(r.createdAt) },
    { title: t('refunds.columns.next'), key: 'next', render: (_, r) => at(r.nextAt || null) },
    {
      title: t('refunds.columns.action'),
      key: 'action',
      render: (_, r) => (
        <Button
          size="small"
          onClick={() => retryOne(r)}
          loading={retry.busy && retrying === r.refundNo}
          disabled={retry.busy}
          data-testid={`owed-retry-${r.refundNo}`}
        >
          {t('refunds.retry')}
        </Button>
      ),
    },
  ];

  const filterOptions = useMemo(
    () =>
      (['review', 'approved', 'rejected', 'all'] as const).map((value) => ({
        value,
        label:
          value === 'all'
            ? t('refunds.filter.all')
            : `${t(`refunds.filter.${value}`)}${counts ? ` (${counts[value]})` : ''}`,
      })),
    [counts, t],
  );

  const requestsTab = (
    <section aria-labelledby="refund-requests-title">
      <Typography.Title level={2} id="refund-requests-title" className="console-visually-hidden">
        {t('refunds.tabs.requests')}
      </Typography.Title>
      <Segmented
        value={status}
        onChange={(value) => setStatus(value as StatusFilter)}
        options={filterOptions}
        style={{ marginBottom: 16 }}
        data-testid="refund-filter"
      />
      {queue.data && queue.data.deferralsToIssue > 0 ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('refunds.deferrals.waiting', { count: queue.data.deferralsToIssue })}
          action={
            <Button
              size="small"
              onClick={() => {
                setIssued(null);
                issue.setError('');
                setIssuing(true);
              }}
              data-testid="deferrals-issue"
            >
              {t('refunds.deferrals.issue')}
            </Button>
          }
        />
      ) : null}
      {decide.error ? (
        <Alert type="error" showIcon message={decide.error} role="alert" style={{ marginBottom: 16 }} />
      ) : null}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
      <div role="region" aria-labelledby="refund-requests-title" tabIndex={0} style={{ overflowX: 'auto' }}>
        <Table
          rowKey="id"
          size="small"
          loading={queue.loading}
          columns={requestColumns}
          dataSource={queue.data?.requests ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: <Typography.Text>{t(`refunds.empty.${status}`)}</Typography.Text> }}
          data-testid="refund-requests"
        />
      </div>
    </section>
  );

  const owedTab = (
    <section aria-labelledby="refund-owed-title">
      <Typography.Title level={2} id="refund-owed-title" className="console-visually-hidden">
        {t('refunds.tabs.owed')}
      </Typography.Title>
      <Typography.Paragraph>{t('refunds.owedIntro')}</Typography.Paragraph>
      {owed.error ? <Alert type="error" showIcon message={owed.error} style={{ marginBottom: 16 }} /> : null}
      {retry.error ? (
        <Alert type="error" showIcon message={retry.error} role="alert" style={{ marginBottom: 16 }} />
      ) : null}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
      <div role="region" aria-labelledby="refund-owed-title" tabIndex={0} style={{ overflowX: 'auto' }}>
        <Table
          rowKey="refundNo"
          size="small"
          loading={owed.loading}
          columns={owedColumns}
          dataSource={owed.data ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: <Typography.Text>{t('refunds.empty.owed')}</Typography.Text> }}
          data-testid="refund-owed"
        />
      </div>
    </section>
  );

  return (
    <div data-testid="refunds-page">
      <div className="console-page-head" style={{ marginBottom: 4 }}>
        <h1>{t('refunds.title')}</h1>
      </div>
      <Typography.Paragraph>{t('refunds.intro')}</Typography.Paragraph>
      {queue.error ? <Alert type="error" showIcon message={queue.error} style={{ marginBottom: 16 }} /> : null}
      {rules ? (
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, md: 2 }}
          title={t('refunds.rules.title')}
          style={{ marginBottom: 16 }}
          data-testid="refund-rules"
          items={[
            { key: 'refunds', label: t('refunds.rules.refunds'), children: windowText(rules.refunds) },
            {
              key: 'share',
              label: t('refunds.rules.share'),
              children: rules.refunds.allowed ? t('refunds.rules.shareOf', { share: rules.refunds.sharePercent }) : '—',
            },
            { key: 'deferral', label: t('refunds.rules.deferral'), children: windowText(rules.deferral) },
            { key: 'always', label: t('refunds.rules.always'), children: t('refunds.rules.alwaysText') },
          ]}
        />
      ) : null}
      <Tabs
        defaultActiveKey="requests"
        items={[
          {
            key: 'requests',
            label: `${t('refunds.tabs.requests')}${counts ? ` (${counts.review})` : ''}`,
            children: requestsTab,
          },
          {
            key: 'owed',
            label: `${t('refunds.tabs.owed')}${owed.data ? ` (${owed.data.length})` : ''}`,
            children: owedTab,
          },
        ]}
      />

      <Modal
        open={issuing}
        title={t('refunds.deferrals.title')}
        okText={issued ? t('refunds.deferrals.close') : t('refunds.deferrals.issue')}
        cancelText={t('refunds.cancel')}
        cancelButtonProps={issued ? { style: { display: 'none' } } : {}}
        onOk={() => (issued ? setIssuing(false) : void issueCodes())}
        confirmLoading={issue.busy}
        onCancel={() => setIssuing(false)}
        destroyOnHidden
      >
        {issued ? (
          <Space direction="vertical" style={{ width: '100%' }} data-testid="deferrals-issued">
            <Typography.Paragraph>
              {t('refunds.deferrals.done', {
                count: issued.issued.length,
                until: formatInstant(issued.expiresAt, issued.zone),
              })}
            </Typography.Paragraph>
            {issued.issued.map((i) => (
              <div key={i.entryNo}>
                {i.entryNo} · {i.nameMasked} · {i.itemCode} · <Typography.Text code>{i.code}</Typography.Text>
              </div>
            ))}
            {issued.skipped.map((i) => (
              <div key={i.entryNo}>{t('refunds.deferrals.skipped', { entryNo: i.entryNo, itemCode: i.itemCode })}</div>
            ))}
          </Space>
        ) : (
          <Form form={deferralForm} layout="vertical">
            <Typography.Paragraph>{t('refunds.deferrals.help')}</Typography.Paragraph>
            <Form.Item
              name="toRaceId"
              label={t('refunds.deferrals.toRace')}
              rules={[{ required: true, message: t('refunds.deferrals.toRaceRequired') }]}
            >
              <Select
                options={races
                  .filter((r) => r.raceId !== raceId)
                  .map((r) => ({ value: r.raceId, label: raceLabel(r, language) }))}
              />
            </Form.Item>
            <Form.Item name="expires" label={t('refunds.deferrals.expires')} extra={t('refunds.deferrals.expiresHelp')}>
              <Input placeholder="YYYY-MM-DD HH:mm:ss" maxLength={19} />
            </Form.Item>
          </Form>
        )}
        {issue.error ? <Alert type="error" showIcon message={issue.error} role="alert" /> : null}
      </Modal>

      <Modal
        open={rejecting !== null}
        title={t('refunds.rejectTitle', { entryNo: rejecting?.entryNo ?? '' })}
        okText={t('refunds.reject')}
        okButtonProps={{ danger: true }}
        cancelText={t('refunds.cancel')}
        onOk={() => void saveReject()}
        confirmLoading={reject.busy}
        onCancel={() => {
          setRejecting(null);
          reject.setError('');
        }}
        destroyOnHidden
      >
        {rejecting ? (
          <Typography.Paragraph>
            {t(`refunds.kinds.${rejecting.kind}`)} · {rejecting.nameMasked} · {rejecting.reason}
          </Typography.Paragraph>
        ) : null}
        <Form form={form} layout="vertical">
          <Form.Item
            name="reason"
            label={t('refunds.rejectReason')}
            extra={t('refunds.rejectReasonHelp')}
            rules={[
              { required: true, whitespace: true, message: t('refunds.rejectReasonRequired') },
              { max: REFUND_REJECT_REASON_MAX },
            ]}
          >
            <Input.TextArea rows={3} maxLength={REFUND_REJECT_REASON_MAX} data-testid="refund-reject-reason" />
          </Form.Item>
        </Form>
        {reject.error ? <Alert type="error" showIcon message={reject.error} role="alert" /> : null}
      </Modal>
    </div>
  );
}
