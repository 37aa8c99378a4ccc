/**
 * The volunteers' check-in screen (issue 32), made for a phone or tablet held at the pick-up desk by a member
 * with check-in: the runner's pass is scanned (a keyboard-wedge scanner types the code and Enter, or the
 * camera where the browser can read QR codes) or typed; the screen shows the holder (name, masked ID, item,
 * bib, size, the booked slot) and "Hand over". It keeps working through a network drop: hand-overs are kept on
 * the device (queue.ts) and sent when the network is back, each once (its nonce); a pass looked up while
 * offline shows what this device knows and says it cannot be checked now.
 */
import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import CloudUploadOutlined from '@ant-design/icons/CloudUploadOutlined';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Descriptions,
  Input,
  List,
  Space,
  Tag,
  Typography,
  type InputRef,
} from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { formatPassCode, normalizePassCode, PASS_CODE_PATTERN } from '#contract/after-entry';
import type { ConsolePassLookup } from '#contract/console-pickup';
import { formatRaceTime } from '#contract/race-clock';
import { api, ConsoleApiError } from '../../api/client';
import { useConsole, type ConsoleLanguage } from '../../store';
import { zoneOfRace } from '../../time';
import { CameraScan } from './camera-scan';
import { useHandOverQueue, type QueuedHandOver } from './queue';
import './checkin.css';

type Shown =
  | { kind: 'found'; pass: ConsolePassLookup }
  | { kind: 'refused'; passCode: string; message: string }
  | { kind: 'offline'; passCode: string }
  | { kind: 'handed'; passCode: string; name: string; queued: boolean }
  | { kind: 'conflict'; passCode: string; message: string };

/** Whether the browser says it is online (and follows it). */
function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

const local = (text: { zh: string; en: string }, language: ConsoleLanguage) => text[language] || text.zh;
const isNetworkFailure = (error: unknown) => error instanceof ConsoleApiError && error.code === 0;

