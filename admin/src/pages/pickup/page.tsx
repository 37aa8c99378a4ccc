/**
 * Pack pick-up for the organiser (issue 32): the race's slots with their capacities and the live booked and
 * collected figures (refreshed every 10 s while the page is in view), a slot's capacity changed (saved in the
 * race info as `site add-race` saves it, refused below the places already booked), the staff check-in keys of
 * the public desk screen (issued with a label and shown once with a copy button, listed, revoked), and the
 * bookings downloaded as .xlsx or .csv. Each change and download is in the audit log (the CLI's action names).
 */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Modal,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { MAX_SLOT_CAPACITY } from '#contract/after-entry';
import {
  STAFF_KEY_LABEL_MAX,
  type ConsoleIssuedKey,
  type ConsolePickupSlot,
  type ConsolePickupView,
  type ConsoleStaffKey,
} from '#contract/console-pickup';
import { formatRaceTime } from '#contract/race-clock';
import { api, apiUrl } from '../../api/client';
import { useAction } from '../../lib/use-action';
import { useLoaded } from '../../use-loaded';
import './pickup.css';

/** How often the figures are read again while the page is in view. */
const REFRESH_MS = 10_000;

/** Reloads every `ms` while the page is visible, and at once when it becomes visible again. */
function useRefreshWhileVisible(reload: () => void, ms: number) {
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, ms);
    const visible = () => document.visibilityState === 'visible' && reload();
    document.addEventListener('visibilitychange', visible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', visible);
    };
  }, [reload, ms]);
}

function CapacityModal({
  raceId,
  slot,
  onClose,
  onSaved,
}: {
  raceId: string;
  slot: ConsolePickupSlot | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { busy, error, run } = useAction();
  // Keyed by the slot (the parent): a new slot starts from its capacity and no error.
  const [capacity, setCapacity] = useState<number | null>(slot?.capacity ?? null);
  const taken = slot ? slot.booked + slot.collected : 0;
  const save = async () => {
    if (!slot || capacity === null) return;
    const done = await run(() =>
      api.post(`/races/${encodeURIComponent(raceId)}/pickup/capacity`, { slotId: slot.slotId, capacity }),
    );
    if (done) {
      void message.success(t('pickup.capacity.saved'));
      onSaved();
    }
  };
  return (
    <Modal
      open={slot !== null}
      title={slot ? t('pickup.capacity.title', { slot: `${slot.date} ${slot.start}–${slot.end}` }) : ''}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('pickup.capacity.save')}
      cancelText={t('pickup.cancel')}
      okButtonProps={{ loading: busy, disabled: capacity === null }}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph>{t('pickup.capacity.help', { taken })}</Typography.Paragraph>
        <label htmlFor="pickup-capacity">{t('pickup.capacity.label')}</label>
        <InputNumber
          id="pickup-capacity"
          min={0}
          max={MAX_SLOT_CAPACITY}
          precision={0}
          value={capacity}
          onChange={(value) => setCapacity(typeof value === 'number' ? value : null)}
          style={{ width: 200 }}
          data-testid="capacity-input"
        />
        {error && <Alert type="error" showIcon message={error} data-testid="capacity-error" />}
      </Space>
    </Modal>
  );
}

function IssuedKey({ issued, onClose }: { issued: ConsoleIssuedKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (!issued) return;
    try {
      await navigator.clipboard.writeText(issued.key);
      void message.success(t('pickup.keys.copied'));
    } catch {
      void message.error(t('pickup.keys.copyFailed'));
    }
  };
  return (
    <Modal
      open={issued !== null}
      title={issued ? t('pickup.keys.issuedTitle', { label: issued.label }) : ''}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="key-done">
          {t('pickup.keys.done')}
        </Button>
      }
    >
      {issued && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon message={t('pickup.keys.shownOnce')} />
          <Space.Compact style={{ width: '100%' }}>
            <Input
              readOnly
              value={issued.key}
              aria-label={t('pickup.keys.key')}
              data-testid="issued-key"
              className="pickup-key"
              onFocus={(event) => event.target.select()}
            />
            <Button onClick={() => void copy()}>{t('pickup.keys.copy')}</Button>
          </Space.Compact>
          <Typography.Paragraph>
            {t('pickup.keys.instruction', { url: `${window.location.origin}/#/pickup-check-in` })}
          </Typography.Paragraph>
        </Space>
      )}
    </Modal>
  );
}

