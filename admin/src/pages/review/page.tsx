/**
 * Direct-pass review (issue 32 §1; owner and service): the race's applications, submitted ones first and the
 * longest waiting first, filtered by status. Opening one shows every value by the race's direct form (certificate
 * and phone numbers masked; the whole ones for members who may see them, each opening logged) and the documents
 * the runner uploaded: images inline, PDFs as links, served to staff only. Approve, or reject with a reason the
 * runner reads in /direct: the CLI's direct-approve / direct-reject, in the audit log; a decision on an
 * application already decided or changed since it was opened is refused and changes nothing.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Input,
  Modal,
  Popconfirm,
  Segmented,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import {
  DIRECT_REJECT_REASON_MAX,
  type DirectQueueAnswer,
  type DirectQueueItem,
  type DirectReviewDetail,
  type DirectReviewValue,
} from '#contract/console-review';
import type { DirectStatus } from '#contract/registration-screens';
import { api } from '../../api/client';
import { ScrollRegion } from '../../lib/scroll-region';
import { useAction } from '../../lib/use-action';
import { useCan, useConsole } from '../../store';
import { formatInstant, zoneOfRace } from '../../time';
import { useLoaded } from '../../use-loaded';

type Filter = 'all' | '1' | '2' | '3' | '0';

export default function ReviewPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { raceId = '' } = useParams();
  const language = useConsole((s) => s.language);
  const zone = useConsole((s) => zoneOfRace(raceId, s.races));
  const canPersonal = useCan('entries.personal');
  const base = `/races/${encodeURIComponent(raceId)}/review`;
  const [filter, setFilter] = useState<Filter>('1');
  const load = useCallback(
    () => api.get<DirectQueueAnswer>(base, filter === 'all' ? undefined : { status: filter }),
    [base, filter],
  );
  const { data, loading, error, reload } = useLoaded(load);
  const time = (ms?: number) => (ms === undefined ? '—' : formatInstant(ms, zone));
  // Awaiting review stands out in bold (antd's coloured tags are too pale for the contrast a page needs).
  const statusTag = (status: DirectStatus) => (
    <Tag>{status === 1 ? <strong>{t(`review.status.${status}`)}</strong> : t(`review.status.${status}`)}</Tag>
  );

  // One application.
  const [openId, setOpenId] = useState<number | null>(null);
  const loadOne = useCallback(
    () => (openId === null ? Promise.resolve(undefined) : api.get<DirectReviewDetail>(`${base}/${openId}`)),
    [base, openId],
  );
  const one = useLoaded(loadOne);
  const detail = one.data?.id === openId ? one.data : undefined;
  const [whole, setWhole] = useState<Record<string, string> | null>(null);
  const decision = useAction();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const open = (id: number) => {
    setOpenId(id);
    setWhole(null);
    decision.setError('');
  };
  const close = () => {
    setOpenId(null);
    setWhole(null);
  };
  const decided = (text: string) => {
    void message.success(text);
    one.reload();
    reload();
  };
  const approve = () =>
    decision.run(async () => {
      if (!detail) return;
      await api.post(`${base}/${detail.id}/approve`, { updatedAt: detail.updatedAt });
      decided(t('review.approved'));
    });
  const reject = async () => {
    const ok = await decision.run(async () => {
      if (!detail) return;
      await api.post(`${base}/${detail.id}/reject`, { updatedAt: detail.updatedAt, reason });
      decided(t('review.rejected'));
    });
    if (ok) {
      setRejecting(false);
      setReason('');
    }
  };
  const showWhole = () =>
    decision.run(async () => {
      if (detail) setWhole(await api.post<Record<string, string>>(`${base}/${detail.id}/personal`));
    });

  const label = (value: { key: string; label?: { zh: string; en: string } }) => value.label?.[language] ?? value.key;
  const valueText = (value: DirectReviewValue) => {
    const claim = value.claim;
    if (claim?.source === 'own') {
      return claim.found
        ? t('review.claim.own', { item: claim.item, time: claim.chipTime })
        : t('review.claim.ownMissing', { id: claim.resultId });
    }
    if (claim?.source === 'outside') return t('review.claim.outside', claim);
    if (value.personal && whole?.[value.key] !== undefined) return whole[value.key];
    return value.text;
  };

  const columns: TableColumnsType<DirectQueueItem> = [
    { title: t('review.columns.id'), dataIndex: 'id', key: 'id', width: 80 },
    { title: t('review.columns.name'), dataIndex: 'name', key: 'name' },
    { title: t('review.columns.status'), key: 'status', render: (_, a) => statusTag(a.status) },
    { title: t('review.columns.submitted'), key: 'submitted', render: (_, a) => time(a.submittedAt) },
    { title: t('review.columns.reviewed'), key: 'reviewed', render: (_, a) => time(a.reviewedAt) },
    { title: t('review.columns.documents'), dataIndex: 'documents', key: 'documents', align: 'right' },
    {
      title: t('review.columns.open'),
      key: 'open',
      render: (_, a) => (
        <Button size="small" onClick={() => open(a.id)}>
          {t('review.openOne', { id: a.id })}
        </Button>
      ),
    },
  ];
  const counts = data?.counts;
  const options: { value: Filter; label: string }[] = (['1', '2', '3', '0', 'all'] as const).map((value) => ({
    value,
    label:
      value === 'all'
        ? t('review.all')
        : `${t(`review.status.${value}`)}${counts ? ` (${counts[Number(value) as DirectStatus]})` : ''}`,
  }));

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="review-page">
      <div>
        <div className="console-page-head" style={{ marginBottom: 4 }}>
          <h1>{t('review.title')}</h1>
        </div>
        <Typography.Paragraph>{t('review.intro')}</Typography.Paragraph>
      </div>
      <Segmented<Filter>
        options={options}
        value={filter}
        onChange={(value) => setFilter(value)}
        aria-label={t('review.filter')}
      />
      {error && <Alert type="error" showIcon message={error} />}
      <ScrollRegion label={t('review.title')}>
        <Table<DirectQueueItem>
          rowKey="id"
          columns={columns}
          dataSource={data?.items ?? []}
          loading={loading}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description={t('review.empty')} /> }}
        />
      </ScrollRegion>
      <Drawer
        open={openId !== null}
        onClose={close}
        width={760}
        title={detail ? t('review.detailTitle', { id: detail.id, name: detail.name }) : t('review.loading')}
        destroyOnClose
      >
        {one.error && <Alert type="error" showIcon message={one.error} />}
        {!detail && !one.error && <Typography.Text>{t('review.loading')}</Typography.Text>}
        {detail && (
          <Space direction="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('review.columns.status')}>{statusTag(detail.status)}</Descriptions.Item>
              <Descriptions.Item label={t('review.columns.submitted')}>{time(detail.submittedAt)}</Descriptions.Item>
              <Descriptions.Item label={t('review.columns.reviewed')}>{time(detail.reviewedAt)}</Descriptions.Item>
              {detail.rejectReason && (
                <Descriptions.Item label={t('review.reason')}>{detail.rejectReason}</Descriptions.Item>
              )}
            </Descriptions>
            {decision.error && <Alert type="error" showIcon message={decision.error} />}
            {detail.status === 1 && (
              <Space wrap>
                <Popconfirm
                  title={t('review.approveConfirm')}
                  okText={t('review.approve')}
                  cancelText={t('review.cancel')}
                  onConfirm={approve}
                >
                  <Button type="primary" loading={decision.busy}>
                    {t('review.approve')}
                  </Button>
                </Popconfirm>
                <Button danger onClick={() => setRejecting(true)} disabled={decision.busy}>
                  {t('review.reject')}
                </Button>
              </Space>
            )}
            <div>
              <Typography.Title level={2} style={{ fontSize: 18 }}>
                {t('review.documents')}
              </Typography.Title>
              {detail.documents.length === 0 && <Typography.Text>{t('review.noDocuments')}</Typography.Text>}
              <Space direction="vertical" size="middle" style={{ width: '100%' }}>
                {detail.documents.map((doc) => (
                  <div key={doc.name}>
                    <Typography.Text strong>{label({ key: doc.field, label: doc.label })}</Typography.Text>
                    <div>
                      {doc.kind === 'image' ? (
                        <a href={doc.url} target="_blank" rel="noopener noreferrer">
                          <img
                            src={doc.url}
                            alt={t('review.imageAlt', { field: label({ key: doc.field, label: doc.label }) })}
                            style={{ maxWidth: '100%', maxHeight: 360, border: '1px solid #d9d9d9', marginTop: 4 }}
                          />
                        </a>
                      ) : (
                        <a href={doc.url} target="_blank" rel="noopener noreferrer">
                          {doc.kind === 'pdf' ? t('review.openPdf') : t('review.download')} ({doc.name})
                        </a>
                      )}
                    </div>
                  </div>
                ))}
              </Space>
            </div>
            <div>
              <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
                <Typography.Title level={2} style={{ fontSize: 18 }}>
                  {t('review.values')}
                </Typography.Title>
                {canPersonal && detail.values.some((v) => v.personal) && !whole && (
                  <Button size="small" onClick={showWhole}>
                    {t('review.showWhole')}
                  </Button>
                )}
              </Space>
              <Descriptions column={1} size="small" bordered>
                {detail.values.map((value) => (
                  <Descriptions.Item key={value.key} label={label(value)}>
                    {valueText(value)}
                  </Descriptions.Item>
                ))}
              </Descriptions>
            </div>
          </Space>
        )}
      </Drawer>
      <Modal
        open={rejecting}
        title={t('review.rejectTitle')}
        okText={t('review.reject')}
        cancelText={t('review.cancel')}
        okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: decision.busy }}
        onOk={reject}
        onCancel={() => setRejecting(false)}
      >
        <Typography.Paragraph>{t('review.rejectHelp')}</Typography.Paragraph>
        <Input.TextArea
          aria-label={t('review.reason')}
          value={reason}
          maxLength={DIRECT_REJECT_REASON_MAX}
          showCount
          rows={4}
          onChange={(event) => setReason(event.target.value)}
        />
        {decision.error && rejecting && (
          <Alert type="error" showIcon message={decision.error} style={{ marginTop: 12 }} />
        )}
      </Modal>
    </Space>
  );
}
