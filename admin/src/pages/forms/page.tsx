/**
 * The registration forms (issue 33 §3; 'site'): the race's entry channels, each with its published version and
 * its draft; for the chosen channel the form as a list of fields (fields-list.tsx) and as JSON (json-editor.tsx),
 * the problems of the form checks (the same as `site form-publish`, each by JSON path) as you type, the preview
 * as the runner will see it (desktop and phone, zh or en: the SPA's `?preview=form`, which shows the saved
 * draft), Save draft, Publish (after a confirmation; refused on problems) and the versions published with when
 * and who. Leaving with unsaved changes asks first.
 */
import { Alert, App, Button, Card, Empty, Segmented, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import {
  FORM_EDITOR_PATHS,
  type FormActor,
  type FormChannelsAnswer,
  type FormChannelSummary,
  type FormDraftAnswer,
  type FormProblemsData,
  type FormPublishAnswer,
  type FormVersionsAnswer,
} from '#contract/form-editor';
import { previewUrl, type PreviewLanguage } from '#contract/preview';
import type { ConfigProblem } from '#contract/site-config/document-limits';
import { api, ConsoleApiError } from '../../api/client';
import { useLeaveGuard } from '../../lib/leave-guard';
import { useAction } from '../../lib/use-action';
import { useConsole } from '../../store';
import { formatInstant, zoneOfRace } from '../../time';
import { useLoaded } from '../../use-loaded';
import { documentOf, documentText, type EditedDocument } from './field-model';
import { FieldsList } from './fields-list';
import { JsonEditor } from './json-editor';
import './forms.css';

/** The checks run this long after the last keystroke. */
const CHECK_DELAY_MS = 400;

export default function FormsPage() {
  const { t } = useTranslation();
  const { raceId = '' } = useParams();
  const load = useCallback(() => api.get<FormChannelsAnswer>(FORM_EDITOR_PATHS.channels(raceId)), [raceId]);
  const { data, error, reload, loading } = useLoaded(load);
  const [chosen, setChosen] = useState<string>();
  const [dirty, setDirty] = useState(false);
  const area = useRef<HTMLDivElement>(null);
  useLeaveGuard(dirty, t('forms.leave'), area);
  const channels = data?.raceId === raceId ? data.channels : [];
  const channel = channels.find((c) => c.channel === chosen) ?? channels[0];

  const choose = (next: string) => {
    if (next === channel?.channel) return;
    if (dirty && !window.confirm(t('forms.leave'))) return;
    setDirty(false);
    setChosen(next);
  };

  return (
    <div className="forms-page" data-testid="forms-page" ref={area}>
      <div className="console-page-head">
        <h1>{t('forms.title')}</h1>
      </div>
      <Typography.Paragraph className="forms-intro">{t('forms.intro')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon title={error} role="alert" />}
      {!data && !error && <Card loading={loading} aria-busy={loading} />}
      {data && channels.length === 0 && <Empty description={t('forms.noChannels')} />}
      {channel && (
        <>
          <div className="forms-channels" role="group" aria-label={t('forms.channels')}>
            {channels.map((c) => (
              <ChannelCard key={c.channel} summary={c} active={c.channel === channel.channel} onChoose={choose} />
            ))}
          </div>
          <ChannelEditor
            key={`${raceId}/${channel.channel}`}
            raceId={raceId}
            summary={channel}
            onDirty={setDirty}
            onChanged={reload}
          />
        </>
      )}
    </div>
  );
}

function useWho() {
  const { t } = useTranslation();
  return (actor: FormActor) => (actor ? actor.name : t('forms.cli'));
}

function ChannelCard({
  summary,
  active,
  onChoose,
}: {
  summary: FormChannelSummary;
  active: boolean;
  onChoose: (channel: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`forms-channel${active ? ' forms-channel--active' : ''}`}
      aria-pressed={active}
      onClick={() => onChoose(summary.channel)}
      data-testid={`forms-channel-${summary.channel}`}
    >
      <strong>{t(`forms.channelNames.${summary.channel}`, { defaultValue: summary.channel })}</strong>
      <code>{summary.channel}</code>
      <span>
        {summary.published
          ? t('forms.publishedVersion', { version: summary.published.version })
          : t('forms.notPublished')}
      </span>
      {summary.draft?.differs ? (
        <Tag color={summary.draft.problems > 0 ? 'red' : 'gold'}>
          {summary.draft.problems > 0
            ? t('forms.draftProblems', { count: summary.draft.problems })
            : t('forms.draftSaved')}
        </Tag>
      ) : null}
      {!summary.inRace && <span className="forms-muted">{t('forms.notInRace')}</span>}
    </button>
  );
}

/** A channel: its draft loaded, then edited (DraftEditor). */
function ChannelEditor(props: {
  raceId: string;
  summary: FormChannelSummary;
  onDirty: (dirty: boolean) => void;
  onChanged: () => void;
}) {
  const { raceId, summary } = props;
  const load = useCallback(
    () => api.get<FormDraftAnswer>(FORM_EDITOR_PATHS.draft(raceId, summary.channel)),
    [raceId, summary.channel],
  );
  const { data, error } = useLoaded(load);
  if (error) return <Alert type="error" showIcon role="alert" title={error} />;
  if (!data) return <Card loading aria-busy />;
  return <DraftEditor {...props} loaded={data} />;
}

function DraftEditor({
  raceId,
  summary,
  loaded,
  onDirty,
  onChanged,
}: {
  raceId: string;
  summary: FormChannelSummary;
  loaded: FormDraftAnswer;
  onDirty: (dirty: boolean) => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const races = useConsole((s) => s.races);
  const zone = zoneOfRace(raceId, races);
  const who = useWho();
  const channel = summary.channel;
  const [answer, setAnswer] = useState<FormDraftAnswer>(loaded);
  const [text, setText] = useState(loaded.text);
  const [baseline, setBaseline] = useState(loaded.text);
  // The problems of the text as last checked (as you type, or a refused publication).
  const [checked, setChecked] = useState<{ text: string; problems: ConfigProblem[] }>();
  const [refusal, setRefusal] = useState('');
  const [tab, setTab] = useState('fields');
  const [editing, setEditing] = useState<number | null>(null);
  const [previewKey, setPreviewKey] = useState(0);
  const [versionsKey, setVersionsKey] = useState(0);
  const save = useAction();
  const publish = useAction();
  const dirty = text !== baseline;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const take = (next: FormDraftAnswer) => {
    setAnswer(next);
    setText(next.text);
    setBaseline(next.text);
    setChecked(undefined);
  };

  // The problems shown: those of this very text when known, else the last ones until its check answers.
  const problems =
    checked?.text === text
      ? checked.problems
      : text === answer.text
        ? answer.problems
        : (checked?.problems ?? answer.problems);
  const checkedText = checked?.text;

  // The checks of form-publish, a moment after the last change.
  useEffect(() => {
    if (text === answer.text || text === checkedText) return;
    let live = true;
    const timer = window.setTimeout(() => {
      api.post<FormDraftAnswer>(FORM_EDITOR_PATHS.check(raceId, channel), { text }).then(
        (answered) => live && setChecked({ text, problems: answered.problems }),
        () => undefined, // the next change checks again; saving and publishing check anyway
      );
    }, CHECK_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [text, checkedText, answer, raceId, channel]);

  const doc = useMemo(() => documentOf(text), [text]);
  const change = (next: EditedDocument) => {
    setRefusal('');
    setText(documentText(next));
  };

  const saveDraft = () =>
    save.run(async () => {
      const saved = await api.post<FormDraftAnswer>(FORM_EDITOR_PATHS.draft(raceId, channel), { text });
      take(saved);
      setPreviewKey((k) => k + 1);
      void message.success(t('forms.saved'));
      onChanged();
    });

  const confirmPublish = () =>
    modal.confirm({
      title: t('forms.publishTitle', { channel }),
      content: t('forms.publishText', { version: (answer?.publishedVersion ?? 0) + 1 }),
      okText: t('forms.publish'),
      cancelText: t('forms.cancel'),
      onOk: () =>
        publish.run(async () => {
          setRefusal('');
          try {
            const done = await api.post<FormPublishAnswer>(FORM_EDITOR_PATHS.publish(raceId, channel), { text });
            void message.success(
              done.unchanged
                ? t('forms.unchanged', { version: done.version })
                : t('forms.published', { version: done.version }),
            );
            const fresh = await api.get<FormDraftAnswer>(FORM_EDITOR_PATHS.draft(raceId, channel));
            take(fresh);
            setVersionsKey((k) => k + 1);
            setPreviewKey((k) => k + 1);
            onChanged();
          } catch (failure) {
            if (failure instanceof ConsoleApiError && failure.msgCode === 'formProblems') {
              setChecked({ text, problems: (failure.data as FormProblemsData).problems });
              setRefusal(failure.message);
              return;
            }
            throw failure;
          }
        }),
    });

  const status = (
    <Space wrap className="forms-status" data-testid="forms-status">
      <span>
        {summary.published
          ? t('forms.publishedAt', {
              version: summary.published.version,
              at: formatInstant(summary.published.publishedAt, zone),
              who: who(summary.published.publishedBy),
            })
          : t('forms.notPublished')}
      </span>
      <span>
        {answer.source === 'draft' && answer.savedAt !== null
          ? t('forms.draftAt', { at: formatInstant(answer.savedAt, zone), who: who(answer.savedBy) })
          : answer.source === 'starter'
            ? t('forms.fromStarter')
            : t('forms.fromPublished')}
      </span>
      {dirty && <Tag color="gold">{t('forms.unsaved')}</Tag>}
    </Space>
  );

  const problemPanel =
    problems.length > 0 ? (
      <Alert
        type="error"
        showIcon
        role="alert"
        className="forms-problems"
        data-testid="forms-problems"
        title={refusal || t('forms.problems', { count: problems.length })}
        description={
          <ul className="forms-problem-list">
            {problems.map((p, i) => {
              const field = /^\$\.fields\[(\d+)\]/.exec(p.path);
              return (
                <li key={i}>
                  {field && doc ? (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => {
                        setTab('fields');
                        setEditing(Number(field[1]));
                      }}
                    >
                      <code>{p.path}</code>
                    </Button>
                  ) : (
                    <code>{p.path}</code>
                  )}{' '}
                  {p.message}
                </li>
              );
            })}
          </ul>
        }
      />
    ) : (
      <Alert type="success" showIcon title={t('forms.noProblems')} data-testid="forms-no-problems" />
    );

  return (
    <section className="forms-editor" aria-label={t('forms.editorLabel', { channel })}>
      {status}
      <div className="forms-actions">
        <Button onClick={() => void saveDraft()} loading={save.busy} disabled={!dirty} data-testid="forms-save">
          {t('forms.saveDraft')}
        </Button>
        <Button
          type="primary"
          onClick={confirmPublish}
          loading={publish.busy}
          disabled={answer.samePublished && !dirty}
          data-testid="forms-publish"
        >
          {t('forms.publish')}
        </Button>
      </div>
      {(save.error || publish.error) && (
        <Alert type="error" showIcon role="alert" title={save.error || publish.error} />
      )}
      {problemPanel}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'fields',
            label: t('forms.tabs.fields'),
            children: doc ? (
              <FieldsList doc={doc} problems={problems} onChange={change} editing={editing} setEditing={setEditing} />
            ) : (
              <Alert type="warning" showIcon title={t('forms.notJson')} />
            ),
          },
          {
            key: 'json',
            label: t('forms.tabs.json'),
            children: (
              <JsonEditor
                text={text}
                problems={problems}
                onChange={(next) => {
                  setRefusal('');
                  setText(next);
                }}
                label={t('forms.jsonLabel')}
              />
            ),
          },
          {
            key: 'preview',
            label: t('forms.tabs.preview'),
            children: (
              <Preview
                raceId={raceId}
                channel={channel}
                dirty={dirty}
                reloadKey={previewKey}
                onSave={() => void saveDraft()}
                onRefresh={() => setPreviewKey((k) => k + 1)}
              />
            ),
          },
          {
            key: 'versions',
            label: t('forms.tabs.versions'),
            children: <Versions raceId={raceId} channel={channel} zone={zone} reloadKey={versionsKey} />,
          },
        ]}
      />
    </section>
  );
}

