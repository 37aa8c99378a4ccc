/**
 * The site page (issue 33 §2; owner, service): one of the race's bound domains, its draft site configuration
 * (started from the published version, or a starter document for a new domain), with Save, Check, Publish
 * (refused on errors, listing them) and Discard. Tabs: the form editors (./editors, each a part of the document),
 * the JSON editor with the validator's problems as you type, the preview (desktop and phone, zh and en) and the
 * versions (compare, roll back). Leaving with unsaved changes asks first (lib/unsaved-changes.ts); the unsaved
 * text is also kept in the tab's session storage and restored on return. The server:
 * server/src/routes/admin/site.ts; the same actions on the command line: `site validate`, `site publish`.
 */
import { Alert, App, Button, Card, Empty, Select, Space, Tabs, Tag, Typography } from 'antd';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { SiteConfigReport } from '#contract/site-config/checks';
import type { SiteDomain, SiteDraftView, SitePublished } from '#contract/site-drafts';
import type { SiteDraft } from './editor-types';
import { api, ConsoleApiError } from '../../api/client';
import { JsonEditor, type JsonEditorHandle } from '../../lib/json-editor';
import { useUnsavedChanges } from '../../lib/unsaved-changes';
import { useAction } from '../../lib/use-action';
import { useCan, useConsole } from '../../store';
import { formatInstant, zoneOfRace } from '../../time';
import { useLoaded } from '../../use-loaded';
import { draftReport, problemsUnder, type DraftProblem } from './draft-report';
import { SITE_EDITORS } from './editors';
import { PreviewTab } from './preview-tab';
import { ProblemList } from './problem-list';
import { siteConfigCompletion } from './schema-completion';
import { VersionsTab } from './versions-tab';
import './site.css';

const shortMd5 = (md5: string) => md5.slice(0, 8);

function readStash(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null; // site data blocked: nothing kept
  }
}

function writeStash(key: string, text: string | null) {
  try {
    if (text === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, text);
  } catch {
    // site data blocked, or the text too large for the session's storage: the page itself still has it
  }
}

export default function SitePage() {
  const { t } = useTranslation();
  const { raceId = '' } = useParams();
  const canBind = useCan('race');
  const load = useCallback(
    () => api.get<{ domains: SiteDomain[] }>(`/races/${encodeURIComponent(raceId)}/site`),
    [raceId],
  );
  const { data, error, loading } = useLoaded(load);
  const [domain, setDomain] = useState<string>();
  // Unsaved text (kept in the session's stash besides): leaving the page or the domain asks first.
  const [unsaved, setUnsaved] = useState(false);
  const confirmLeave = useUnsavedChanges(unsaved);
  const domains = data?.domains ?? [];
  const current = domain && domains.some((d) => d.domain === domain) ? domain : domains[0]?.domain;

  const pick = (next: string) => confirmLeave(() => setDomain(next));

  return (
    <div className="site-page" data-testid="site-page">
      <div className="console-page-head">
        <h1>{t('site.title')}</h1>
      </div>
      <Typography.Paragraph className="site-intro">{t('site.intro')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} role="alert" className="site-alert" />}
      {!data && loading && <Card loading aria-busy />}
      {data && domains.length === 0 && (
        <Empty
          description={
            <Space direction="vertical">
              <span>{t('site.noDomains')}</span>
              {canBind ? <a href="#/races">{t('site.noDomainsOwner')}</a> : <span>{t('site.noDomainsAsk')}</span>}
            </Space>
          }
          data-testid="site-no-domains"
        />
      )}
      {current && (
        <>
          <Space className="site-domain" wrap>
            <label htmlFor="site-domain-select">{t('site.domain')}</label>
            <Select
              id="site-domain-select"
              aria-label={t('site.pickDomain')}
              value={current}
              onChange={pick}
              options={domains.map((d) => ({ value: d.domain, label: d.domain }))}
              style={{ minWidth: 260 }}
              data-testid="site-domain"
            />
          </Space>
          <DraftEditor key={current} raceId={raceId} domain={current} onUnsaved={setUnsaved} />
        </>
      )}
    </div>
  );
}

