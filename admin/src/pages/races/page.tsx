/**
 * The organiser's races (issue 33 §3; the CLI's `list`, `add-race`, `bind`, `unbind`): each race with its name,
 * start, time zone, place and domains (whether a site is published on each), a domain bound (another race's
 * domain only after confirming the move, which names that race) or unbound (after confirming), and a new race
 * made from a few fields: it is in the top bar's race picker at once and the console opens its settings.
 */
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import {
  NEW_RACE_ID_PATTERN,
  RACE_NAME_MAX,
  RACE_PLACE_MAX,
  type NewRaceRequest,
  type OrganiserRace,
  type OrganiserRaces,
} from '#contract/race-admin';
import type { ConsoleRace } from '#contract/staff';
import { DEFAULT_RACE_TIME_ZONE } from '#contract/time-zone';
import { api, ConsoleApiError } from '../../api/client';
import { RaceTimeInput, TimeZoneSelect, useRaceTimeError } from '../../lib/race-fields';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { formatInstant } from '../../time';
import { useLoaded } from '../../use-loaded';
import './races.css';

const EMPTY: NewRaceRequest = {
  raceId: '',
  raceName: { zh: '', en: '' },
  startTime: '',
  timeZone: DEFAULT_RACE_TIME_ZONE,
  place: '',
};

function NewRaceForm({ onCreated }: { onCreated: (raceId: string) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<NewRaceRequest>(EMPTY);
  const [touched, setTouched] = useState(false);
  const { busy, error, run } = useAction();
  const [problems, setProblems] = useState<{ path: string; message: string }[]>([]);
  const idError =
    draft.raceId === ''
      ? touched
        ? t('race.fields.required')
        : ''
      : NEW_RACE_ID_PATTERN.test(draft.raceId)
        ? ''
        : t('races.new.idRule');
  const zhError = touched && draft.raceName.zh.trim() === '' ? t('race.fields.required') : '';
  const startError = useRaceTimeError(draft.startTime, touched);
  const set = (patch: Partial<NewRaceRequest>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = async () => {
    setTouched(true);
    if (
      draft.raceId === '' ||
      idError ||
      draft.raceName.zh.trim() === '' ||
      draft.startTime.trim() === '' ||
      startError
    )
      return;
    setProblems([]);
    const done = await run(async () => {
      try {
        await api.post('/organiser/races', draft);
      } catch (failure) {
        const data = failure instanceof ConsoleApiError ? (failure.data as { problems?: typeof problems }) : undefined;
        setProblems(data?.problems ?? []);
        throw failure;
      }
    });
    if (done) onCreated(draft.raceId);
  };

  return (
    <Card title={t('races.new.title')} size="small" data-testid="races-new">
      <Typography.Paragraph type="secondary">{t('races.new.help')}</Typography.Paragraph>
      <Form layout="vertical" onFinish={() => void submit()} className="races-new-form">
        <Form.Item
          label={t('races.new.raceId')}
          htmlFor="new-race-id"
          validateStatus={idError ? 'error' : undefined}
          help={idError || t('races.new.idHelp')}
        >
          <Input
            id="new-race-id"
            value={draft.raceId}
            onChange={(e) => set({ raceId: e.target.value.trim() })}
            maxLength={64}
            placeholder="qc-marathon-2028"
            data-testid="new-race-id"
            autoComplete="off"
          />
        </Form.Item>
        <Form.Item
          label={t('races.new.nameZh')}
          htmlFor="new-race-zh"
          validateStatus={zhError ? 'error' : undefined}
          help={zhError || undefined}
        >
          <Input
            id="new-race-zh"
            value={draft.raceName.zh}
            onChange={(e) => set({ raceName: { ...draft.raceName, zh: e.target.value } })}
            maxLength={RACE_NAME_MAX}
            data-testid="new-race-zh"
          />
        </Form.Item>
        <Form.Item label={t('races.new.nameEn')} htmlFor="new-race-en">
          <Input
            id="new-race-en"
            value={draft.raceName.en}
            onChange={(e) => set({ raceName: { ...draft.raceName, en: e.target.value } })}
            maxLength={RACE_NAME_MAX}
            data-testid="new-race-en"
          />
        </Form.Item>
        <Form.Item
          label={t('races.new.start')}
          htmlFor="new-race-start"
          validateStatus={startError ? 'error' : undefined}
          help={startError || t('races.new.startHelp')}
        >
          <RaceTimeInput
            id="new-race-start"
            value={draft.startTime}
            onChange={(startTime) => set({ startTime })}
            testId="new-race-start"
          />
        </Form.Item>
        <Form.Item label={t('races.new.timeZone')} htmlFor="new-race-zone">
          <TimeZoneSelect
            id="new-race-zone"
            value={draft.timeZone}
            onChange={(timeZone) => set({ timeZone })}
            testId="new-race-zone"
          />
        </Form.Item>
        <Form.Item label={t('races.new.place')} htmlFor="new-race-place">
          <Input
            id="new-race-place"
            value={draft.place}
            onChange={(e) => set({ place: e.target.value })}
            maxLength={RACE_PLACE_MAX}
            data-testid="new-race-place"
          />
        </Form.Item>
        <Form.Item className="races-new-submit">
          <Button
            type="primary"
            htmlType="submit"
            icon={<PlusOutlined aria-hidden />}
            loading={busy}
            data-testid="new-race-submit"
          >
            {t('races.new.submit')}
          </Button>
        </Form.Item>
      </Form>
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          description={
            problems.length > 0 ? (
              <ul className="races-problems">
                {problems.map((p) => (
                  <li key={`${p.path}-${p.message}`}>
                    <code>{p.path}</code>: {p.message}
                  </li>
                ))}
              </ul>
            ) : undefined
          }
          data-testid="new-race-error"
        />
      )}
    </Card>
  );
}

