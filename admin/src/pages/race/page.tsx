/**
 * The race's settings (issue 33 §3; the CLI's `add-race`): race.json as forms for what organisers change most
 * (names, times and time zone, place; items with fees and capacities; the sign-up window and channels, refunds
 * and transfers; the commitment letter; pick-up days and slots) and as JSON for the whole document. Saved with
 * add-race's checks: every problem by JSON path, and a change that would break entries already made (a capacity
 * below the places taken, an item with entries removed, …) refused with its reason. Leaving with unsaved
 * changes asks first.
 */
import SaveOutlined from '@ant-design/icons/SaveOutlined';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Result,
  Space,
  Spin,
  Switch,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { CommitmentLetterSettings, PackPickupSettings } from '#contract/after-entry';
import type { EntryItemSettings, EntrySettings } from '#contract/entry';
import type { RaceCheckAnswer, RaceProblem, RaceSettingsView } from '#contract/race-admin';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { ConsoleRace } from '#contract/staff';
import { api, ConsoleApiError } from '../../api/client';
import { RaceTimeInput, TimeZoneSelect, useRaceTimeError } from '../../lib/race-fields';
import { useUnsavedChanges } from '../../lib/unsaved-changes';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { useLoaded } from '../../use-loaded';
import { FormGuard } from './form-guard';
import { ItemsEditor } from './items';
import { JsonEditor } from './json-editor';
import { PickupEditor } from './pickup';
import './race.css';

/** How long the JSON editor waits after the last key before asking the server for the document's problems. */
const CHECK_DELAY_MS = 600;

const text = (value: string) => (value.trim() === '' ? undefined : value);