function Preview({
  raceId,
  channel,
  dirty,
  reloadKey,
  onSave,
  onRefresh,
}: {
  raceId: string;
  channel: string;
  dirty: boolean;
  reloadKey: number;
  onSave: () => void;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const consoleLanguage = useConsole((s) => s.language);
  const [language, setLanguage] = useState<PreviewLanguage>(consoleLanguage);
  const request = { kind: 'form' as const, raceId, channel, language };
  return (
    <div className="forms-preview" data-testid="forms-preview">
      <Space wrap className="forms-preview__bar">
        <Segmented<PreviewLanguage>
          aria-label={t('forms.previewLanguage')}
          value={language}
          onChange={setLanguage}
          options={[
            { value: 'zh', label: '中文' },
            { value: 'en', label: 'English' },
          ]}
        />
        <Button onClick={onRefresh} data-testid="forms-preview-refresh">
          {t('forms.previewRefresh')}
        </Button>
        <span className="forms-muted">{t('forms.previewNote')}</span>
      </Space>
      {dirty && (
        <Alert
          type="info"
          showIcon
          title={t('forms.previewUnsaved')}
          action={
            <Button size="small" onClick={onSave}>
              {t('forms.saveDraft')}
            </Button>
          }
        />
      )}
      <div className="forms-preview__frames">
        <figure className="forms-preview__desktop">
          <figcaption>{t('forms.previewDesktop')}</figcaption>
          <ScaledFrame
            key={`d-${reloadKey}-${language}`}
            title={t('forms.previewDesktopTitle', { channel })}
            src={previewUrl(request, { phone: false })}
            testId="forms-preview-desktop"
          />
        </figure>
        <figure className="forms-preview__phone">
          <figcaption>{t('forms.previewPhone')}</figcaption>
          <iframe
            key={`p-${reloadKey}-${language}`}
            title={t('forms.previewPhoneTitle', { channel })}
            src={previewUrl(request, { phone: true })}
            data-testid="forms-preview-phone"
          />
        </figure>
      </div>
    </div>
  );
}

/** The desktop site as a 1280 px wide window, drawn smaller to fit the space it has. */
const DESKTOP_WIDTH = 1280;
const DESKTOP_HEIGHT = 900;

function ScaledFrame({ title, src, testId }: { title: string; src: string; testId: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(0.5);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setScale(Math.min(1, entry.contentRect.width / DESKTOP_WIDTH));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} className="forms-preview__scaled" style={{ height: DESKTOP_HEIGHT * scale }}>
      <iframe
        title={title}
        src={src}
        data-testid={testId}
        style={{ width: DESKTOP_WIDTH, height: DESKTOP_HEIGHT, transform: `scale(${scale})` }}
      />
    </div>
  );
}