function DraftEditor({
  raceId,
  domain,
  onUnsaved,
}: {
  raceId: string;
  domain: string;
  onUnsaved: (unsaved: boolean) => void;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const races = useConsole((s) => s.races);
  const zone = zoneOfRace(raceId, races);
  const base = `/races/${encodeURIComponent(raceId)}/site`;
  const load = useCallback(() => api.get<SiteDraftView>(`${base}/draft`, { domain }), [base, domain]);
  const loaded = useLoaded(load);
  // What the page changed since the draft was loaded: the server's latest view and the text being edited.
  const [edit, setEdit] = useState<{ view: SiteDraftView; text: string }>();
  // Unsaved text kept in this tab's session storage: leaving the page (or a reload) loses nothing.
  const stashKey = `race-site-console:site-draft:${raceId}:${domain}`;
  const [stash] = useState(() => readStash(stashKey));
  const view = edit?.view ?? loaded.data;
  const text = edit?.text ?? (view ? (stash ?? view.text) : undefined);
  const setView = (next: SiteDraftView) => setEdit((last) => ({ view: next, text: last?.text ?? next.text }));
  const setText = (next: string | ((now: string) => string)) =>
    setEdit((last) => {
      const base = last ?? (loaded.data ? { view: loaded.data, text: stash ?? loaded.data.text } : undefined);
      if (!base) return last;
      return { view: base.view, text: typeof next === 'function' ? next(base.text) : next };
    });
  const [checked, setServerReport] = useState<{ report: SiteConfigReport; refused: boolean; text: string }>();
  // The forms first (the parts organisers change most), the JSON when there are none.
  const [tab, setTab] = useState(SITE_EDITORS[0] ? `editor-${SITE_EDITORS[0].key}` : 'json');
  const [versionsKey, setVersionsKey] = useState(0);
  const [previewKey, setPreviewKey] = useState(0);
  const editor = useRef<JsonEditorHandle>(null);
  const action = useAction();

  const current = text ?? '';
  const dirty = view !== undefined && text !== undefined && (text !== view.text || view.source !== 'draft');
  const unsaved = view !== undefined && text !== undefined && text !== view.text;
  useEffect(() => onUnsaved(unsaved), [unsaved, onUnsaved]);
  useEffect(() => writeStash(stashKey, unsaved ? (text ?? null) : null), [stashKey, unsaved, text]);

  const deferred = useDeferredValue(current);
  const report = useMemo(() => draftReport(deferred), [deferred]);
  // The form editors read the text as it is now, not the deferred one the checks run on: each change of a form
  // starts from the document the one before it made (from a deferred document a quick second change, the next
  // key typed, undid the first).
  const formDraft = useMemo(() => parsedObject(current), [current]);

  if (!view || text === undefined) {
    return loaded.error ? (
      <Alert type="error" showIcon message={loaded.error} role="alert" />
    ) : (
      <Card loading aria-busy aria-label={t('site.loading')} />
    );
  }

  const save = async (): Promise<SiteDraftView | undefined> => {
    let saved: SiteDraftView | undefined;
    const done = await action.run(async () => {
      saved = await api.post<SiteDraftView>(`${base}/draft`, { domain, text: current, baseMd5: view.baseMd5 });
    });
    if (done && saved) {
      const fresh = saved;
      setEdit((last) => ({ view: fresh, text: last && last.text !== current ? last.text : fresh.text }));
      setServerReport(undefined);
      void message.success(t('site.saved'));
      setPreviewKey((k) => k + 1);
    }
    return saved;
  };

  const check = () =>
    action.run(async () => {
      const checked = await api.post<SiteConfigReport>(`${base}/check`, { text: current });
      setServerReport({ report: checked, refused: false, text: current });
      if (checked.errors.length === 0 && checked.warnings.length === 0) void message.success(t('site.checkedOk'));
      else
        void message.info(
          t('site.checkedProblems', { errors: checked.errors.length, warnings: checked.warnings.length }),
        );
    });

  const publish = () => {
    modal.confirm({
      title: t('site.publishConfirmTitle', { domain }),
      content: (
        <>
          <p>{t('site.publishConfirmText')}</p>
          {dirty && <p>{t('site.publishUnsaved')}</p>}
        </>
      ),
      okText: t('site.actions.publish'),
      cancelText: t('site.cancel'),
      onOk: async () => {
        if (dirty && !(await save())) return;
        await action.run(async () => {
          try {
            const done = await api.post<SitePublished>(`${base}/publish`, { domain });
            setEdit({ view: done.draft, text: done.draft.text });
            setServerReport(undefined);
            setVersionsKey((k) => k + 1);
            void message.success(t('site.published', { md5: shortMd5(done.published.md5) }));
          } catch (failure) {
            const refusal =
              failure instanceof ConsoleApiError ? (failure.data as SiteConfigReport | undefined) : undefined;
            if (refusal && Array.isArray(refusal.errors))
              setServerReport({ report: refusal, refused: true, text: current });
            throw failure;
          }
        });
      },
    });
  };

  const discard = () => {
    modal.confirm({
      title: t('site.discardConfirmTitle', { domain }),
      content: t('site.discardConfirmText'),
      okText: t('site.actions.discard'),
      okButtonProps: { danger: true },
      cancelText: t('site.cancel'),
      onOk: () =>
        action.run(async () => {
          const fresh = await api.post<SiteDraftView>(`${base}/discard`, { domain });
          setEdit({ view: fresh, text: fresh.text });
          setServerReport(undefined);
          setPreviewKey((k) => k + 1);
          void message.success(t('site.discarded'));
        }),
    });
  };

  const reveal = (path: string) => editor.current?.reveal(path);
  const jump = (path: string) => {
    setTab('json');
    // After the JSON tab is shown (it stays mounted once shown).
    window.setTimeout(() => editor.current?.reveal(path), 0);
  };

  const origin =
    view.source === 'starter'
      ? t('site.state.fromStarter')
      : view.source === 'published'
        ? t('site.state.fromPublished', { md5: shortMd5(view.baseMd5 ?? '') })
        : view.baseMd5
          ? t('site.state.fromVersion', { md5: shortMd5(view.baseMd5) })
          : t('site.state.fromStarter');
  const stale = view.source === 'draft' && view.published && view.baseMd5 !== view.published.md5;

  const editorTabs = SITE_EDITORS.map((siteEditor) => {
    const Editor = siteEditor.Component;
    return {
      key: `editor-${siteEditor.key}`,
      label: t(siteEditor.labelKey),
      disabled: !formDraft,
      children: formDraft ? (
        <Editor
          raceId={raceId}
          domain={domain}
          draft={formDraft}
          onChange={(next) => setText(`${JSON.stringify(next, null, 2)}\n`)}
          problems={problemsUnder(report.problems, siteEditor.paths)}
        />
      ) : null,
    };
  });

  // The server's answer (Check, or a refused publication) stands until the text changes.
  const serverReport = checked && checked.text === current ? checked : undefined;
  const refusedList: DraftProblem[] | undefined = serverReport
    ? [
        ...serverReport.report.errors.map((p) => ({ ...p, severity: 'error' as const })),
        ...serverReport.report.warnings.map((p) => ({ ...p, severity: 'warning' as const })),
      ]
    : undefined;

  return (
    <div className="site-draft">
      <Card size="small" title={t('site.state.title')} className="site-state" data-testid="site-state">
        <Space direction="vertical" size={4}>
          <span data-testid="site-origin">{origin}</span>
          {view.savedAt !== null && (
            <span>
              {view.savedBy
                ? t('site.state.savedBy', { by: view.savedBy.name, at: formatInstant(view.savedAt, zone) })
                : t('site.state.savedByCli', { at: formatInstant(view.savedAt, zone) })}
            </span>
          )}
          <Space wrap size={[8, 4]}>
            {unsaved ? (
              <Tag color="orange" data-testid="site-unsaved">
                {t('site.state.unsaved')}
              </Tag>
            ) : (
              view.source === 'draft' && <Tag color="green">{t('site.state.saved')}</Tag>
            )}
            {view.published ? (
              <Tag data-testid="site-published-state">
                {view.matchesPublished && !unsaved
                  ? t('site.state.matchesPublished')
                  : t('site.state.differsFromPublished')}
              </Tag>
            ) : (
              <Tag>{t('site.state.notPublished')}</Tag>
            )}
          </Space>
          {stale && (
            <Alert type="warning" showIcon message={t('site.state.stale', { md5: shortMd5(view.published!.md5) })} />
          )}
        </Space>
        <Space wrap className="site-actions" style={{ display: 'flex' }}>
          <Button type="primary" onClick={() => void save()} loading={action.busy} data-testid="site-save">
            {t('site.actions.save')}
          </Button>
          <Button onClick={() => void check()} disabled={action.busy} data-testid="site-check">
            {t('site.actions.check')}
          </Button>
          <Button onClick={publish} disabled={action.busy} data-testid="site-publish">
            {t('site.actions.publish')}
          </Button>
          <Button danger onClick={discard} disabled={action.busy || view.source !== 'draft'} data-testid="site-discard">
            {t('site.actions.discard')}
          </Button>
        </Space>
        {action.error && <Alert type="error" showIcon message={action.error} role="alert" className="site-alert" />}
        {serverReport?.refused && refusedList && (
          <div className="site-refused" data-testid="site-refused">
            <Typography.Text strong>{t('site.publishRefused')}</Typography.Text>
            <ProblemList problems={refusedList} onJump={jump} />
          </div>
        )}
      </Card>
      {stash !== null && edit === undefined && stash !== view.text && (
        <Alert type="info" showIcon message={t('site.restored')} className="site-alert" data-testid="site-restored" />
      )}
      {!formDraft && SITE_EDITORS.length > 0 && (
        <Alert type="info" showIcon message={t('site.editorsNeedJson')} className="site-alert" />
      )}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyInactiveTabPane={false}
        items={[
          ...editorTabs,
          {
            key: 'json',
            label: t('site.tabs.json'),
            children: (
              <div className="site-json">
                <div className="site-json__editor">
                  <Typography.Paragraph id="site-json-hint" className="site-hint">
                    {t('site.json.hint')}
                  </Typography.Paragraph>
                  <JsonEditor
                    ref={editor}
                    value={current}
                    onChange={setText}
                    label={t('site.json.label')}
                    describedBy="site-json-hint"
                    problems={report.problems}
                    completion={siteConfigCompletion}
                    className="site-json-editor"
                    contentTestId="site-json-editor"
                  />
                </div>
                <aside className="site-json__problems" aria-label={t('site.problems.title')}>
                  <ProblemList
                    problems={serverReport && !serverReport.refused ? refusedList! : report.problems}
                    onJump={reveal}
                  />
                </aside>
              </div>
            ),
          },
          {
            key: 'preview',
            label: t('site.tabs.preview'),
            children: (
              <PreviewTab
                domain={domain}
                unsaved={dirty}
                onSave={save}
                busy={action.busy}
                reloadKey={previewKey}
                problems={view.report}
                onJump={jump}
              />
            ),
          },
          {
            key: 'versions',
            label: t('site.tabs.versions'),
            children: (
              <VersionsTab
                key={versionsKey}
                raceId={raceId}
                domain={domain}
                zone={zone}
                onRolledBack={() => {
                  setVersionsKey((k) => k + 1);
                  setPreviewKey((k) => k + 1);
                  // The draft is unchanged; what is published now is another version.
                  void api.get<SiteDraftView>(`${base}/draft`, { domain }).then(setView, () => undefined);
                }}
              />
            ),
          },
        ]}
      />
    </div>
  );
}

/** The text's document when it parses to an object, else undefined. */
function parsedObject(text: string): SiteDraft | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as SiteDraft) : undefined;
  } catch {
    return undefined;
  }
}