/** A copy of the race with `key` set, or removed when the value is undefined. */
function withField<K extends keyof RaceInfo>(race: RaceInfo, key: K, value: RaceInfo[K] | undefined): RaceInfo {
  const next = { ...race };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

function TimeField({
  id,
  label,
  value,
  onChange,
  required = false,
  help,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  required?: boolean;
  help?: string;
}) {
  const error = useRaceTimeError(value, required);
  return (
    <Form.Item label={label} htmlFor={id} validateStatus={error ? 'error' : undefined} help={error || help}>
      <RaceTimeInput id={id} value={value} onChange={(v) => onChange(text(v))} testId={id} />
    </Form.Item>
  );
}

function BasicsTab({ race, set }: { race: RaceInfo; set: (race: RaceInfo) => void }) {
  const { t } = useTranslation();
  return (
    <Form layout="vertical" className="race-grid">
      <Form.Item
        label={t('race.basics.nameZh')}
        htmlFor="race-name-zh"
        validateStatus={race.raceName.trim() === '' ? 'error' : undefined}
        help={race.raceName.trim() === '' ? t('race.fields.required') : undefined}
      >
        <Input
          id="race-name-zh"
          value={race.raceName}
          onChange={(e) => set({ ...race, raceName: e.target.value })}
          maxLength={200}
          data-testid="race-name-zh"
        />
      </Form.Item>
      <Form.Item label={t('race.basics.nameEn')} htmlFor="race-name-en">
        <Input
          id="race-name-en"
          value={race.raceNameEn ?? ''}
          onChange={(e) => set(withField(race, 'raceNameEn', text(e.target.value)))}
          maxLength={200}
          data-testid="race-name-en"
        />
      </Form.Item>
      <TimeField
        id="race-start"
        label={t('race.basics.start')}
        value={race.startTime}
        onChange={(v) => set(withField(race, 'startTime', v))}
      />
      <TimeField
        id="race-end"
        label={t('race.basics.end')}
        value={race.endTime}
        onChange={(v) => set(withField(race, 'endTime', v))}
      />
      <Form.Item label={t('race.basics.timeZone')} htmlFor="race-zone" help={t('race.basics.timeZoneHelp')}>
        <TimeZoneSelect id="race-zone" value={race.timeZone} onChange={(zone) => set({ ...race, timeZone: zone })} />
      </Form.Item>
      <Form.Item label={t('race.basics.place')} htmlFor="race-place">
        <Input
          id="race-place"
          value={race.detailAddress ?? ''}
          onChange={(e) => set(withField(race, 'detailAddress', text(e.target.value)))}
          maxLength={200}
        />
      </Form.Item>
    </Form>
  );
}

const NO_ENTRY: EntrySettings = { allowMultiple: false, items: [] };

function SignUpTab({ race, set }: { race: RaceInfo; set: (race: RaceInfo) => void }) {
  const { t } = useTranslation();
  const entry = race.entry ?? NO_ENTRY;
  const setEntry = (patch: Partial<EntrySettings>) => set({ ...race, entry: { ...entry, ...patch } });
  const refunds = entry.refunds;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary">
        {t('race.signUp.help')}{' '}
        <Tag color={race.signUpOpenStatus === 1 ? 'green' : undefined}>
          {t(race.signUpOpenStatus === 1 ? 'race.signUp.open' : 'race.signUp.closed')}
        </Tag>
      </Typography.Paragraph>
      <Form layout="vertical" className="race-grid">
        <TimeField
          id="race-signup-start"
          label={t('race.signUp.start')}
          value={race.signUpStartTime}
          onChange={(v) => set(withField(race, 'signUpStartTime', v))}
        />
        <TimeField
          id="race-signup-end"
          label={t('race.signUp.end')}
          value={race.signUpEndTime}
          onChange={(v) => set(withField(race, 'signUpEndTime', v))}
        />
        <Form.Item
          label={t('race.signUp.formChannel')}
          htmlFor="race-form-channel"
          help={t('race.signUp.formChannelHelp')}
        >
          <Input
            id="race-form-channel"
            value={entry.formChannel ?? ''}
            placeholder="public"
            onChange={(e) => {
              const { formChannel: _old, ...rest } = entry;
              void _old;
              const value = text(e.target.value.trim());
              set({ ...race, entry: value === undefined ? rest : { ...rest, formChannel: value } });
            }}
            maxLength={32}
          />
        </Form.Item>
        <Form.Item label={t('race.signUp.othersPerAccount')} htmlFor="race-others">
          <InputNumber
            id="race-others"
            value={entry.othersPerAccount ?? null}
            min={0}
            max={49}
            precision={0}
            disabled={!entry.allowMultiple}
            onChange={(value) => {
              const { othersPerAccount: _old, ...rest } = entry;
              void _old;
              set({ ...race, entry: typeof value === 'number' ? { ...rest, othersPerAccount: value } : rest });
            }}
          />
        </Form.Item>
      </Form>
      <Space direction="vertical">
        {(
          [
            ['allowMultiple', 'race.signUp.allowMultiple'],
            ['directPass', 'race.signUp.directPass'],
            ['allowTransfer', 'race.signUp.allowTransfer'],
          ] as const
        ).map(([key, label]) => (
          <Space key={key}>
            <Switch
              id={`race-${key}`}
              checked={entry[key] === true}
              onChange={(checked) => setEntry({ [key]: checked })}
              data-testid={`race-${key}`}
            />
            <label htmlFor={`race-${key}`}>{t(label)}</label>
          </Space>
        ))}
      </Space>
      <Card size="small" title={t('race.refunds.title')}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space>
            <Switch
              id="race-refunds"
              checked={refunds?.allowed === true}
              onChange={(allowed) =>
                setEntry({
                  refunds: refunds
                    ? { ...refunds, allowed }
                    : { allowed, until: race.signUpEndTime ?? race.startTime ?? '', sharePercent: 80 },
                })
              }
            />
            <label htmlFor="race-refunds">{t('race.refunds.allowed')}</label>
          </Space>
          {refunds && (
            <Form layout="vertical" className="race-grid">
              <TimeField
                id="race-refunds-until"
                label={t('race.refunds.until')}
                value={refunds.until}
                required
                onChange={(until) => setEntry({ refunds: { ...refunds, until: until ?? '' } })}
              />
              <Form.Item label={t('race.refunds.share')} htmlFor="race-refunds-share">
                <InputNumber
                  id="race-refunds-share"
                  value={refunds.sharePercent}
                  min={0}
                  max={100}
                  addonAfter="%"
                  onChange={(value) =>
                    setEntry({ refunds: { ...refunds, sharePercent: typeof value === 'number' ? value : 0 } })
                  }
                />
              </Form.Item>
              <Space>
                <Switch
                  id="race-deferral"
                  checked={refunds.deferral?.allowed === true}
                  onChange={(allowed) =>
                    setEntry({
                      refunds: { ...refunds, deferral: { allowed, until: refunds.deferral?.until ?? refunds.until } },
                    })
                  }
                />
                <label htmlFor="race-deferral">{t('race.refunds.deferral')}</label>
              </Space>
            </Form>
          )}
        </Space>
      </Card>
    </Space>
  );
}

