/**
 * The entry season (issue 32 §1, owner): the race-wide switch with the window, a table of items × channels
 * with each cell's state under the one rule (contract/season.ts entryStateFor) and its switch, the channels
 * closed on every item, and the Codes tab (codes.tsx). Every switch asks for a confirmation; the server records
 * it in the audit log and the public site follows within seconds.
 */
import { Alert, App, Button, Card, Space, Switch, Table, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { ENTRY_CHANNELS, type EntryChannel, type SignUpWindowState } from '#contract/entry';
import type { SeasonItem, SeasonSwitchRequest, SeasonView } from '#contract/season';
import { api } from '../../api/client';
import { useConsole } from '../../store';
import { useLoaded } from '../../use-loaded';
import { CodesTab } from './codes';
import './season.css';

/** The tags' colours (antd's presets, their text darkened for contrast by lib/tags.css). */
const STATE_TONES: Record<SignUpWindowState, string | undefined> = {
  open: 'green',
  closed: 'red',
  notYet: 'blue',
  ended: undefined,
};

export function StateTag({ state, testId }: { state: SignUpWindowState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag className="season-state" color={STATE_TONES[state]} data-testid={testId}>
      {t(`season.states.${state}`)}
    </Tag>
  );
}

export default function SeasonPage() {
  const { t } = useTranslation();
  const { raceId = '' } = useParams();
  const load = useCallback(() => api.get<SeasonView>(`/races/${encodeURIComponent(raceId)}/season`), [raceId]);
  const { data, error, reload, loading } = useLoaded(load);

  return (
    <div className="season-page" data-testid="season-page">
      <div className="console-page-head">
        <h1>{t('season.title')}</h1>
      </div>
      <Typography.Paragraph className="season-intro">{t('season.intro')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} className="season-alert" role="alert" />}
      <Tabs
        defaultActiveKey="switches"
        items={[
          {
            key: 'switches',
            label: t('season.tabs.switches'),
            children: data ? <Switches view={data} reload={reload} /> : <Card loading={loading} aria-busy={loading} />,
          },
          {
            key: 'codes',
            label: t('season.tabs.codes'),
            children: <CodesTab raceId={raceId} items={data?.items ?? []} zone={data?.timeZone} />,
          },
        ]}
      />
    </div>
  );
}

function Switches({ view, reload }: { view: SeasonView; reload: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const language = useConsole((s) => s.language);
  const itemName = (item: Pick<SeasonItem, 'code' | 'name'>) => item.name[language] || item.name.zh || item.code;
  const channelName = (channel: EntryChannel) => t(`season.channels.${channel}`);

  /** Asks, then flips the switch; the page reloads the states from the server. */
  const flip = (request: SeasonSwitchRequest, part: string) => {
    modal.confirm({
      title: t(request.open ? 'season.confirmOpenTitle' : 'season.confirmCloseTitle', { part }),
      content: t(request.open ? 'season.confirmOpenText' : 'season.confirmCloseText', { part }),
      okText: t(request.open ? 'season.open' : 'season.close'),
      okButtonProps: { danger: !request.open },
      cancelText: t('season.cancel'),
      onOk: async () => {
        try {
          await api.post(`/races/${encodeURIComponent(view.raceId)}/season/switch`, request);
          void message.success(t(request.open ? 'season.opened' : 'season.closed', { part }));
          reload();
        } catch (failure) {
          void message.error((failure as Error).message);
        }
      },
    });
  };

  const raceWord = t('season.theRace');
  const cellPart = (item: SeasonItem, channel: EntryChannel) =>
    t('season.partItemChannel', { item: itemName(item), channel: channelName(channel) });

  const columns: TableColumnsType<SeasonItem> = [
    {
      key: 'item',
      title: t('season.item'),
      fixed: 'left',
      render: (_, item) => (
        <Space direction="vertical" size={4}>
          <strong>{itemName(item)}</strong>
          <span className="season-code">{item.code}</span>
          <Switch
            size="small"
            checked={!item.closed}
            checkedChildren={t('season.itemOn')}
            unCheckedChildren={t('season.itemOff')}
            aria-label={t('season.itemSwitch', { item: itemName(item) })}
            onChange={(on) => flip({ open: on, itemCode: item.code }, t('season.partItem', { item: itemName(item) }))}
            data-testid={`season-item-${item.code}`}
          />
        </Space>
      ),
    },
    ...ENTRY_CHANNELS.map((channel) => ({
      key: channel,
      title: channelName(channel),
      render: (_: unknown, item: SeasonItem) => {
        const cell = item.channels.find((c) => c.channel === channel);
        if (!cell) return <span className="season-none">{t('season.notOffered')}</span>;
        return (
          <Space direction="vertical" size={4} data-testid={`season-cell-${item.code}-${channel}`}>
            <StateTag state={cell.state} testId={`season-state-${item.code}-${channel}`} />
            <Switch
              size="small"
              checked={!cell.closed}
              aria-label={t('season.cellSwitch', { item: itemName(item), channel: channelName(channel) })}
              onChange={(on) => flip({ open: on, itemCode: item.code, channel }, cellPart(item, channel))}
              data-testid={`season-switch-${item.code}-${channel}`}
            />
          </Space>
        );
      },
    })),
  ];

  const window =
    view.signUpStartTime || view.signUpEndTime
      ? t('season.window', { start: view.signUpStartTime ?? '…', end: view.signUpEndTime ?? '…', zone: view.timeZone })
      : t('season.noWindow');

  return (
    <Space direction="vertical" size={16} className="season-switches">
      <Card title={t('season.raceTitle')} size="small">
        <div className="season-race">
          <Switch
            checked={view.open}
            checkedChildren={t('season.on')}
            unCheckedChildren={t('season.off')}
            aria-label={t('season.raceSwitch')}
            onChange={(on) => flip({ open: on }, raceWord)}
            data-testid="season-race-switch"
          />
          <span>{t(view.open ? 'season.raceOpen' : 'season.raceClosed')}</span>
          <StateTag state={view.windowState} testId="season-race-state" />
          <span className="season-window">{window}</span>
        </div>
        <Typography.Paragraph className="season-hint">{t('season.raceHint')}</Typography.Paragraph>
      </Card>
      <Card title={t('season.channelsTitle')} size="small">
        <Space wrap size={[24, 8]}>
          {ENTRY_CHANNELS.map((channel) => (
            <label key={channel} className="season-channel">
              <Switch
                size="small"
                checked={!view.closedChannels.includes(channel)}
                aria-label={t('season.channelSwitch', { channel: channelName(channel) })}
                onChange={(on) =>
                  flip({ open: on, channel }, t('season.partChannel', { channel: channelName(channel) }))
                }
                data-testid={`season-channel-${channel}`}
              />
              <span>{channelName(channel)}</span>
            </label>
          ))}
        </Space>
        <Typography.Paragraph className="season-hint">{t('season.channelsHint')}</Typography.Paragraph>
      </Card>
      <Card title={t('season.itemsTitle')} size="small">
        <Table<SeasonItem>
          rowKey="code"
          size="middle"
          columns={columns}
          dataSource={view.items}
          pagination={view.items.length > 20 ? { pageSize: 20 } : false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <span className="season-empty">{t('season.noItems')}</span> }}
          data-testid="season-items"
        />
        <Typography.Paragraph className="season-hint">{t('season.itemsHint')}</Typography.Paragraph>
      </Card>
      <Button onClick={reload}>{t('season.refresh')}</Button>
    </Space>
  );
}
