/**
 * The ballot (owners, issue 32; docs/ballot.md): per ballot item its state (the entries in the pool and the
 * places, each round committed with its commitment and beacon, drawn, revealed), the actions in their order
 * (commit before the sign-up window closes, draw after it with the beacon's value when the commitment named
 * one, reveal; a later round for the places left), each confirmed first because none can be undone; the public
 * verification page and each round's public record, with the draw re-run on the server from that record; the
 * wait list in order with each promotion and how its place was freed. The server refuses what the CLI
 * refuses (ballot-commit, ballot-draw, ballot-reveal), with the same audit records.
 */
import CheckCircleOutlined from '@ant-design/icons/CheckCircleOutlined';
import CloseCircleOutlined from '@ant-design/icons/CloseCircleOutlined';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Alert, App, Button, Card, Descriptions, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  BEACON_MAX,
  type ConsoleBallotAnswer,
  type ConsoleBallotItem,
  type ConsoleBallotRound,
  type ConsoleWaitListRow,
} from '#contract/console-ballot';
import { api } from '../../api/client';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { formatInstant } from '../../time';
import { useLoaded } from '../../use-loaded';
import './ballot.css';

type Step = 'commit' | 'draw' | 'reveal';

/** What the item's next step is: the latest round undrawn → draw; drawn, not revealed → reveal; else commit. */
function nextStep(item: ConsoleBallotItem): { step: Step; round: ConsoleBallotRound | undefined } | null {
  const latest = item.rounds.at(-1);
  if (latest && latest.drawnAt === null) return { step: 'draw', round: latest };
  if (latest && !latest.revealed) return { step: 'reveal', round: latest };
  if (item.pool === null) return null;
  return { step: 'commit', round: undefined };
}

export default function BallotPage() {
  const { t } = useTranslation();
  const { raceId = '' } = useParams();
  const load = useCallback(() => api.get<ConsoleBallotAnswer>(`/races/${encodeURIComponent(raceId)}/ballot`), [raceId]);
  const { data, loading, error, reload } = useLoaded(load);
  const zone = data?.timeZone;
  const publicUrl = data ? `${window.location.origin}${data.publicPath}` : '';

  return (
    <div data-testid="ballot-page">
      <div className="console-page-head">
        <h1>{t('ballot.title')}</h1>
      </div>
      <Typography.Paragraph>{t('ballot.intro')}</Typography.Paragraph>
      {error ? <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} /> : null}
      {data ? (
        <Descriptions
          bordered
          size="small"
          column={1}
          className="ballot-facts"
          items={[
            {
              key: 'window',
              label: t('ballot.window'),
              children:
                data.signUpEnd === null
                  ? t('ballot.noWindowEnd')
                  : t(data.windowClosed ? 'ballot.windowClosed' : 'ballot.windowOpen', {
                      end: formatInstant(data.signUpEnd, zone),
                      zone,
                    }),
            },
            {
              key: 'entry',
              label: t('ballot.entryNow'),
              children: data.entryOpen ? t('ballot.entryOpen') : t('ballot.entryClosed'),
            },
            {
              key: 'public',
              label: t('ballot.publicPage'),
              children: (
                <Space direction="vertical" size={0}>
                  <Typography.Link href={publicUrl} target="_blank" rel="noreferrer" data-testid="ballot-public-link">
                    {publicUrl}
                  </Typography.Link>
                  <Typography.Text type="secondary">{t('ballot.publicHelp')}</Typography.Text>
                </Space>
              ),
            },
          ]}
        />
      ) : null}
      {data && data.items.length === 0 ? (
        <Alert type="info" showIcon message={t('ballot.noItems')} data-testid="ballot-empty" />
      ) : null}
      {loading && !data ? <Card loading /> : null}
      {data?.items.map((item) => (
        <ItemCard key={item.itemCode} item={item} answer={data} onChanged={reload} />
      ))}
    </div>
  );
}