function Versions({
  raceId,
  channel,
  zone,
  reloadKey,
}: {
  raceId: string;
  channel: string;
  zone: string;
  reloadKey: number;
}) {
  const { t } = useTranslation();
  const who = useWho();
  const load = useCallback(
    () => api.get<FormVersionsAnswer>(FORM_EDITOR_PATHS.versions(raceId, channel)),
    // reloadKey: a publication lists again
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [raceId, channel, reloadKey],
  );
  const { data, error, loading } = useLoaded(load);
  type Version = FormVersionsAnswer['versions'][number];
  return (
    <>
      {error && <Alert type="error" showIcon role="alert" title={error} />}
      <Table<Version>
        rowKey="version"
        loading={loading}
        dataSource={data?.versions ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t('forms.noVersions') }}
        columns={[
          { key: 'version', title: t('forms.versions.version'), render: (_, v) => v.version },
          {
            key: 'at',
            title: t('forms.versions.at'),
            render: (_, v) => formatInstant(v.publishedAt, zone),
          },
          { key: 'who', title: t('forms.versions.who'), render: (_, v) => who(v.publishedBy) },
          { key: 'md5', title: 'MD5', render: (_, v) => <code>{v.md5.slice(0, 12)}</code> },
        ]}
        data-testid="forms-versions"
      />
    </>
  );
}