export default function PickupPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { raceId = '' } = useParams();
  const base = `/races/${encodeURIComponent(raceId)}/pickup`;
  const load = useCallback(
    async () => ({ ...(await api.get<ConsolePickupView>(base)), updatedAt: Date.now() }),
    [base],
  );
  const view = useLoaded(load);
  useRefreshWhileVisible(view.reload, REFRESH_MS);
  const [editing, setEditing] = useState<ConsolePickupSlot | null>(null);
  const [issued, setIssued] = useState<ConsoleIssuedKey | null>(null);
  const [label, setLabel] = useState('');
  const issue = useAction();

  const data = view.data;
  const zone = data?.timeZone;
  const time = (ms: number) => formatRaceTime(ms, 'YYYY-MM-DD HH:mm', zone ?? 'Asia/Shanghai');
  const slots = data?.slots ?? [];
  const totals = slots.reduce(
    (sum, slot) => ({
      capacity: sum.capacity + slot.capacity,
      booked: sum.booked + slot.booked,
      collected: sum.collected + slot.collected,
      left: sum.left + slot.left,
    }),
    { capacity: 0, booked: 0, collected: 0, left: 0 },
  );

  const issueKey = async () => {
    let answer: ConsoleIssuedKey | undefined;
    const done = await issue.run(async () => {
      answer = await api.post<ConsoleIssuedKey>(`${base}/keys`, { label });
    });
    if (done && answer) {
      setIssued(answer);
      setLabel('');
      view.reload();
    }
  };

  const revoke = (key: ConsoleStaffKey) => {
    modal.confirm({
      title: t('pickup.keys.revokeTitle', { label: key.label }),
      content: t('pickup.keys.revokeConfirm'),
      okText: t('pickup.keys.revoke'),
      okButtonProps: { danger: true },
      cancelText: t('pickup.cancel'),
      onOk: async () => {
        try {
          await api.post(`${base}/keys/revoke`, { label: key.label });
          void message.success(t('pickup.keys.revoked', { label: key.label }));
          view.reload();
        } catch (error) {
          void message.error((error as Error).message);
        }
      },
    });
  };

  const slotColumns: TableColumnsType<ConsolePickupSlot> = [
    { title: t('pickup.slots.date'), dataIndex: 'date' },
    { title: t('pickup.slots.time'), key: 'time', render: (_: unknown, slot) => `${slot.start}–${slot.end}` },
    {
      title: t('pickup.slots.capacity'),
      dataIndex: 'capacity',
      align: 'right',
      render: (capacity: number, slot) => (
        <Space size={4}>
          <span className="pickup-number">{capacity}</span>
          <Button
            type="link"
            size="small"
            onClick={() => setEditing(slot)}
            aria-label={t('pickup.capacity.changeOf', { slot: `${slot.date} ${slot.start}` })}
            data-testid="capacity-change"
          >
            {t('pickup.capacity.change')}
          </Button>
        </Space>
      ),
    },
    {
      title: t('pickup.slots.booked'),
      dataIndex: 'booked',
      align: 'right',
      render: (n: number) => <span className="pickup-number">{n}</span>,
    },
    {
      title: t('pickup.slots.collected'),
      dataIndex: 'collected',
      align: 'right',
      render: (n: number) => (
        <span className="pickup-number" data-testid="slot-collected">
          {n}
        </span>
      ),
    },
    {
      title: t('pickup.slots.left'),
      dataIndex: 'left',
      align: 'right',
      render: (n: number) =>
        n === 0 ? <Tag color="red">{t('pickup.slots.full')}</Tag> : <span className="pickup-number">{n}</span>,
    },
  ];

  const keyColumns: TableColumnsType<ConsoleStaffKey> = [
    { title: t('pickup.keys.label'), dataIndex: 'label' },
    { title: t('pickup.keys.issuedAt'), dataIndex: 'createdAt', render: (at: number) => time(at) },
    {
      title: t('pickup.keys.state'),
      dataIndex: 'revokedAt',
      render: (at: number | null) =>
        at === null ? (
          <Badge status="success" text={t('pickup.keys.active')} />
        ) : (
          <Badge status="default" text={t('pickup.keys.revokedAt', { at: time(at) })} />
        ),
    },
    {
      title: t('pickup.keys.actions'),
      key: 'actions',
      render: (_: unknown, key) =>
        key.revokedAt === null && (
          <Button type="link" size="small" danger onClick={() => revoke(key)} data-testid="key-revoke">
            {t('pickup.keys.revoke')}
          </Button>
        ),
    },
  ];

  const state = data?.state;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="pickup-page">
      <div>
        <div className="console-page-head" style={{ marginBottom: 4 }}>
          <h1>{t('pickup.title')}</h1>
          <Space wrap>
            <Button
              icon={<DownloadOutlined aria-hidden />}
              href={apiUrl(`${base}/export`, { format: 'xlsx' })}
              data-testid="pickup-export-xlsx"
            >
              {t('pickup.export.xlsx')}
            </Button>
            <Button
              icon={<DownloadOutlined aria-hidden />}
              href={apiUrl(`${base}/export`, { format: 'csv' })}
              data-testid="pickup-export-csv"
            >
              {t('pickup.export.csv')}
            </Button>
          </Space>
        </div>
        <Typography.Text>{t('pickup.intro')}</Typography.Text>
      </div>
      {view.error && <Alert type="error" showIcon message={view.error} />}
      {data && (
        <Space wrap size="small" data-testid="pickup-state">
          <Tag color={state === 'open' ? 'green' : state === 'ended' ? 'orange' : undefined}>
            {t(`pickup.state.${state}`)}
          </Tag>
          {data.deadline && <span>{t('pickup.deadline', { deadline: data.deadline })}</span>}
          <Typography.Text type="secondary">
            {t('pickup.updated', { at: formatRaceTime(data.updatedAt, 'HH:mm:ss', zone ?? 'Asia/Shanghai') })}
          </Typography.Text>
        </Space>
      )}
      <div className="pickup-totals">
        <Card size="small">
          <Statistic title={t('pickup.totals.capacity')} value={totals.capacity} />
        </Card>
        <Card size="small">
          <Statistic title={t('pickup.totals.booked')} value={totals.booked} />
        </Card>
        <Card size="small">
          <Statistic title={t('pickup.totals.collected')} value={totals.collected} data-testid="total-collected" />
        </Card>
        <Card size="small">
          <Statistic title={t('pickup.totals.left')} value={totals.left} />
        </Card>
      </div>
      <Card title={t('pickup.slots.title')} size="small">
        <Typography.Paragraph type="secondary">{t('pickup.slots.help')}</Typography.Paragraph>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
        <div role="region" aria-label={t('pickup.slots.title')} tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table<ConsolePickupSlot>
            rowKey="slotId"
            size="small"
            loading={view.loading && !data}
            dataSource={slots}
            columns={slotColumns}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            locale={{ emptyText: <span className="pickup-empty">{t('pickup.slots.empty')}</span> }}
            data-testid="pickup-slots"
          />
        </div>
      </Card>
      <Card title={t('pickup.keys.title')} size="small">
        <Typography.Paragraph type="secondary">{t('pickup.keys.help')}</Typography.Paragraph>
        <Form layout="inline" onFinish={() => void issueKey()} className="pickup-key-form">
          <Form.Item label={t('pickup.keys.label')} htmlFor="pickup-key-label">
            <Input
              id="pickup-key-label"
              value={label}
              onChange={(event) => setLabel(event.target.value)}
              maxLength={STAFF_KEY_LABEL_MAX}
              placeholder={t('pickup.keys.labelPlaceholder')}
              data-testid="key-label"
            />
          </Form.Item>
          <Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              loading={issue.busy}
              disabled={label.trim() === ''}
              data-testid="key-issue"
            >
              {t('pickup.keys.issue')}
            </Button>
          </Form.Item>
        </Form>
        {issue.error && <Alert type="error" showIcon message={issue.error} style={{ marginTop: 8 }} />}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
        <div role="region" aria-label={t('pickup.keys.title')} tabIndex={0} className="pickup-scroll">
          <Table<ConsoleStaffKey>
            rowKey={(key) => `${key.label}-${key.createdAt}`}
            size="small"
            dataSource={data?.keys ?? []}
            columns={keyColumns}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            locale={{ emptyText: <span className="pickup-empty">{t('pickup.keys.empty')}</span> }}
            data-testid="pickup-keys"
          />
        </div>
      </Card>
      <CapacityModal
        key={editing?.slotId ?? 'none'}
        raceId={raceId}
        slot={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          view.reload();
        }}
      />
      <IssuedKey issued={issued} onClose={() => setIssued(null)} />
    </Space>
  );
}