function BindModal({
  race,
  onClose,
  onBound,
}: {
  race: OrganiserRace | null;
  onClose: () => void;
  onBound: (domain: string) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [domain, setDomain] = useState('');
  const { busy, error, setError, run } = useAction();
  const bind = async (move: boolean) => {
    if (!race) return;
    let refused: ConsoleApiError | undefined;
    const done = await run(async () => {
      try {
        await api.post('/domains/bind', { domain, raceId: race.raceId, move });
      } catch (failure) {
        if (failure instanceof ConsoleApiError && failure.msgCode === 'domainBoundElsewhere') refused = failure;
        else throw failure;
      }
    });
    if (refused) {
      const message = refused.message;
      modal.confirm({
        title: t('races.domains.moveTitle', { domain: domain.trim() }),
        content: message,
        okText: t('races.domains.move'),
        cancelText: t('races.cancel'),
        onOk: () => bind(true),
      });
      return;
    }
    if (done) onBound(domain.trim());
  };
  return (
    <Modal
      open={race !== null}
      title={race ? t('races.domains.bindTitle', { race: race.raceId }) : ''}
      onCancel={onClose}
      onOk={() => void bind(false)}
      okText={t('races.domains.bind')}
      cancelText={t('races.cancel')}
      okButtonProps={{ loading: busy, disabled: domain.trim() === '', ...{ 'data-testid': 'bind-submit' } }}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph>{t('races.domains.bindHelp')}</Typography.Paragraph>
        <label htmlFor="bind-domain">{t('races.domains.domain')}</label>
        <Input
          id="bind-domain"
          value={domain}
          onChange={(e) => {
            setDomain(e.target.value);
            setError('');
          }}
          onPressEnter={() => void bind(false)}
          placeholder="www.example-marathon.com"
          maxLength={253}
          data-testid="bind-domain"
          autoComplete="off"
        />
        {error && <Alert type="error" showIcon message={error} data-testid="bind-error" />}
      </Space>
    </Modal>
  );
}

export default function RacesPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const language = useConsole((s) => s.language);
  const setRaces = useConsole((s) => s.setRaces);
  const load = useCallback(() => api.get<OrganiserRaces>('/organiser/races'), []);
  const view = useLoaded(load);
  const [binding, setBinding] = useState<OrganiserRace | null>(null);

  /** The top bar's race picker reads the list again (a new race, a new name). */
  const refreshPicker = async () => setRaces(await api.get<ConsoleRace[]>('/races').catch(() => []));

  const created = async (raceId: string) => {
    void message.success(t('races.new.created', { race: raceId }));
    await refreshPicker();
    navigate(`/races/${encodeURIComponent(raceId)}/race`);
  };

  const unbind = (domain: string) => {
    modal.confirm({
      title: t('races.domains.unbindTitle', { domain }),
      content: t('races.domains.unbindConfirm'),
      okText: t('races.domains.unbind'),
      okButtonProps: { danger: true },
      cancelText: t('races.cancel'),
      onOk: async () => {
        try {
          await api.post('/domains/unbind', { domain });
          void message.success(t('races.domains.unbound', { domain }));
          view.reload();
        } catch (failure) {
          void message.error((failure as Error).message);
        }
      },
    });
  };

  const columns: TableColumnsType<OrganiserRace> = [
    {
      title: t('races.list.name'),
      key: 'name',
      render: (_: unknown, race) => (
        <Space direction="vertical" size={0}>
          <Link to={`/races/${encodeURIComponent(race.raceId)}/race`} data-testid={`races-open-${race.raceId}`}>
            {race.raceName[language] || race.raceName.zh}
          </Link>
          <Typography.Text type="secondary" className="races-id">
            {race.raceId}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('races.list.start'),
      key: 'start',
      render: (_: unknown, race) => race.startTime ?? t('races.list.noStart'),
    },
    { title: t('races.list.timeZone'), dataIndex: 'timeZone' },
    { title: t('races.list.place'), dataIndex: 'place', render: (place: string | null) => place ?? '—' },
    {
      title: t('races.list.signUp'),
      key: 'signUp',
      render: (_: unknown, race) =>
        race.signUpOpen ? (
          <Tag color="green">{t('races.list.open')}</Tag>
        ) : (
          <Tag>{t('races.list.closed', { count: race.itemCount })}</Tag>
        ),
    },
    {
      title: t('races.list.domains'),
      key: 'domains',
      render: (_: unknown, race) => (
        <Space direction="vertical" size={4} data-testid={`races-domains-${race.raceId}`}>
          {race.domains.map((d) => (
            <Space key={d.domainName} size={4} wrap>
              <Typography.Text strong>{d.domainName}</Typography.Text>
              <Tag color={d.publishedAt === null ? 'orange' : 'blue'}>
                {d.publishedAt === null
                  ? t('races.domains.unpublished')
                  : t('races.domains.published', { at: formatInstant(d.publishedAt, race.timeZone) })}
              </Tag>
              <Button
                type="link"
                size="small"
                danger
                onClick={() => unbind(d.domainName)}
                aria-label={t('races.domains.unbindOf', { domain: d.domainName })}
                data-testid={`unbind-${d.domainName}`}
              >
                {t('races.domains.unbind')}
              </Button>
            </Space>
          ))}
          <Button size="small" onClick={() => setBinding(race)} data-testid={`bind-${race.raceId}`}>
            {t('races.domains.bind')}
          </Button>
        </Space>
      ),
    },
  ];

  const data = view.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="races-page">
      <div>
        <div className="console-page-head" style={{ marginBottom: 4 }}>
          <h1>{t('races.title')}</h1>
        </div>
        <Typography.Text>{t('races.intro')}</Typography.Text>
      </div>
      {view.error && <Alert type="error" showIcon message={view.error} />}
      <Card title={t('races.list.title')} size="small">
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
        <div role="region" aria-label={t('races.list.title')} tabIndex={0} className="races-scroll">
          <Table<OrganiserRace>
            rowKey="raceId"
            size="small"
            loading={view.loading && !data}
            dataSource={data?.races ?? []}
            columns={columns}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            locale={{ emptyText: <span className="races-empty">{t('races.list.empty')}</span> }}
            data-testid="races-list"
          />
        </div>
      </Card>
      {data && !data.mayCreate && <Alert type="info" showIcon message={t('races.new.limited')} />}
      {data?.mayCreate && <NewRaceForm onCreated={(raceId) => void created(raceId)} />}
      <BindModal
        key={binding?.raceId ?? 'none'}
        race={binding}
        onClose={() => setBinding(null)}
        onBound={(domain) => {
          void message.success(t('races.domains.bound', { domain }));
          setBinding(null);
          view.reload();
        }}
      />
    </Space>
  );
}