const EMPTY_LETTER: CommitmentLetterSettings = {
  enabled: false,
  title: { zh: '', en: '' },
  body: { zh: '', en: '' },
  statements: [{ zh: '', en: '' }],
};

function LetterTab({ race, set }: { race: RaceInfo; set: (race: RaceInfo) => void }) {
  const { t } = useTranslation();
  const letter = race.commitmentLetter;
  const setLetter = (patch: Partial<CommitmentLetterSettings>) =>
    set({ ...race, commitmentLetter: { ...(letter ?? EMPTY_LETTER), ...patch } });
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary">{t('race.letter.help')}</Typography.Paragraph>
      <Space>
        <Switch id="race-letter" checked={letter?.enabled === true} onChange={(enabled) => setLetter({ enabled })} />
        <label htmlFor="race-letter">{t('race.letter.enabled')}</label>
      </Space>
      {letter && (
        <Form layout="vertical" className="race-grid">
          {(['zh', 'en'] as const).map((lang) => (
            <Form.Item
              key={`title-${lang}`}
              label={t(`race.letter.title_${lang}`)}
              htmlFor={`race-letter-title-${lang}`}
            >
              <Input
                id={`race-letter-title-${lang}`}
                value={letter.title[lang]}
                onChange={(e) => setLetter({ title: { ...letter.title, [lang]: e.target.value } })}
                maxLength={200}
              />
            </Form.Item>
          ))}
          {(['zh', 'en'] as const).map((lang) => (
            <Form.Item key={`body-${lang}`} label={t(`race.letter.body_${lang}`)} htmlFor={`race-letter-body-${lang}`}>
              <Input.TextArea
                id={`race-letter-body-${lang}`}
                value={letter.body[lang]}
                onChange={(e) => setLetter({ body: { ...letter.body, [lang]: e.target.value } })}
                autoSize={{ minRows: 3, maxRows: 10 }}
                maxLength={50_000}
              />
            </Form.Item>
          ))}
          {letter.statements.map((statement, i) =>
            (['zh', 'en'] as const).map((lang) => (
              <Form.Item
                key={`statement-${i}-${lang}`}
                label={t(`race.letter.statement_${lang}`, { n: i + 1 })}
                htmlFor={`race-letter-statement-${i}-${lang}`}
              >
                <Input
                  id={`race-letter-statement-${i}-${lang}`}
                  value={statement[lang]}
                  onChange={(e) =>
                    setLetter({
                      statements: letter.statements.map((s, k) => (k === i ? { ...s, [lang]: e.target.value } : s)),
                    })
                  }
                  maxLength={500}
                />
              </Form.Item>
            )),
          )}
          <Form.Item>
            <Space>
              <Button
                onClick={() => setLetter({ statements: [...letter.statements, { zh: '', en: '' }] })}
                disabled={letter.statements.length >= 20}
              >
                {t('race.letter.addStatement')}
              </Button>
              <Button
                onClick={() => setLetter({ statements: letter.statements.slice(0, -1) })}
                disabled={letter.statements.length <= 1}
              >
                {t('race.letter.removeStatement')}
              </Button>
            </Space>
          </Form.Item>
          <TimeField
            id="race-letter-deadline"
            label={t('race.letter.deadline')}
            value={letter.deadline}
            onChange={(deadline) => {
              const { deadline: _old, ...rest } = letter;
              void _old;
              set({ ...race, commitmentLetter: deadline === undefined ? rest : { ...rest, deadline } });
            }}
          />
        </Form>
      )}
    </Space>
  );
}

/** The document's problems by JSON path (the save's refusal, or the JSON editor's check). */
function Problems({ problems }: { problems: RaceProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="race-problems" data-testid="race-problems">
      {problems.map((p) => (
        <li key={`${p.path}-${p.message}`}>
          <code>{p.path}</code>: {p.message}
        </li>
      ))}
    </ul>
  );
}