export default function CheckInPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { raceId = '' } = useParams();
  const { language, races } = useConsole();
  const zone = zoneOfRace(raceId, races);
  const time = (ms: number) => formatRaceTime(ms, 'MM-DD HH:mm', zone);
  const online = useOnline();
  const queue = useHandOverQueue();
  const [code, setCode] = useState('');
  const [shown, setShown] = useState<Shown>();
  const [looking, setLooking] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<InputRef>(null);
  const mine = queue.items.filter((item) => item.raceId === raceId);
  const waiting = mine.filter((item) => item.state === 'waiting');
  const conflicts = mine.filter((item) => item.state === 'conflict');
  const queuedOf = (passCode: string) => mine.find((item) => item.passCode === passCode);
  const unsentOf = (passCode: string) => mine.find((item) => item.passCode === passCode && item.state !== 'sent');

  // Ready for the first scan.
  useEffect(() => input.current?.focus(), []);

  const next = () => {
    setCode('');
    input.current?.focus();
  };

  const lookUp = useCallback(
    async (raw: string) => {
      const passCode = normalizePassCode(raw);
      if (!PASS_CODE_PATTERN.test(passCode)) {
        setShown({ kind: 'refused', passCode, message: t('checkin.badCode') });
        return;
      }
      if (!navigator.onLine) {
        setShown({ kind: 'offline', passCode });
        return;
      }
      setLooking(true);
      try {
        const pass = await api.get<ConsolePassLookup>(
          `/races/${encodeURIComponent(raceId)}/pickup/passes/${encodeURIComponent(passCode)}`,
        );
        setShown({ kind: 'found', pass });
      } catch (error) {
        setShown(
          isNetworkFailure(error)
            ? { kind: 'offline', passCode }
            : { kind: 'refused', passCode, message: (error as Error).message },
        );
      } finally {
        setLooking(false);
      }
    },
    [raceId, t],
  );

  const onScanned = useCallback(
    (scanned: string) => {
      setCode(formatPassCode(normalizePassCode(scanned)));
      void lookUp(scanned);
    },
    [lookUp],
  );

  const handOver = async (passCode: string, name: string) => {
    setBusy(true);
    try {
      const outcome = await queue.handOver(raceId, passCode);
      if (outcome === undefined) {
        void message.error(t('checkin.cannotKeep'));
        return;
      }
      if (outcome.kind === 'conflict') setShown({ kind: 'conflict', passCode, message: outcome.message });
      else setShown({ kind: 'handed', passCode, name, queued: outcome.kind === 'waiting' });
      next();
    } finally {
      setBusy(false);
    }
  };

  const queuedNotice = (item: QueuedHandOver) =>
    item.state === 'sent' ? (
      <Alert
        type="error"
        showIcon
        message={t('checkin.sentHere', { at: time(item.handedAt) })}
        data-testid="checkin-sent-here"
      />
    ) : item.state === 'waiting' ? (
      <Alert
        type="warning"
        showIcon
        message={t('checkin.queuedHere', { at: time(item.handedAt) })}
        data-testid="checkin-queued-here"
      />
    ) : (
      <Alert
        type="error"
        showIcon
        message={t('checkin.conflictHere', { at: time(item.handedAt) })}
        description={item.message}
      />
    );

  const result = () => {
    if (!shown) return null;
    const code = formatPassCode(shown.kind === 'found' ? shown.pass.passCode : shown.passCode);
    switch (shown.kind) {
      case 'refused':
        return <Alert type="error" showIcon message={code} description={shown.message} data-testid="checkin-refused" />;
      case 'conflict':
        return (
          <Alert
            type="error"
            showIcon
            message={t('checkin.conflictTitle', { code })}
            description={shown.message}
            data-testid="checkin-conflict"
          />
        );
      case 'handed':
        return (
          <Alert
            type={shown.queued ? 'warning' : 'success'}
            showIcon
            icon={shown.queued ? <CloudUploadOutlined aria-hidden /> : <CheckCircleFilled aria-hidden />}
            message={shown.name ? t('checkin.handed', { name: shown.name }) : t('checkin.handedCode', { code })}
            description={shown.queued ? t('checkin.handedQueued') : undefined}
            data-testid="checkin-handed"
          />
        );
      case 'offline': {
        const queued = queuedOf(shown.passCode);
        return (
          <Card title={code} className="checkin-card" data-testid="checkin-offline">
            <Space direction="vertical" style={{ width: '100%' }}>
              <Alert type="warning" showIcon message={t('checkin.cannotCheck')} />
              {queued ? (
                queuedNotice(queued)
              ) : (
                <>
                  <Typography.Paragraph>{t('checkin.notQueued')}</Typography.Paragraph>
                  <Typography.Paragraph strong>{t('checkin.offlineHint')}</Typography.Paragraph>
                  <Button
                    type="primary"
                    size="large"
                    block
                    className="checkin-hand-over"
                    loading={busy}
                    onClick={() => void handOver(shown.passCode, '')}
                    data-testid="checkin-hand-over"
                  >
                    {t('checkin.handOverLater')}
                  </Button>
                </>
              )}
            </Space>
          </Card>
        );
      }
      case 'found': {
        const { pass } = shown;
        const queued = unsentOf(pass.passCode);
        return (
          <Card title={pass.name} className="checkin-card" data-testid="checkin-found">
            <Space direction="vertical" style={{ width: '100%' }}>
              <Descriptions column={1} size="small" bordered>
                <Descriptions.Item label={t('checkin.holder.certificate')}>{pass.certificateNumber}</Descriptions.Item>
                <Descriptions.Item label={t('checkin.holder.item')}>{local(pass.itemName, language)}</Descriptions.Item>
                <Descriptions.Item label={t('checkin.holder.bib')}>
                  {pass.bib ?? t('checkin.holder.noBib')}
                </Descriptions.Item>
                {pass.sizes.map((size) => (
                  <Descriptions.Item key={local(size.label, language)} label={local(size.label, language)}>
                    {typeof size.shown === 'string' ? size.shown : local(size.shown, language)}
                  </Descriptions.Item>
                ))}
                <Descriptions.Item label={t('checkin.holder.slot')}>
                  {pass.slot ? `${pass.slot.date} ${pass.slot.start}–${pass.slot.end}` : pass.slotId}
                </Descriptions.Item>
                <Descriptions.Item label={t('checkin.holder.entryNo')}>{pass.entryNo}</Descriptions.Item>
                <Descriptions.Item label={t('checkin.holder.pass')}>{code}</Descriptions.Item>
              </Descriptions>
              {pass.status === 'collected' ? (
                <Alert
                  type="error"
                  showIcon
                  message={t('checkin.collected', {
                    at: pass.collectedAt === null ? '' : time(pass.collectedAt),
                    by: pass.collectedBy ?? '',
                  })}
                  data-testid="checkin-collected"
                />
              ) : queued ? (
                queuedNotice(queued)
              ) : (
                <>
                  {pass.outsideSlot && <Alert type="warning" showIcon message={t('checkin.outsideSlot')} />}
                  <Button
                    type="primary"
                    size="large"
                    block
                    danger={pass.outsideSlot}
                    className="checkin-hand-over"
                    loading={busy}
                    onClick={() => void handOver(pass.passCode, pass.name)}
                    data-testid="checkin-hand-over"
                  >
                    {pass.outsideSlot ? t('checkin.handOverOutside') : t('checkin.handOver')}
                  </Button>
                </>
              )}
            </Space>
          </Card>
        );
      }
    }
  };

  return (
    <div className="checkin-page" data-testid="checkin-page">
      <h1>{t('checkin.title')}</h1>
      <div
        className={online ? 'checkin-network checkin-network--on' : 'checkin-network checkin-network--off'}
        role="status"
        data-testid="checkin-network"
      >
        <Badge status={online ? 'success' : 'error'} text={online ? t('checkin.online') : t('checkin.offline')} />
      </div>
      <form
        className="checkin-form"
        onSubmit={(event) => {
          event.preventDefault();
          void lookUp(code);
        }}
      >
        <label htmlFor="checkin-code" className="checkin-form__label">
          {t('checkin.passLabel')}
        </label>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            id="checkin-code"
            ref={input}
            size="large"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            placeholder={t('checkin.passPlaceholder')}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            data-testid="checkin-code"
          />
          <Button type="primary" size="large" htmlType="submit" loading={looking} data-testid="checkin-look-up">
            {t('checkin.lookUp')}
          </Button>
        </Space.Compact>
        <Typography.Text type="secondary" className="checkin-form__hint">
          {t('checkin.passHint')}
        </Typography.Text>
        <CameraScan onCode={onScanned} />
      </form>
      <div aria-live="polite" className="checkin-result">
        {result()}
      </div>
      <Card
        size="small"
        className="checkin-queue"
        title={
          <Space wrap>
            <span>{t('checkin.queue.title')}</span>
            {waiting.length > 0 && (
              <Tag color="orange" data-testid="checkin-waiting">
                {t('checkin.queue.waiting', { count: waiting.length })}
              </Tag>
            )}
            {conflicts.length > 0 && (
              <Tag color="red" data-testid="checkin-conflicts">
                {t('checkin.queue.conflicts', { count: conflicts.length })}
              </Tag>
            )}
            {waiting.length === 0 && conflicts.length === 0 && (
              <Tag color="green" data-testid="checkin-all-sent">
                {t('checkin.queue.allSent')}
              </Tag>
            )}
            {queue.sent > 0 && <Tag data-testid="checkin-sent">{t('checkin.queue.sent', { count: queue.sent })}</Tag>}
          </Space>
        }
        extra={
          waiting.length > 0 && (
            <Button
              size="small"
              onClick={() => void queue.flush()}
              loading={queue.sending}
              data-testid="checkin-send-now"
            >
              {t('checkin.queue.sendNow')}
            </Button>
          )
        }
        data-testid="checkin-queue"
      >
        {waiting.length + conflicts.length === 0 ? (
          <Typography.Text type="secondary">{t('checkin.queue.empty')}</Typography.Text>
        ) : (
          <List
            size="small"
            dataSource={[...conflicts, ...waiting]}
            renderItem={(item) => (
              <List.Item
                data-testid={item.state === 'conflict' ? 'checkin-queue-conflict' : 'checkin-queue-waiting'}
                actions={
                  item.state === 'conflict'
                    ? [
                        <Button key="dismiss" size="small" onClick={() => queue.dismiss(item.nonce)}>
                          {t('checkin.queue.dismiss')}
                        </Button>,
                      ]
                    : []
                }
              >
                <List.Item.Meta
                  title={
                    <Space wrap>
                      <span className="checkin-code">{formatPassCode(item.passCode)}</span>
                      {item.state === 'conflict' ? (
                        <Tag color="red">{t('checkin.queue.conflict')}</Tag>
                      ) : (
                        <Tag color="orange">{t('checkin.queue.waitingOne')}</Tag>
                      )}
                    </Space>
                  }
                  description={
                    <>
                      <div>{t('checkin.queue.handedAt', { at: time(item.handedAt) })}</div>
                      {item.message && <div className="checkin-queue__reason">{item.message}</div>}
                    </>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Card>
    </div>
  );
}
