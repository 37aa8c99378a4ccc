/**
 * Messages to runners (owners and service, issue 32 §2), per race, in three tabs:
 * - New message: the text in Chinese and English with the entrant's own fields, how it goes (SMS, e-mail, every
 *   way the runner has), who gets it (item, status, sign-up channel, letter signed or not, pick-up booked or
 *   not, one entry; `?audience=unsigned` opens it with "letter not signed"), the count and a sample before
 *   sending, now or at a time in the race's time zone;
 * - Sent: each message with its copies per state; its copies per runner, retry of the failed, cancel of a
 *   scheduled one;
 * - Templates: the wording of each system message, default or the race's own (edit, reset).
 * With a real SMS provider the page says plainly that phones get the provider's approved template.
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import {
  MESSAGE_BODY_MAX,
  MESSAGE_SUBJECT_MAX,
  MESSAGE_VARIABLES,
  type AudiencePreview,
  type CampaignView,
  type DeliveryRow,
  type MessageAudience,
  type MessageChannel,
  type MessageText,
  type TemplateView,
} from '#contract/runner-messages';
import { api } from '../../api/client';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { formatInstant } from '../../time';
import { useLoaded } from '../../use-loaded';

interface MessagesAnswer {
  campaigns: CampaignView[];
  items: { code: string; name: { zh: string; en: string } }[];
  timeZone: string;
  perMinute: number;
  channels: { sms: string; smtp: boolean };
}

interface ComposeValues extends MessageText {
  item?: string;
  status?: string;
  channel?: string;
  letter?: 'signed' | 'unsigned';
  pickup?: 'booked' | 'unbooked';
  entryNo?: string;
  via: MessageChannel;
  when: 'now' | 'later';
  sendAt?: Dayjs;
}

const AUDIENCE_KEYS = ['item', 'status', 'channel', 'letter', 'pickup', 'entryNo'] as const;
const ENTRY_CHANNELS = ['public', 'direct', 'code', 'team', 'charity'] as const;
const STATES = ['queued', 'sent', 'delivered', 'failed', 'skipped'] as const;

const audienceOf = (values: Partial<ComposeValues>): Record<string, string> => {
  const audience: Record<string, string> = {};
  for (const key of AUDIENCE_KEYS) {
    const value = values[key];
    if (value !== undefined && value !== null && String(value).trim() !== '') audience[key] = String(value).trim();
  }
  return audience;
};

function TextFields() {
  const { t } = useTranslation();
  const rule = (max: number) => [{ required: true, whitespace: true, message: t('messages.required') }, { max }];
  return (
    <>
      <Form.Item name="subjectZh" label={t('messages.subjectZh')} rules={rule(MESSAGE_SUBJECT_MAX)}>
        <Input maxLength={MESSAGE_SUBJECT_MAX} />
      </Form.Item>
      <Form.Item name="bodyZh" label={t('messages.bodyZh')} rules={rule(MESSAGE_BODY_MAX)}>
        <Input.TextArea rows={4} maxLength={MESSAGE_BODY_MAX} showCount />
      </Form.Item>
      <Form.Item name="subjectEn" label={t('messages.subjectEn')} rules={rule(MESSAGE_SUBJECT_MAX)}>
        <Input maxLength={MESSAGE_SUBJECT_MAX} />
      </Form.Item>
      <Form.Item name="bodyEn" label={t('messages.bodyEn')} rules={rule(MESSAGE_BODY_MAX)}>
        <Input.TextArea rows={4} maxLength={MESSAGE_BODY_MAX} showCount />
      </Form.Item>
    </>
  );
}

const placeholderList = (names: readonly string[]) => names.map((n) => `{${n}}`).join(' ');

export default function MessagesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { raceId = '' } = useParams();
  const [params] = useSearchParams();
  const language = useConsole((s) => s.language);
  const base = `/races/${encodeURIComponent(raceId)}/messages`;
  const load = useCallback(() => api.get<MessagesAnswer>(base), [base]);
  const { data, error, reload } = useLoaded(load);
  const zone = data?.timeZone ?? 'Asia/Shanghai';
  const [tab, setTab] = useState('compose');

  // New message.
  const [form] = Form.useForm<ComposeValues>();
  const initial = useMemo<Partial<ComposeValues>>(
    () => ({
      via: 'both',
      when: 'now',
      ...(params.get('audience') === 'unsigned' ? { letter: 'unsigned' as const } : {}),
      ...(params.get('entryNo') ? { entryNo: params.get('entryNo') ?? '' } : {}),
    }),
    [params],
  );
  const [preview, setPreview] = useState<AudiencePreview | null>(null);
  const previewing = useAction();
  const sending = useAction();
  const when = Form.useWatch('when', form);
  const showPreview = () =>
    previewing.run(async () => {
      const values = form.getFieldsValue();
      setPreview(await api.get<AudiencePreview>(`${base}/audience`, { ...audienceOf(values), via: values.via }));
    });
  const send = async () => {
    const values = await form.validateFields();
    const sendAt =
      values.when === 'later' && values.sendAt
        ? dayjs.tz(values.sendAt.format('YYYY-MM-DD HH:mm'), zone).valueOf()
        : undefined;
    let counted: AudiencePreview | null = null;
    const ok = await previewing.run(async () => {
      counted = await api.get<AudiencePreview>(`${base}/audience`, { ...audienceOf(values), via: values.via });
      setPreview(counted);
    });
    if (!ok || !counted) return;
    const copies = (counted as AudiencePreview).sms + (counted as AudiencePreview).email;
    Modal.confirm({
      title:
        sendAt === undefined
          ? t('messages.confirmSend', { count: copies })
          : t('messages.confirmSchedule', { at: formatInstant(sendAt, zone).slice(0, 16), zone }),
      okText: sendAt === undefined ? t('messages.send') : t('messages.schedule'),
      cancelText: t('messages.close'),
      onOk: async () => {
        const done = await sending.run(() =>
          api.post(base, {
            text: {
              subjectZh: values.subjectZh,
              bodyZh: values.bodyZh,
              subjectEn: values.subjectEn,
              bodyEn: values.bodyEn,
            },
            channel: values.via,
            audience: audienceOf(values),
            ...(sendAt === undefined ? {} : { sendAt }),
          }),
        );
        if (done) {
          void message.success(
            sendAt === undefined
              ? t('messages.sentOk', { perMinute: data?.perMinute ?? 60 })
              : t('messages.scheduledOk'),
          );
          form.resetFields(['subjectZh', 'bodyZh', 'subjectEn', 'bodyEn']);
          setPreview(null);
          reload();
          setTab('sent');
        }
      },
    });
  };

  const itemName = (code: string) => {
    const item = data?.items.find((i) => i.code === code);
    return item ? (language === 'en' ? item.name.en || item.name.zh : item.name.zh) : code;
  };
  const audienceText = (audience: MessageAudience) => {
    const parts: string[] = [];
    if (audience.item) parts.push(itemName(audience.item));
    if (audience.status !== undefined) parts.push(t(`messages.statuses.${audience.status}`));
    if (audience.channel) parts.push(t(`messages.entryChannels.${audience.channel}`));
    if (audience.letter)
      parts.push(t(audience.letter === 'signed' ? 'messages.letterSigned' : 'messages.letterUnsigned'));
    if (audience.pickup)
      parts.push(t(audience.pickup === 'booked' ? 'messages.pickupBooked' : 'messages.pickupUnbooked'));
    if (audience.entryNo) parts.push(audience.entryNo);
    return parts.length ? parts.join(' · ') : t('messages.everyone');
  };

  const smsNote =
    data?.channels.sms === 'outbox'
      ? t('messages.smsOutbox')
      : data
        ? t('messages.smsHonest', { provider: data.channels.sms })
        : '';

  const compose = (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      onValuesChange={() => setPreview(null)}
      style={{ maxWidth: 880 }}
      data-testid="messages-compose"
    >
      <Typography.Title level={2}>{t('messages.audienceTitle')}</Typography.Title>
      <Space wrap align="start">
        <Form.Item name="item" label={t('messages.item')}>
          <Select
            allowClear
            style={{ minWidth: 160 }}
            placeholder={t('messages.allItems')}
            options={(data?.items ?? []).map((i) => ({ value: i.code, label: itemName(i.code) }))}
            data-testid="messages-item"
          />
        </Form.Item>
        <Form.Item name="status" label={t('messages.status')}>
          <Select
            allowClear
            style={{ minWidth: 220 }}
            placeholder={t('messages.liveStatuses')}
            options={['0', '1', '2', '3', '4', '5'].map((s) => ({ value: s, label: t(`messages.statuses.${s}`) }))}
          />
        </Form.Item>
        <Form.Item name="channel" label={t('messages.entryChannel')}>
          <Select
            allowClear
            style={{ minWidth: 150 }}
            placeholder={t('messages.allChannels')}
            options={ENTRY_CHANNELS.map((c) => ({ value: c, label: t(`messages.entryChannels.${c}`) }))}
          />
        </Form.Item>
        <Form.Item name="letter" label={t('messages.letter')}>
          <Select
            allowClear
            style={{ minWidth: 170 }}
            placeholder={t('messages.letterAny')}
            options={[
              { value: 'signed', label: t('messages.letterSigned') },
              { value: 'unsigned', label: t('messages.letterUnsigned') },
            ]}
            data-testid="messages-letter"
          />
        </Form.Item>
        <Form.Item name="pickup" label={t('messages.pickup')}>
          <Select
            allowClear
            style={{ minWidth: 140 }}
            placeholder={t('messages.pickupAny')}
            options={[
              { value: 'booked', label: t('messages.pickupBooked') },
              { value: 'unbooked', label: t('messages.pickupUnbooked') },
            ]}
          />
        </Form.Item>
        <Form.Item name="entryNo" label={t('messages.entryNo')}>
          <Input placeholder={t('messages.entryNoPlaceholder')} maxLength={40} data-testid="messages-entry-no" />
        </Form.Item>
      </Space>
      <Form.Item name="via" label={t('messages.via')}>
        <Radio.Group
          options={[
            { value: 'both', label: t('messages.viaBoth') },
            { value: 'sms', label: t('messages.viaSms') },
            { value: 'email', label: t('messages.viaEmail') },
          ]}
        />
      </Form.Item>
      <Space direction="vertical" style={{ width: '100%', marginBottom: 16 }}>
        <Button onClick={() => void showPreview()} loading={previewing.busy} data-testid="messages-preview">
          {t('messages.preview')}
        </Button>
        {previewing.error ? <Alert type="error" showIcon role="alert" message={previewing.error} /> : null}
        {preview ? (
          <div data-testid="messages-preview-result">
            <Alert
              type={preview.sms + preview.email > 0 ? 'info' : 'warning'}
              showIcon
              message={t('messages.previewCounts', {
                entries: preview.entries,
                sms: preview.sms,
                email: preview.email,
                unreachable: preview.unreachable,
              })}
            />
            {preview.sample.length > 0 ? (
              <Table
                size="small"
                style={{ marginTop: 8 }}
                rowKey="entryNo"
                pagination={false}
                caption={t('messages.sample')}
                dataSource={preview.sample}
                columns={[
                  { title: t('messages.columns.entryNo'), dataIndex: 'entryNo', key: 'entryNo' },
                  { title: t('messages.sampleName'), dataIndex: 'name', key: 'name' },
                  { title: t('messages.item'), key: 'item', dataIndex: 'item' },
                  {
                    title: t('messages.sampleChannels'),
                    key: 'channels',
                    render: (_, r) =>
                      r.channels.map((c) => t(c === 'sms' ? 'messages.viaSms' : 'messages.viaEmail')).join(' + '),
                  },
                  {
                    title: t('messages.sampleLanguage'),
                    key: 'language',
                    render: (_, r) => t(`messages.languages.${r.language}`),
                  },
                ]}
              />
            ) : null}
          </div>
        ) : null}
      </Space>

      <Typography.Title level={2}>{t('messages.textTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary">
        {t('messages.placeholders', { list: placeholderList(MESSAGE_VARIABLES) })}
      </Typography.Paragraph>
      <TextFields />
      <Form.Item name="when" label={t('messages.when')}>
        <Radio.Group
          options={[
            { value: 'now', label: t('messages.now') },
            { value: 'later', label: t('messages.later') },
          ]}
        />
      </Form.Item>
      {when === 'later' ? (
        <Form.Item
          name="sendAt"
          label={t('messages.sendAt', { zone })}
          rules={[{ required: true, message: t('messages.required') }]}
        >
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" data-testid="messages-send-at" />
        </Form.Item>
      ) : null}
      <Typography.Paragraph type="secondary">
        {t('messages.throttle', { perMinute: data?.perMinute ?? 60 })} {smsNote}{' '}
        {data && !data.channels.smtp ? t('messages.noSmtp') : ''}
      </Typography.Paragraph>
      {sending.error ? (
        <Alert type="error" showIcon role="alert" message={sending.error} style={{ marginBottom: 12 }} />
      ) : null}
      <Button type="primary" onClick={() => void send()} loading={sending.busy} data-testid="messages-send">
        {when === 'later' ? t('messages.schedule') : t('messages.send')}
      </Button>
    </Form>
  );

  return (
    <div data-testid="messages-page">
      <div className="console-page-head" style={{ marginBottom: 4 }}>
        <h1>{t('messages.title')}</h1>
      </div>
      <Typography.Paragraph>{t('messages.intro')}</Typography.Paragraph>
      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'compose', label: t('messages.tabs.compose'), children: compose },
          {
            key: 'sent',
            label: t('messages.tabs.sent'),
            children: (
              <SentTab
                base={base}
                zone={zone}
                campaigns={data?.campaigns ?? []}
                audienceText={audienceText}
                reload={reload}
              />
            ),
          },
          {
            key: 'templates',
            label: t('messages.tabs.templates'),
            children: <TemplatesTab base={base} smsNote={smsNote} />,
          },
        ]}
      />
    </div>
  );
}

function StateTag({ state, error }: { state: string; error?: string | null }) {
  const { t } = useTranslation();
  const key = state === 'failed' && error === 'bounced' ? 'bounced' : state;
  const color =
    key === 'failed' || key === 'bounced' ? 'red' : key === 'queued' || key === 'sending' ? 'blue' : undefined;
  return <Tag color={color}>{t(`messages.states.${key}`)}</Tag>;
}

function SentTab(props: {
  base: string;
  zone: string;
  campaigns: CampaignView[];
  audienceText: (a: MessageAudience) => string;
  reload: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const language = useConsole((s) => s.language);
  const [open, setOpen] = useState<CampaignView | null>(null);
  const cancel = useAction();
  const subject = (c: CampaignView) => (language === 'en' ? c.text.subjectEn : c.text.subjectZh);
  const columns: TableColumnsType<CampaignView> = [
    { title: t('messages.columns.subject'), key: 'subject', render: (_, c) => subject(c) },
    {
      title: t('messages.columns.sendAt'),
      key: 'sendAt',
      render: (_, c) => formatInstant(c.sendAt, props.zone).slice(0, 16),
    },
    { title: t('messages.columns.audience'), key: 'audience', render: (_, c) => props.audienceText(c.audience) },
    {
      title: t('messages.columns.state'),
      key: 'state',
      render: (_, c) => <Tag>{t(`messages.campaignStates.${c.state}`)}</Tag>,
    },
    {
      title: t('messages.columns.copies'),
      key: 'copies',
      render: (_, c) => (
        <Space size={4} wrap>
          {STATES.filter((s) => c.counts[s]).map((s) => (
            <span key={s}>
              <StateTag state={s} /> {c.counts[s]}
            </span>
          ))}
        </Space>
      ),
    },
    {
      title: t('messages.columns.actions'),
      key: 'actions',
      render: (_, c) =>
        c.state === 'scheduled' ? (
          <Popconfirm
            title={t('messages.confirmCancel')}
            okText={t('messages.cancel')}
            cancelText={t('messages.close')}
            onConfirm={() =>
              void cancel.run(async () => {
                await api.post(`${props.base}/${c.id}/cancel`);
                void message.success(t('messages.cancelled'));
                props.reload();
              })
            }
          >
            <Button size="small" danger>
              {t('messages.cancel')}
            </Button>
          </Popconfirm>
        ) : c.state === 'sent' ? (
          <Button size="small" onClick={() => setOpen(c)} data-testid={`messages-open-${c.id}`}>
            {t('messages.open')}
          </Button>
        ) : null,
    },
  ];
  return (
    <div data-testid="messages-sent">
      <Button onClick={props.reload} style={{ marginBottom: 12 }} data-testid="messages-refresh">
        {t('messages.refresh')}
      </Button>
      {cancel.error ? <Alert type="error" showIcon role="alert" message={cancel.error} /> : null}
      <Table
        rowKey="id"
        columns={columns}
        dataSource={props.campaigns}
        pagination={{ pageSize: 20 }}
        locale={{ emptyText: t('messages.noCampaigns') }}
        scroll={{ x: true }}
      />
      {open ? (
        <Deliveries
          base={props.base}
          zone={props.zone}
          campaign={open}
          subject={subject(open)}
          onClose={() => {
            setOpen(null);
            props.reload();
          }}
        />
      ) : null}
    </div>
  );
}

function Deliveries(props: {
  base: string;
  zone: string;
  campaign: CampaignView;
  subject: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [state, setState] = useState<string>();
  const load = useCallback(
    () => api.get<{ deliveries: DeliveryRow[] }>(`${props.base}/${props.campaign.id}`, state ? { state } : undefined),
    [props.base, props.campaign.id, state],
  );
  const { data, loading, error, reload } = useLoaded(load);
  const retry = useAction();
  const retryCopies = (copyId?: number) =>
    void retry.run(async () => {
      const answer = await api.post<{ queued: number }>(
        `${props.base}/${props.campaign.id}/retry`,
        copyId ? { copyId } : {},
      );
      void message.success(t('messages.retried', { count: answer.queued }));
      reload();
    });
  const rows = data?.deliveries ?? [];
  const columns: TableColumnsType<DeliveryRow> = [
    { title: t('messages.columns.entryNo'), dataIndex: 'entryNo', key: 'entryNo' },
    { title: t('messages.columns.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('messages.columns.channel'),
      key: 'channel',
      render: (_, r) => t(r.channel === 'sms' ? 'messages.viaSms' : 'messages.viaEmail'),
    },
    { title: t('messages.columns.destination'), dataIndex: 'destination', key: 'destination' },
    { title: t('messages.columns.language'), key: 'language', render: (_, r) => t(`messages.languages.${r.language}`) },
    {
      title: t('messages.columns.state'),
      key: 'state',
      render: (_, r) => <StateTag state={r.state} error={r.error} />,
    },
    { title: t('messages.columns.attempts'), dataIndex: 'attempts', key: 'attempts', align: 'right' },
    { title: t('messages.columns.error'), key: 'error', render: (_, r) => r.error ?? '' },
    { title: t('messages.columns.at'), key: 'at', render: (_, r) => formatInstant(r.at, props.zone) },
    {
      title: t('messages.columns.actions'),
      key: 'retry',
      render: (_, r) =>
        r.state === 'failed' ? (
          <Button size="small" onClick={() => retryCopies(r.id)}>
            {t('messages.retry')}
          </Button>
        ) : null,
    },
  ];
  return (
    <Modal
      open
      width={1100}
      title={t('messages.deliveriesTitle', { subject: props.subject })}
      onCancel={props.onClose}
      footer={<Button onClick={props.onClose}>{t('messages.close')}</Button>}
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          style={{ minWidth: 150 }}
          placeholder={t('messages.allStates')}
          aria-label={t('messages.columns.state')}
          value={state}
          onChange={setState}
          options={STATES.map((s) => ({ value: s, label: t(`messages.states.${s}`) }))}
        />
        <Button onClick={reload}>{t('messages.refresh')}</Button>
        <Button
          onClick={() => retryCopies()}
          loading={retry.busy}
          disabled={!rows.some((r) => r.state === 'failed')}
          data-testid="messages-retry-failed"
        >
          {t('messages.retryFailed')}
        </Button>
      </Space>
      {error || retry.error ? <Alert type="error" showIcon role="alert" message={error || retry.error} /> : null}
      <Table
        size="small"
        rowKey="id"
        loading={loading}
        columns={columns}
        dataSource={rows}
        pagination={{ pageSize: 50 }}
        scroll={{ x: true }}
        data-testid="messages-deliveries"
      />
    </Modal>
  );
}

function TemplatesTab({ base, smsNote }: { base: string; smsNote: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const load = useCallback(() => api.get<TemplateView[]>(`${base}/templates`), [base]);
  const { data, loading, error, reload } = useLoaded(load);
  const [editing, setEditing] = useState<TemplateView | null>(null);
  const [form] = Form.useForm<MessageText>();
  const save = useAction();
  const reset = useAction();
  const startEdit = (view: TemplateView) => {
    save.setError('');
    setEditing(view);
    form.setFieldsValue(view.custom ?? view.defaults);
  };
  const submit = async () => {
    const values = await form.validateFields();
    if (!editing) return;
    const done = await save.run(() => api.post(`${base}/templates/${editing.kind}`, values));
    if (done) {
      void message.success(t('messages.saved'));
      setEditing(null);
      reload();
    }
  };
  const columns: TableColumnsType<TemplateView> = [
    { title: t('messages.columns.kind'), key: 'kind', render: (_, v) => t(`messages.kinds.${v.kind}`) },
    {
      title: t('messages.columns.wording'),
      key: 'wording',
      render: (_, v) => (
        <Space direction="vertical" size={0}>
          <Tag color={v.custom ? 'green' : undefined}>{v.custom ? t('messages.custom') : t('messages.builtIn')}</Tag>
          <Typography.Text type="secondary">{(v.custom ?? v.defaults).bodyZh}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('messages.columns.variables'),
      key: 'variables',
      render: (_, v) => <Typography.Text code>{placeholderList(v.variables)}</Typography.Text>,
    },
    {
      title: t('messages.columns.actions'),
      key: 'actions',
      render: (_, v) => (
        <Space>
          <Button size="small" onClick={() => startEdit(v)} data-testid={`messages-edit-${v.kind}`}>
            {t('messages.edit')}
          </Button>
          {v.custom ? (
            <Popconfirm
              title={t('messages.confirmReset')}
              okText={t('messages.reset')}
              cancelText={t('messages.close')}
              onConfirm={() =>
                void reset.run(async () => {
                  await api.post(`${base}/templates/${v.kind}/reset`);
                  void message.success(t('messages.resetDone'));
                  reload();
                })
              }
            >
              <Button size="small" data-testid={`messages-reset-${v.kind}`}>
                {t('messages.reset')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="messages-templates">
      <Typography.Paragraph>{t('messages.templatesIntro')}</Typography.Paragraph>
      {smsNote ? <Alert type="info" showIcon message={smsNote} style={{ marginBottom: 12 }} /> : null}
      {error || reset.error ? <Alert type="error" showIcon role="alert" message={error || reset.error} /> : null}
      <Table
        rowKey="kind"
        loading={loading}
        columns={columns}
        dataSource={data ?? []}
        pagination={{ pageSize: 30 }}
        scroll={{ x: true }}
      />
      <Modal
        open={editing !== null}
        width={760}
        title={editing ? t('messages.editTitle', { kind: t(`messages.kinds.${editing.kind}`) }) : ''}
        okText={t('messages.save')}
        cancelText={t('messages.close')}
        confirmLoading={save.busy}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        destroyOnClose
      >
        {editing ? (
          <Form form={form} layout="vertical" data-testid="messages-template-form">
            <Typography.Paragraph type="secondary">
              {t('messages.placeholders', { list: placeholderList(editing.variables) })}
            </Typography.Paragraph>
            <TextFields />
            {save.error ? <Alert type="error" showIcon role="alert" message={save.error} /> : null}
          </Form>
        ) : null}
      </Modal>
    </div>
  );
}