export default function RacePage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { raceId = '' } = useParams();
  const setRaces = useConsole((s) => s.setRaces);
  const base = `/races/${encodeURIComponent(raceId)}/settings`;
  const load = useCallback(() => api.get<RaceSettingsView>(base), [base]);
  const view = useLoaded(load);
  // The document being edited, started from each fresh answer (first load, after a save, after a reload).
  const [edit, setEdit] = useState<{
    from: RaceSettingsView;
    draft: RaceInfo;
    jsonText: string;
    jsonError: string;
    /** Changes made in the JSON tab (a form tab that could not show the document tries again after each). */
    jsonEdits: number;
  } | null>(null);
  if (view.data && edit?.from !== view.data) {
    setEdit({
      from: view.data,
      draft: view.data.race,
      jsonText: JSON.stringify(view.data.race, null, 2),
      jsonError: '',
      jsonEdits: 0,
    });
  }
  const draft = edit?.draft ?? null;
  const savedRace = edit?.from.race ?? null;
  const version = edit?.from.version ?? 0;
  const jsonText = edit?.jsonText ?? '';
  const jsonError = edit?.jsonError ?? '';
  const jsonEdits = edit?.jsonEdits ?? 0;
  const [checked, setChecked] = useState<RaceProblem[]>([]);
  const [refused, setRefused] = useState<{ message: string; code?: string; problems: RaceProblem[] } | null>(null);
  const [itemErrors, setItemErrors] = useState<string[]>([]);
  const [tab, setTab] = useState('basics');
  const save = useAction();

  const dirty = draft !== null && savedRace !== null && JSON.stringify(draft) !== JSON.stringify(savedRace);
  const confirmLeave = useCallback(
    (leave: () => void) =>
      modal.confirm({
        title: t('race.unsaved.title'),
        content: t('race.unsaved.content'),
        okText: t('race.unsaved.leave'),
        okButtonProps: { danger: true },
        cancelText: t('race.unsaved.stay'),
        onOk: leave,
      }),
    [modal, t],
  );
  useUnsavedChanges(dirty, confirmLeave);

  /** A form's change: the draft and the JSON text follow. */
  const setFromForm = (race: RaceInfo) =>
    setEdit((e) => (e ? { ...e, draft: race, jsonText: JSON.stringify(race, null, 2), jsonError: '' } : e));

  // The JSON editor's change: the draft follows when the text is JSON; the server checks it a moment later.
  const checkTimer = useRef<number | undefined>(undefined);
  const checkSeq = useRef(0);
  const onJson = useCallback(
    (value: string) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch (error) {
        setEdit((e) => (e ? { ...e, jsonText: value, jsonError: (error as Error).message } : e));
        return;
      }
      const document = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as RaceInfo) : null;
      setEdit((e) =>
        e ? { ...e, jsonText: value, jsonError: '', draft: document ?? e.draft, jsonEdits: e.jsonEdits + 1 } : e,
      );
      window.clearTimeout(checkTimer.current);
      checkTimer.current = window.setTimeout(() => {
        // Only the latest check's answer counts (an older one may arrive after it).
        checkSeq.current += 1;
        const seq = checkSeq.current;
        api.post<RaceCheckAnswer>(`${base}/check`, { race: parsed }).then(
          (answer) => seq === checkSeq.current && setChecked(answer.problems),
          () => undefined,
        );
      }, CHECK_DELAY_MS);
    },
    [base],
  );
  useEffect(() => () => window.clearTimeout(checkTimer.current), []);

  const submit = async () => {
    if (!draft) return;
    setRefused(null);
    const done = await save.run(async () => {
      try {
        await api.post<{ race: RaceInfo; version: number }>(base, { race: draft, version });
      } catch (failure) {
        const data = failure instanceof ConsoleApiError ? (failure.data as { problems?: RaceProblem[] }) : undefined;
        setRefused({
          message: (failure as Error).message,
          code: failure instanceof ConsoleApiError ? failure.msgCode : undefined,
          problems: data?.problems ?? [],
        });
        throw failure;
      }
    });
    if (done) {
      void message.success(t('race.saved'));
      setChecked([]);
      // The saved race comes back as the next answer, and becomes the draft.
      view.reload();
      setRaces(await api.get<ConsoleRace[]>('/races').catch(() => useConsole.getState().races));
    }
  };

  const reloadFromServer = () => {
    setRefused(null);
    view.reload();
  };

  const items: EntryItemSettings[] = draft?.entry?.items ?? [];
  const setItems = (next: EntryItemSettings[]) => {
    if (!draft) return;
    if (next.length === 0 && !draft.entry) return;
    setFromForm({ ...draft, entry: { ...(draft.entry ?? NO_ENTRY), items: next } });
  };
  const onItemErrors = useCallback((errors: string[]) => setItemErrors(errors), []);
  const blocked = jsonError !== '' || itemErrors.length > 0;

  /** A form tab, shown only while the document has a shape it can show (see FormGuard). */
  const guard = (children: React.ReactNode) => (
    <FormGuard key={jsonEdits} message={t('race.formBroken')}>
      {children}
    </FormGuard>
  );
  const tabs = useMemo(
    () =>
      draft && view.data
        ? [
            {
              key: 'basics',
              label: t('race.tabs.basics'),
              children: guard(<BasicsTab race={draft} set={setFromForm} />),
            },
            {
              key: 'items',
              label: t('race.tabs.items'),
              children: guard(
                <ItemsEditor items={items} view={view.data} onChange={setItems} onErrors={onItemErrors} />,
              ),
            },
            {
              key: 'signUp',
              label: t('race.tabs.signUp'),
              children: guard(<SignUpTab race={draft} set={setFromForm} />),
            },
            {
              key: 'letter',
              label: t('race.tabs.letter'),
              children: guard(<LetterTab race={draft} set={setFromForm} />),
            },
            {
              key: 'pickup',
              label: t('race.tabs.pickup'),
              children: guard(
                <PickupEditor
                  pickup={draft.packPickup}
                  slots={view.data.slots}
                  onChange={(packPickup?: PackPickupSettings) =>
                    setFromForm(withField(draft, 'packPickup', packPickup))
                  }
                  fallbackDeadline={draft.startTime ?? ''}
                />,
              ),
            },
            {
              key: 'json',
              label: t('race.tabs.json'),
              children: (
                <Space direction="vertical" style={{ width: '100%' }}>
                  <Typography.Paragraph type="secondary">{t('race.json.help')}</Typography.Paragraph>
                  <JsonEditor value={jsonText} onChange={onJson} label={t('race.json.label')} />
                  {jsonError && <Alert type="error" showIcon message={t('race.json.syntax', { error: jsonError })} />}
                  {checked.length > 0 && (
                    <Alert
                      type="warning"
                      showIcon
                      message={t('race.json.problems', { count: checked.length })}
                      description={<Problems problems={checked} />}
                      data-testid="race-json-problems"
                    />
                  )}
                </Space>
              ),
            },
          ]
        : [],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt with the draft; the setters are stable enough
    [draft, view.data, jsonText, jsonError, checked, t],
  );

  if (view.error && !view.data) return <Result status="warning" title={view.error} />;
  if (!draft || !view.data) return <Spin className="console-page-loading" />;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="race-page">
      <div>
        <div className="console-page-head" style={{ marginBottom: 4 }}>
          <h1>{t('race.title')}</h1>
          <Space wrap>
            {dirty && (
              <Tag color="orange" data-testid="race-dirty">
                {t('race.unsaved.tag')}
              </Tag>
            )}
            <Button
              type="primary"
              icon={<SaveOutlined aria-hidden />}
              onClick={() => void submit()}
              loading={save.busy}
              disabled={!dirty || blocked}
              data-testid="race-save"
            >
              {t('race.save')}
            </Button>
          </Space>
        </div>
        <Typography.Text>{t('race.intro', { race: raceId })}</Typography.Text>
      </div>
      {blocked && dirty && <Alert type="info" showIcon message={t('race.blocked')} />}
      {refused && (
        <Alert
          type="error"
          showIcon
          message={refused.message}
          description={<Problems problems={refused.problems} />}
          action={
            refused.code === 'raceChangedMeanwhile' && (
              <Button size="small" onClick={reloadFromServer} data-testid="race-reload">
                {t('race.reload')}
              </Button>
            )
          }
          data-testid="race-refused"
        />
      )}
      <Card size="small">
        <Tabs activeKey={tab} onChange={setTab} items={tabs} />
      </Card>
    </Space>
  );
}