function ItemCard(props: { item: ConsoleBallotItem; answer: ConsoleBallotAnswer; onChanged: () => void }) {
  const { item, answer, onChanged } = props;
  const { t } = useTranslation();
  const language = useConsole((s) => s.language);
  const zone = answer.timeZone;
  const name = item.itemName[language] || item.itemName.zh;
  const next = nextStep(item);
  const [open, setOpen] = useState<Step>();
  const headingId = `ballot-item-${item.itemCode}`;

  // Why the next step cannot be taken now (the server refuses it anyway, with the CLI's reason).
  let blocked = '';
  if (next?.step === 'commit' && item.rounds.length === 0 && answer.windowClosed) blocked = t('ballot.commitTooLate');
  if (next?.step === 'draw' && answer.entryOpen) blocked = t('ballot.drawTooEarly');
  // A later round with no place left draws nobody: freed places go to the wait list by themselves.
  const idle = next?.step === 'commit' && item.rounds.length > 0 && (item.pool?.places ?? 0) === 0;

  const roundColumns: TableColumnsType<ConsoleBallotRound> = [
    { title: t('ballot.columns.round'), dataIndex: 'round', key: 'round', width: 64 },
    {
      title: t('ballot.columns.commitment'),
      key: 'commitment',
      render: (_, r) => (
        <Space direction="vertical" size={2}>
          <code className="ballot-hash" data-testid={`ballot-commitment-${item.itemCode}-${r.round}`}>
            {r.commitment}
          </code>
          <Typography.Text type="secondary">
            {t('ballot.committedAt', { at: formatInstant(r.committedAt, zone) })}
          </Typography.Text>
          {r.beacon ? <span>{t('ballot.beaconIs', { beacon: r.beacon })}</span> : null}
        </Space>
      ),
    },
    {
      title: t('ballot.columns.draw'),
      key: 'draw',
      render: (_, r) =>
        r.drawnAt === null ? (
          <Tag>{t('ballot.notDrawn')}</Tag>
        ) : (
          <Space direction="vertical" size={0}>
            <span>{formatInstant(r.drawnAt, zone)}</span>
            <span>
              {t('ballot.drawCounts', {
                entries: r.entries,
                places: r.places ?? 0,
                winners: r.winners,
                waitList: r.waitList,
              })}
            </span>
          </Space>
        ),
    },
    {
      title: t('ballot.columns.seed'),
      key: 'seed',
      render: (_, r) =>
        r.seed ? (
          <code className="ballot-hash" data-testid={`ballot-seed-${item.itemCode}-${r.round}`}>
            {r.seed}
          </code>
        ) : (
          <Tag>{t('ballot.notRevealed')}</Tag>
        ),
    },
    {
      title: t('ballot.columns.check'),
      key: 'check',
      render: (_, r) => <CheckView round={r} itemCode={item.itemCode} />,
    },
  ];

  const waitColumns: TableColumnsType<ConsoleWaitListRow> = [
    { title: t('ballot.columns.position'), dataIndex: 'position', key: 'position', width: 72 },
    { title: t('ballot.columns.entry'), dataIndex: 'entryNo', key: 'entryNo' },
    { title: t('ballot.columns.name'), dataIndex: 'maskedName', key: 'name' },
    {
      title: t('ballot.columns.status'),
      key: 'status',
      render: (_, r) => t(`entries.registrationStatuses.${r.status}`),
    },
    {
      title: t('ballot.columns.listedAt'),
      key: 'listedAt',
      render: (_, r) => formatInstant(r.listedAt, zone),
    },
    {
      title: t('ballot.columns.promotion'),
      key: 'promotion',
      render: (_, r) =>
        r.promotedAt === null || r.freed === null ? (
          <Typography.Text type="secondary">{t('ballot.waiting')}</Typography.Text>
        ) : (
          <Space direction="vertical" size={0} data-testid={`ballot-promoted-${r.entryNo}`}>
            <span>{formatInstant(r.promotedAt, zone)}</span>
            <span>
              {t('ballot.freed', {
                entries: r.freed.entryNos.join(', ') || '—',
                how: r.freed.how ? t(`ballot.how.${r.freed.how}`) : r.freed.text,
              })}
            </span>
          </Space>
        ),
    },
  ];

  return (
    <Card
      className="ballot-item"
      data-testid={`ballot-item-${item.itemCode}`}
      title={
        <h2 id={headingId} className="ballot-item__title">
          {name} <Typography.Text type="secondary">({item.itemCode})</Typography.Text>{' '}
          <Tag>{t(`ballot.models.${item.model}`)}</Tag>
        </h2>
      }
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text data-testid={`ballot-pool-${item.itemCode}`}>
          {item.pool
            ? t('ballot.pool', {
                round: item.pool.round,
                entries: item.pool.entries,
                places: item.pool.places,
                capacity: item.capacity,
              })
            : t('ballot.noMoreRounds')}
        </Typography.Text>
        {next ? (
          <Space wrap align="center">
            <Button
              type={idle ? 'default' : 'primary'}
              disabled={blocked !== ''}
              onClick={() => setOpen(next.step)}
              data-testid={`ballot-${next.step}-${item.itemCode}`}
            >
              {t(`ballot.actions.${next.step}`, { round: next.round?.round ?? (item.rounds.at(-1)?.round ?? 0) + 1 })}
            </Button>
            {blocked || idle ? (
              <Typography.Text type="secondary">{blocked || t('ballot.noPlacesLeft')}</Typography.Text>
            ) : null}
          </Space>
        ) : null}
        {item.rounds.length > 0 ? (
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it
          <div role="region" aria-label={t('ballot.roundsOf', { item: name })} tabIndex={0} className="ballot-scroll">
            <Table
              rowKey="round"
              size="small"
              columns={roundColumns}
              dataSource={item.rounds}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              data-testid={`ballot-rounds-${item.itemCode}`}
            />
          </div>
        ) : (
          <Typography.Text type="secondary">{t('ballot.noRounds')}</Typography.Text>
        )}
        {item.keepsWaitList ? (
          <section aria-labelledby={`${headingId}-wait`}>
            <h3 id={`${headingId}-wait`} className="ballot-subtitle">
              {t('ballot.waitListTitle')}
            </h3>
            {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
            <div role="region" aria-labelledby={`${headingId}-wait`} tabIndex={0} className="ballot-scroll">
              <Table
                rowKey="entryNo"
                size="small"
                columns={waitColumns}
                dataSource={item.waitList}
                pagination={{ pageSize: 20, hideOnSinglePage: true }}
                locale={{ emptyText: <Typography.Text>{t('ballot.noWaitList')}</Typography.Text> }}
                data-testid={`ballot-waitlist-${item.itemCode}`}
              />
            </div>
          </section>
        ) : null}
      </Space>
      <StepModal
        step={open}
        item={item}
        name={name}
        round={next?.round}
        raceId={answer.raceId}
        onClose={() => setOpen(undefined)}
        onDone={() => {
          setOpen(undefined);
          onChanged();
        }}
      />
    </Card>
  );
}

/** The server's re-run of a round's draw from its public record, and the record's link. */
function CheckView({ round, itemCode }: { round: ConsoleBallotRound; itemCode: string }) {
  const { t } = useTranslation();
  const recordUrl = `${window.location.origin}${round.recordPath}`;
  const check = round.check;
  const yes = (ok: boolean) => (ok ? t('ballot.yes') : t('ballot.no'));
  return (
    <Space direction="vertical" size={2} data-testid={`ballot-check-${itemCode}-${round.round}`}>
      {check === null ? (
        <Typography.Text type="secondary">{t('ballot.checkAfterReveal')}</Typography.Text>
      ) : (
        <>
          {check.seedMatches && check.winnersIdentical && check.waitListIdentical ? (
            <span className="ballot-verdict ballot-verdict--ok">
              <CheckCircleOutlined aria-hidden /> {t('ballot.checkOk')}
            </span>
          ) : (
            <span className="ballot-verdict ballot-verdict--bad">
              <CloseCircleOutlined aria-hidden /> {t('ballot.checkFailed')}
            </span>
          )}
          <span>{t('ballot.checkSeed', { answer: yes(check.seedMatches) })}</span>
          <span>
            {t('ballot.checkWinners', {
              answer: yes(check.winnersIdentical),
              redrawn: check.redrawn,
              published: check.published,
            })}
          </span>
          <span>{t('ballot.checkWaitList', { answer: yes(check.waitListIdentical) })}</span>
        </>
      )}
      <Typography.Link href={recordUrl} target="_blank" rel="noreferrer">
        {t('ballot.record', { round: round.round })}
      </Typography.Link>
      <Typography.Text type="secondary" className="ballot-cli">
        <code>npm run site -- ballot-verify &quot;{recordUrl}&quot;</code>
      </Typography.Text>
    </Space>
  );
}

/** The confirmation of commit, draw or reveal (none can be undone), with the beacon's name or value. */
function StepModal(props: {
  step: Step | undefined;
  item: ConsoleBallotItem;
  name: string;
  round: ConsoleBallotRound | undefined;
  raceId: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const { step, item, name, round, raceId, onClose, onDone } = props;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ beacon?: string; beaconValue?: string }>();
  const action = useAction();
  const needsBeaconValue = step === 'draw' && (round?.beacon ?? '') !== '';
  const nextRound = step === 'commit' ? (item.rounds.at(-1)?.round ?? 0) + 1 : (round?.round ?? 1);

  const submit = async () => {
    const values = await form.validateFields();
    const path = `/races/${encodeURIComponent(raceId)}/ballot/${encodeURIComponent(item.itemCode)}/${step}`;
    const body =
      step === 'commit'
        ? { beacon: values.beacon?.trim() || undefined }
        : step === 'draw'
          ? { round: round?.round, beaconValue: values.beaconValue?.trim() || undefined }
          : { round: round?.round };
    const done = await action.run(() => api.post(path, body));
    if (done) {
      void message.success(t(`ballot.done.${step ?? 'commit'}`, { round: nextRound }));
      form.resetFields();
      onDone();
    }
  };

  return (
    <Modal
      open={step !== undefined}
      title={step ? t(`ballot.confirm.${step}Title`, { item: name, round: nextRound }) : ''}
      onCancel={() => {
        action.setError('');
        onClose();
      }}
      onOk={() => void submit()}
      okText={step ? t(`ballot.confirm.${step}Ok`) : ''}
      cancelText={t('ballot.confirm.cancel')}
      confirmLoading={action.busy}
      okButtonProps={{ danger: true, ...{ 'data-testid': 'ballot-confirm' } }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        {step ? (
          <Typography.Paragraph>
            {t(`ballot.confirm.${step}Text`, { places: item.pool?.places ?? 0, entries: item.pool?.entries ?? 0 })}
          </Typography.Paragraph>
        ) : null}
        <Alert type="warning" showIcon message={t('ballot.confirm.irreversible')} style={{ marginBottom: 16 }} />
        {step === 'commit' ? (
          <Form.Item
            name="beacon"
            label={t('ballot.beacon')}
            extra={t('ballot.beaconHelp')}
            rules={[{ max: BEACON_MAX, message: t('ballot.beaconTooLong', { max: BEACON_MAX }) }]}
          >
            <Input maxLength={BEACON_MAX} data-testid="ballot-beacon" />
          </Form.Item>
        ) : null}
        {needsBeaconValue ? (
          <Form.Item
            name="beaconValue"
            label={t('ballot.beaconValue', { beacon: round?.beacon })}
            rules={[
              { required: true, whitespace: true, message: t('ballot.beaconValueRequired') },
              { max: BEACON_MAX, message: t('ballot.beaconTooLong', { max: BEACON_MAX }) },
            ]}
          >
            <Input maxLength={BEACON_MAX} data-testid="ballot-beacon-value" />
          </Form.Item>
        ) : null}
        {action.error ? (
          <Alert type="error" showIcon role="alert" message={action.error} data-testid="ballot-error" />
        ) : null}
      </Form>
    </Modal>
  );
}
