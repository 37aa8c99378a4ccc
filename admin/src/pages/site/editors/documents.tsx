/**
 * The information pages and news editor (issue 33 §2): the draft's contentGroups as groups → sub-groups →
 * documents. Groups and sub-groups are added, renamed (with the menu items that point at them, if the organiser
 * wishes), removed after a confirmation and reordered; each document has its titles, summaries, date,
 * recommended mark, icon, and either an external link or its content in zh and en, written in the rich-text
 * editor (which gives back only what the site's sanitiser keeps). Every other key of the draft is kept as it was.
 * What a document page and a news page show is explained as docs/site-config.md says.
 */
import ArrowDownOutlined from '@ant-design/icons/ArrowDownOutlined';
import ArrowUpOutlined from '@ant-design/icons/ArrowUpOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import EditOutlined from '@ant-design/icons/EditOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Empty,
  Form,
  Input,
  List,
  Modal,
  Radio,
  Row,
  Space,
  Switch,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatJsonPath } from '#contract/site-config/document-limits';
import { AssetPicker } from '../../../lib/asset-picker';
import { RichTextEditor } from '../../../lib/rich-text-editor';
import { useConsole } from '../../../store';
import { zoneOfRace } from '../../../time';
import type { SiteDraft, SiteEditor, SiteEditorProps } from '../editor-types';
import './documents.css';

type Doc = Record<string, unknown>;
type Groups = Record<string, Record<string, Doc[]>>;
type Problem = SiteEditorProps['problems'][number];

const NAME = /^[A-Za-z][\w-]*$/;
/** The fields the document form shows its problems beside; the document's other problems are listed above it. */
const FORM_FIELDS = [
  'id',
  'title',
  'titleEn',
  'summary',
  'summaryEn',
  'time',
  'recommend',
  'icon',
  'jumpUrl',
  'content',
  'contentEn',
];
/** The two news lists the home page's news block reads (src/features/home). */
const HOME_NEWS = new Set(['newsNotice.raceNews', 'newsNotice.activityBulletin']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The draft's contentGroups as the editor reads them (a part of another shape is shown as empty). */
export function readGroups(draft: SiteDraft): Groups {
  const raw = draft.contentGroups;
  if (!isObject(raw)) return {};
  const out: Groups = {};
  for (const [group, subs] of Object.entries(raw)) {
    out[group] = {};
    if (!isObject(subs)) continue;
    for (const [sub, docs] of Object.entries(subs)) {
      out[group][sub] = Array.isArray(docs) ? docs.filter(isObject) : [];
    }
  }
  return out;
}

/** The object with `key` moved by `delta` places (object keys keep their order in JSON). */
function moveKey<T>(object: Record<string, T>, key: string, delta: number): Record<string, T> {
  const keys = Object.keys(object);
  const at = keys.indexOf(key);
  const to = at + delta;
  if (at < 0 || to < 0 || to >= keys.length) return object;
  keys.splice(at, 1);
  keys.splice(to, 0, key);
  return Object.fromEntries(keys.map((k) => [k, object[k] as T]));
}

/** The object with `from` renamed to `to`, in the same place. */
function renameKey<T>(object: Record<string, T>, from: string, to: string): Record<string, T> {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k === from ? to : k, v]));
}

function moveItem<T>(list: readonly T[], at: number, delta: number): T[] {
  const to = at + delta;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(at, 1);
  next.splice(to, 0, item as T);
  return next;
}

interface MenuUse {
  title: string;
  path: string;
  component: string;
  dataPath: string;
}

/** Every route of the menu (menuGroups, remoteAsyncRoutes) that points at a list, with its address on the site. */
export function menuUses(draft: SiteDraft): MenuUse[] {
  const out: MenuUse[] = [];
  const walk = (items: unknown, parent: string) => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (!isObject(item)) continue;
      const own = typeof item.path === 'string' ? item.path : '';
      const path = own.startsWith('/') ? own : `${parent.replace(/\/$/, '')}/${own}`;
      const meta = isObject(item.meta) ? item.meta : {};
      if (typeof meta.dataPath === 'string') {
        out.push({
          title: typeof meta.title === 'string' ? meta.title : path,
          path,
          component: typeof item.component === 'string' ? item.component : '',
          dataPath: meta.dataPath,
        });
      }
      walk(item.children, path);
    }
  };
  walk(draft.menuGroups, '');
  walk(draft.remoteAsyncRoutes, '');
  return out;
}

/** The menu with every dataPath `from` (a group "g" or a list "g.s") renamed to `to`; untouched parts kept. */
function renameInMenu(items: unknown, from: string, to: string): unknown {
  if (!Array.isArray(items)) return items;
  let changed = false;
  const next = items.map((item) => {
    if (!isObject(item)) return item;
    let out = item;
    const meta = isObject(item.meta) ? item.meta : undefined;
    const dataPath = meta && typeof meta.dataPath === 'string' ? meta.dataPath : undefined;
    if (meta && dataPath && (dataPath === from || dataPath.startsWith(`${from}.`))) {
      out = { ...out, meta: { ...meta, dataPath: `${to}${dataPath.slice(from.length)}` } };
    }
    const children = renameInMenu(item.children, from, to);
    if (children !== item.children) out = { ...out, children };
    if (out !== item) changed = true;
    return out;
  });
  return changed ? next : items;
}

/** A fresh document id: unique in its list. */
function newId(docs: readonly Doc[]): string {
  const taken = new Set(docs.map((doc) => String(doc.id)));
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(4));
    const id = `doc-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    if (!taken.has(id)) return id;
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The document with `field` set; an optional text left empty is taken out rather than stored as ''. */
function withField(doc: Doc, field: string, value: unknown): Doc {
  const next = { ...doc };
  if (value === undefined || (value === '' && field !== 'title')) delete next[field];
  else next[field] = value;
  return next;
}

interface Selection {
  group: string;
  sub: string;
  index: number;
}

type NameDialog =
  | { kind: 'addGroup' }
  | { kind: 'addSub'; group: string }
  | { kind: 'renameGroup'; group: string }
  | { kind: 'renameSub'; group: string; sub: string };

/**
 * The draft as this editor last changed it, until the page hands that version back. The page may render the
 * editor again with the draft it had before (it parses the JSON text it keeps in the background): an edit made
 * in between would be applied to that older draft and undo the one before it (a document just added, the letter
 * just typed). A draft the page hands over that is none of this editor's recent versions (the JSON tab, Discard)
 * is taken as it is.
 */
export function useLatestDraft(draft: SiteDraft, onChange: (next: SiteDraft) => void) {
  const [pending, setPending] = useState<{ next: SiteDraft; history: readonly string[] } | null>(null);
  const seen = useMemo(() => (pending ? JSON.stringify(draft) : ''), [draft, pending]);
  const last = pending?.history[pending.history.length - 1];
  const behind = pending !== null && seen !== last && pending.history.includes(seen);
  if (pending && !behind) setPending(null);
  const current = pending && behind ? pending.next : draft;
  const change = (next: SiteDraft) => {
    const json = JSON.stringify(next);
    setPending((before) => ({
      next,
      history: [...(before ? before.history.slice(-50) : [JSON.stringify(current)]), json],
    }));
    onChange(next);
  };
  return [current, change] as const;
}

export function DocumentsEditor({ raceId, draft: given, onChange: hand, problems }: SiteEditorProps) {
  const [draft, onChange] = useLatestDraft(given, hand);
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const races = useConsole((state) => state.races);
  const zone = zoneOfRace(raceId, races);
  const groups = useMemo(() => readGroups(draft), [draft]);
  const uses = useMemo(() => menuUses(draft), [draft]);
  const [chosen, setChosen] = useState<Selection | null>(null);
  const [nameDialog, setNameDialog] = useState<NameDialog | null>(null);

  // The selection, where it still exists in the draft.
  const groupNames = Object.keys(groups);
  const firstGroup = groupNames[0];
  const fallbackSub = firstGroup ? Object.keys(groups[firstGroup] ?? {})[0] : undefined;
  const selection: Selection | null =
    chosen && groups[chosen.group]?.[chosen.sub]
      ? chosen
      : firstGroup && fallbackSub
        ? { group: firstGroup, sub: fallbackSub, index: 0 }
        : null;
  const docs = selection ? (groups[selection.group]?.[selection.sub] ?? []) : [];
  const docIndex = selection && selection.index < docs.length ? selection.index : docs.length > 0 ? 0 : -1;

  const write = (next: Groups, extra: Partial<SiteDraft> = {}) => onChange({ ...draft, ...extra, contentGroups: next });
  const writeDocs = (group: string, sub: string, list: Doc[]) =>
    write({ ...groups, [group]: { ...groups[group], [sub]: list } });

  const usesOf = (dataPath: string) => uses.filter((use) => use.dataPath === dataPath);
  const usesUnder = (group: string) => uses.filter((use) => use.dataPath.startsWith(`${group}.`));
  const countDocs = (group: string) => Object.values(groups[group] ?? {}).reduce((sum, list) => sum + list.length, 0);

  const problemsAt = (path: readonly PropertyKey[], exact = true): Problem[] => {
    const prefix = formatJsonPath(['contentGroups', ...path]);
    return problems.filter((p) =>
      exact
        ? p.path === prefix
        : p.path === prefix || p.path.startsWith(`${prefix}.`) || p.path.startsWith(`${prefix}[`),
    );
  };

  const confirmRemove = (content: ReactNode, onOk: () => void) =>
    modal.confirm({
      title: content,
      okText: t('siteDocuments.remove.ok'),
      okButtonProps: { danger: true },
      cancelText: t('siteDocuments.remove.cancel'),
      onOk,
    });

  const removeGroup = (group: string) => {
    const menu = usesUnder(group).length;
    confirmRemove(
      <>
        {t('siteDocuments.remove.group', { name: group, count: countDocs(group) })}
        {menu > 0 ? (
          <Alert type="warning" showIcon message={t('siteDocuments.remove.menuUses', { count: menu })} />
        ) : null}
      </>,
      () => {
        const next = { ...groups };
        delete next[group];
        write(next);
      },
    );
  };

  const removeSub = (group: string, sub: string) => {
    const menu = usesOf(`${group}.${sub}`).length;
    confirmRemove(
      <>
        {t('siteDocuments.remove.sub', { name: sub, count: groups[group]?.[sub]?.length ?? 0 })}
        {menu > 0 ? (
          <Alert type="warning" showIcon message={t('siteDocuments.remove.menuUses', { count: menu })} />
        ) : null}
      </>,
      () => {
        const next = { ...groups[group] };
        delete next[sub];
        write({ ...groups, [group]: next });
      },
    );
  };

  const addDocument = () => {
    if (!selection) return;
    const doc: Doc = { id: newId(docs), time: Date.now(), title: '' };
    writeDocs(selection.group, selection.sub, [...docs, doc]);
    setChosen({ ...selection, index: docs.length });
  };

  const saveName = (name: string, updateMenu: boolean) => {
    if (!nameDialog) return;
    const dialog = nameDialog;
    setNameDialog(null);
    if (dialog.kind === 'addGroup') {
      write({ ...groups, [name]: {} });
      setChosen(null);
    } else if (dialog.kind === 'addSub') {
      write({ ...groups, [dialog.group]: { ...groups[dialog.group], [name]: [] } });
      setChosen({ group: dialog.group, sub: name, index: 0 });
    } else {
      const from = dialog.kind === 'renameGroup' ? dialog.group : `${dialog.group}.${dialog.sub}`;
      const to = dialog.kind === 'renameGroup' ? name : `${dialog.group}.${name}`;
      const next =
        dialog.kind === 'renameGroup'
          ? renameKey(groups, dialog.group, name)
          : { ...groups, [dialog.group]: renameKey(groups[dialog.group] ?? {}, dialog.sub, name) };
      const extra: Partial<SiteDraft> = {};
      if (updateMenu) {
        for (const key of ['menuGroups', 'remoteAsyncRoutes'] as const) {
          const renamed = renameInMenu(draft[key], from, to);
          if (renamed !== draft[key]) extra[key] = renamed;
        }
      }
      write(next, extra);
      if (selection) {
        const [group, sub] = to.split('.') as [string, string | undefined];
        if (dialog.kind === 'renameGroup' && selection.group === dialog.group) setChosen({ ...selection, group });
        if (dialog.kind === 'renameSub' && selection.group === dialog.group && selection.sub === dialog.sub)
          setChosen({ ...selection, sub: sub ?? name });
      }
    }
  };

  const orderButtons = (label: string, up: () => void, down: () => void, first: boolean, last: boolean) => (
    <>
      <Button
        size="small"
        type="text"
        icon={<ArrowUpOutlined aria-hidden />}
        aria-label={`${t('siteDocuments.groups.moveUp')}: ${label}`}
        disabled={first}
        onClick={up}
      />
      <Button
        size="small"
        type="text"
        icon={<ArrowDownOutlined aria-hidden />}
        aria-label={`${t('siteDocuments.groups.moveDown')}: ${label}`}
        disabled={last}
        onClick={down}
      />
    </>
  );

  const topProblems = problemsAt([]);

  return (
    <div className="site-documents" data-testid="site-documents">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={t('siteDocuments.intro.title')}
        description={
          <ul style={{ margin: 0, paddingInlineStart: 20 }}>
            <li>{t('siteDocuments.intro.information')}</li>
            <li>{t('siteDocuments.intro.news')}</li>
            <li>{t('siteDocuments.intro.changes')}</li>
          </ul>
        }
      />
      <ProblemList problems={topProblems} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={8}>
          <Card
            className="site-documents-nav"
            size="small"
            title={<h3 className="site-documents-heading">{t('siteDocuments.groups.heading')}</h3>}
            extra={
              <Button
                size="small"
                icon={<PlusOutlined aria-hidden />}
                onClick={() => setNameDialog({ kind: 'addGroup' })}
              >
                {t('siteDocuments.groups.add')}
              </Button>
            }
          >
            {groupNames.length === 0 ? <Empty description={t('siteDocuments.groups.empty')} /> : null}
            {groupNames.map((group, gi) => {
              const subs = Object.keys(groups[group] ?? {});
              return (
                <section key={group} className="site-documents-group" aria-label={group}>
                  <div className="site-documents-row">
                    <Typography.Text strong code>
                      {group}
                    </Typography.Text>
                    <span role="group" aria-label={t('siteDocuments.groups.actions', { name: group })}>
                      {orderButtons(
                        group,
                        () => write(moveKey(groups, group, -1)),
                        () => write(moveKey(groups, group, 1)),
                        gi === 0,
                        gi === groupNames.length - 1,
                      )}
                      <Button
                        size="small"
                        type="text"
                        icon={<EditOutlined aria-hidden />}
                        aria-label={`${t('siteDocuments.groups.rename')}: ${group}`}
                        onClick={() => setNameDialog({ kind: 'renameGroup', group })}
                      />
                      <Button
                        size="small"
                        type="text"
                        danger
                        icon={<DeleteOutlined aria-hidden />}
                        aria-label={`${t('siteDocuments.groups.remove')}: ${group}`}
                        onClick={() => removeGroup(group)}
                      />
                    </span>
                  </div>
                  <ProblemList problems={problemsAt([group])} />
                  <ul className="site-documents-subs">
                    {subs.length === 0 ? (
                      <li>
                        <Typography.Text type="secondary">{t('siteDocuments.groups.emptySub')}</Typography.Text>
                      </li>
                    ) : null}
                    {subs.map((sub, si) => {
                      const current = selection?.group === group && selection.sub === sub;
                      const subProblems = problemsAt([group, sub], false);
                      const label = `${group}.${sub}`;
                      return (
                        <li key={sub} className={current ? 'site-documents-sub is-current' : 'site-documents-sub'}>
                          <Button
                            type={current ? 'primary' : 'link'}
                            ghost={current}
                            size="small"
                            aria-current={current ? 'true' : undefined}
                            onClick={() => setChosen({ group, sub, index: 0 })}
                          >
                            {sub}
                            <span className="site-documents-count">
                              {t('siteDocuments.groups.count', { count: groups[group]?.[sub]?.length ?? 0 })}
                            </span>
                          </Button>
                          {subProblems.length > 0 ? (
                            <Tag color={subProblems.some((p) => p.severity === 'error') ? 'red' : 'orange'}>
                              {subProblems.length}
                            </Tag>
                          ) : null}
                          <span role="group" aria-label={t('siteDocuments.groups.actions', { name: label })}>
                            {orderButtons(
                              label,
                              () => write({ ...groups, [group]: moveKey(groups[group] ?? {}, sub, -1) }),
                              () => write({ ...groups, [group]: moveKey(groups[group] ?? {}, sub, 1) }),
                              si === 0,
                              si === subs.length - 1,
                            )}
                            <Button
                              size="small"
                              type="text"
                              icon={<EditOutlined aria-hidden />}
                              aria-label={`${t('siteDocuments.groups.rename')}: ${label}`}
                              onClick={() => setNameDialog({ kind: 'renameSub', group, sub })}
                            />
                            <Button
                              size="small"
                              type="text"
                              danger
                              icon={<DeleteOutlined aria-hidden />}
                              aria-label={`${t('siteDocuments.groups.remove')}: ${label}`}
                              onClick={() => removeSub(group, sub)}
                            />
                          </span>
                        </li>
                      );
                    })}
                  </ul>
                  <Button
                    size="small"
                    type="dashed"
                    icon={<PlusOutlined aria-hidden />}
                    onClick={() => setNameDialog({ kind: 'addSub', group })}
                    aria-label={`${t('siteDocuments.groups.addSub')}: ${group}`}
                  >
                    {t('siteDocuments.groups.addSub')}
                  </Button>
                </section>
              );
            })}
          </Card>
        </Col>
        <Col xs={24} xl={16}>
          {selection ? (
            <Space direction="vertical" size={16} style={{ width: '100%' }}>
              <Card
                size="small"
                title={
                  <h3 className="site-documents-heading">
                    {t('siteDocuments.documents.heading', { path: `${selection.group}.${selection.sub}` })}
                  </h3>
                }
                extra={
                  <Button size="small" type="primary" icon={<PlusOutlined aria-hidden />} onClick={addDocument}>
                    {t('siteDocuments.documents.add')}
                  </Button>
                }
              >
                <Usage
                  uses={usesOf(`${selection.group}.${selection.sub}`)}
                  home={HOME_NEWS.has(`${selection.group}.${selection.sub}`)}
                />
                <ProblemList problems={problemsAt([selection.group, selection.sub])} />
                <List
                  size="small"
                  dataSource={docs.map((doc, index) => ({ doc, index }))}
                  rowKey={({ doc, index }) => `${String(doc.id)}-${index}`}
                  locale={{ emptyText: t('siteDocuments.documents.empty') }}
                  renderItem={({ doc, index }) => {
                    const title = text(doc.title) || t('siteDocuments.documents.untitled');
                    const editing = index === docIndex;
                    const docProblems = problemsAt([selection.group, selection.sub, index], false);
                    return (
                      <List.Item
                        className={editing ? 'site-documents-doc is-current' : 'site-documents-doc'}
                        actions={[
                          <span key="actions" role="group" aria-label={t('siteDocuments.documents.actions', { title })}>
                            {orderButtons(
                              title,
                              () => {
                                writeDocs(selection.group, selection.sub, moveItem(docs, index, -1));
                                if (editing) setChosen({ ...selection, index: index - 1 });
                              },
                              () => {
                                writeDocs(selection.group, selection.sub, moveItem(docs, index, 1));
                                if (editing) setChosen({ ...selection, index: index + 1 });
                              },
                              index === 0,
                              index === docs.length - 1,
                            )}
                            <Button
                              size="small"
                              type="text"
                              danger
                              icon={<DeleteOutlined aria-hidden />}
                              aria-label={`${t('siteDocuments.documents.remove')}: ${title}`}
                              onClick={() =>
                                confirmRemove(t('siteDocuments.remove.document', { title }), () => {
                                  writeDocs(
                                    selection.group,
                                    selection.sub,
                                    docs.filter((_, i) => i !== index),
                                  );
                                  setChosen({ ...selection, index: 0 });
                                })
                              }
                            />
                          </span>,
                        ]}
                      >
                        <Button
                          type="link"
                          size="small"
                          aria-current={editing ? 'true' : undefined}
                          onClick={() => setChosen({ ...selection, index })}
                          className="site-documents-doc-title"
                        >
                          {title}
                        </Button>
                        <Space size={4} wrap>
                          {typeof doc.time === 'number' ? (
                            <Typography.Text type="secondary">
                              {dayjs(doc.time).tz(zone).format('YYYY-MM-DD')}
                            </Typography.Text>
                          ) : null}
                          {doc.recommend === true ? (
                            <Tag color="gold">{t('siteDocuments.documents.recommended')}</Tag>
                          ) : null}
                          {text(doc.jumpUrl) ? <Tag>{t('siteDocuments.documents.external')}</Tag> : null}
                          {index === 0 &&
                          usesOf(`${selection.group}.${selection.sub}`).some((u) => u.component === 'DocumentPage') ? (
                            <Tag color="blue">{t('siteDocuments.documents.first')}</Tag>
                          ) : null}
                          {editing ? <Tag color="cyan">{t('siteDocuments.documents.editing')}</Tag> : null}
                          {docProblems.length > 0 ? (
                            <Tag color={docProblems.some((p) => p.severity === 'error') ? 'red' : 'orange'}>
                              {t('siteDocuments.form.problems')}: {docProblems.length}
                            </Tag>
                          ) : null}
                        </Space>
                      </List.Item>
                    );
                  }}
                />
              </Card>
              {docIndex >= 0 && docs[docIndex] ? (
                <DocumentForm
                  key={`${selection.group}.${selection.sub}[${docIndex}]`}
                  raceId={raceId}
                  zone={zone}
                  doc={docs[docIndex]}
                  problemsOf={(field) => problemsAt([selection.group, selection.sub, docIndex, field])}
                  otherProblems={problemsAt([selection.group, selection.sub, docIndex], false).filter(
                    (p) =>
                      !FORM_FIELDS.some(
                        (field) =>
                          p.path === formatJsonPath(['contentGroups', selection.group, selection.sub, docIndex, field]),
                      ),
                  )}
                  onChange={(doc) =>
                    writeDocs(
                      selection.group,
                      selection.sub,
                      docs.map((d, i) => (i === docIndex ? doc : d)),
                    )
                  }
                />
              ) : null}
            </Space>
          ) : (
            <Card size="small">
              <Empty description={t('siteDocuments.documents.choose')} />
            </Card>
          )}
        </Col>
      </Row>
      <NameModal
        dialog={nameDialog}
        groups={groups}
        menuCount={(dialog) =>
          dialog.kind === 'renameGroup'
            ? usesUnder(dialog.group).length
            : dialog.kind === 'renameSub'
              ? usesOf(`${dialog.group}.${dialog.sub}`).length
              : 0
        }
        onCancel={() => setNameDialog(null)}
        onOk={saveName}
      />
    </div>
  );
}

function ProblemList({ problems }: { problems: readonly Problem[] }) {
  if (problems.length === 0) return null;
  return (
    <Alert
      type={problems.some((p) => p.severity === 'error') ? 'error' : 'warning'}
      showIcon
      style={{ marginBottom: 12 }}
      message={
        <ul style={{ margin: 0, paddingInlineStart: 16 }}>
          {problems.map((p) => (
            <li key={`${p.path}:${p.message}`}>
              <Typography.Text code>{p.path}</Typography.Text> {p.message}
            </li>
          ))}
        </ul>
      }
    />
  );
}

function Usage({ uses, home }: { uses: readonly MenuUse[]; home: boolean }) {
  const { t } = useTranslation();
  const kind = (component: string) =>
    component === 'DocumentPage' || component === 'NewsPage' || component === 'PartnerPage'
      ? t(`siteDocuments.usage.${component}`)
      : t('siteDocuments.usage.other', { component: component || '?' });
  return (
    <div className="site-documents-usage">
      <Typography.Text strong>{t('siteDocuments.usage.heading')}: </Typography.Text>
      {uses.length === 0 && !home ? (
        <Typography.Text type="secondary">{t('siteDocuments.usage.none')}</Typography.Text>
      ) : null}
      <ul>
        {uses.map((use) => (
          <li key={`${use.path}:${use.title}`}>
            {t('siteDocuments.usage.menu', { title: use.title, path: use.path, kind: kind(use.component) })}
          </li>
        ))}
        {home ? <li>{t('siteDocuments.usage.home')}</li> : null}
      </ul>
    </div>
  );
}

/** The field's validator problems, for a Form.Item's status and help. */
function fieldStatus(problems: readonly Problem[]) {
  if (problems.length === 0) return {};
  return {
    validateStatus: problems.some((p) => p.severity === 'error') ? ('error' as const) : ('warning' as const),
    help: problems.map((p) => p.message).join(' '),
  };
}

function DocumentForm(props: {
  raceId: string;
  zone: string;
  doc: Doc;
  problemsOf: (field: string) => Problem[];
  otherProblems: Problem[];
  onChange: (doc: Doc) => void;
}) {
  const { t } = useTranslation();
  const { doc, zone } = props;
  const ids = useId();
  const [linkMode, setLinkMode] = useState(() => typeof doc.jumpUrl === 'string');
  const set = (field: string, value: unknown) => props.onChange(withField(doc, field, value));
  const item = (field: string) => ({ htmlFor: `${ids}-${field}`, ...fieldStatus(props.problemsOf(field)) });
  const time: Dayjs | null = typeof doc.time === 'number' ? dayjs(doc.time).tz(zone) : null;

  return (
    <Card size="small" title={<h3 className="site-documents-heading">{t('siteDocuments.form.heading')}</h3>}>
      <ProblemList problems={props.otherProblems} />
      <Form layout="vertical" component="div">
        <Form.Item label={t('siteDocuments.form.id')} extra={t('siteDocuments.form.idHelp')} {...item('id')}>
          <Typography.Text code id={`${ids}-id`}>
            {String(doc.id)}
          </Typography.Text>
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item label={t('siteDocuments.form.title')} {...item('title')}>
              <Input id={`${ids}-title`} value={text(doc.title)} onChange={(e) => set('title', e.target.value)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={t('siteDocuments.form.titleEn')} {...item('titleEn')}>
              <Input id={`${ids}-titleEn`} value={text(doc.titleEn)} onChange={(e) => set('titleEn', e.target.value)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              label={t('siteDocuments.form.summary')}
              extra={t('siteDocuments.form.summaryHelp')}
              {...item('summary')}
            >
              <Input.TextArea
                id={`${ids}-summary`}
                autoSize={{ minRows: 2, maxRows: 5 }}
                value={text(doc.summary)}
                onChange={(e) => set('summary', e.target.value)}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={t('siteDocuments.form.summaryEn')} {...item('summaryEn')}>
              <Input.TextArea
                id={`${ids}-summaryEn`}
                autoSize={{ minRows: 2, maxRows: 5 }}
                value={text(doc.summaryEn)}
                onChange={(e) => set('summaryEn', e.target.value)}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              label={t('siteDocuments.form.time')}
              extra={t('siteDocuments.form.timeHelp', { zone })}
              {...item('time')}
            >
              <DatePicker
                id={`${ids}-time`}
                showTime
                format="YYYY-MM-DD HH:mm"
                value={time}
                style={{ width: '100%' }}
                onChange={(value: Dayjs | null) =>
                  set('time', value ? dayjs.tz(value.format('YYYY-MM-DD HH:mm:ss'), zone).valueOf() : undefined)
                }
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={t('siteDocuments.form.recommend')} {...item('recommend')}>
              <Switch
                id={`${ids}-recommend`}
                checked={doc.recommend === true}
                onChange={(on) => set('recommend', on ? true : undefined)}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={t('siteDocuments.form.icon')} extra={t('siteDocuments.form.iconHelp')} {...item('icon')}>
              <AssetPicker
                raceId={props.raceId}
                id={`${ids}-icon`}
                aria-label={t('siteDocuments.form.icon')}
                kind="image"
                value={text(doc.icon)}
                onChange={(value) => set('icon', value)}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label={t('siteDocuments.form.kind')}>
          <Radio.Group
            value={linkMode ? 'link' : 'content'}
            onChange={(e) => {
              const link = e.target.value === 'link';
              setLinkMode(link);
              if (!link) set('jumpUrl', undefined);
            }}
            options={[
              { value: 'content', label: t('siteDocuments.form.kindContent') },
              { value: 'link', label: t('siteDocuments.form.kindLink') },
            ]}
          />
        </Form.Item>
        {linkMode ? (
          <Form.Item
            label={t('siteDocuments.form.jumpUrl')}
            extra={t('siteDocuments.form.jumpUrlHelp')}
            {...item('jumpUrl')}
          >
            <Input
              id={`${ids}-jumpUrl`}
              inputMode="url"
              value={text(doc.jumpUrl)}
              onChange={(e) => set('jumpUrl', e.target.value)}
            />
          </Form.Item>
        ) : (
          <Tabs
            items={[
              {
                key: 'zh',
                label: t('siteDocuments.form.zh'),
                children: (
                  <Form.Item {...fieldStatus(props.problemsOf('content'))}>
                    <RichTextEditor
                      raceId={props.raceId}
                      aria-label={t('siteDocuments.form.content')}
                      value={text(doc.content)}
                      onChange={(html) => set('content', html)}
                    />
                  </Form.Item>
                ),
              },
              {
                key: 'en',
                label: t('siteDocuments.form.en'),
                children: (
                  <Form.Item
                    extra={t('siteDocuments.form.contentEnHint')}
                    {...fieldStatus(props.problemsOf('contentEn'))}
                  >
                    <RichTextEditor
                      raceId={props.raceId}
                      aria-label={t('siteDocuments.form.contentEn')}
                      value={text(doc.contentEn)}
                      onChange={(html) => set('contentEn', html)}
                    />
                  </Form.Item>
                ),
              },
            ]}
          />
        )}
      </Form>
    </Card>
  );
}

function NameModal(props: {
  dialog: NameDialog | null;
  groups: Groups;
  menuCount: (dialog: NameDialog) => number;
  onOk: (name: string, updateMenu: boolean) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { dialog, groups } = props;
  const [form] = Form.useForm<{ name: string; updateMenu: boolean }>();
  const id = useId();
  const current = dialog?.kind === 'renameGroup' ? dialog.group : dialog?.kind === 'renameSub' ? dialog.sub : '';
  const siblings =
    dialog?.kind === 'addSub' || dialog?.kind === 'renameSub'
      ? Object.keys(groups[dialog.group] ?? {})
      : Object.keys(groups);
  const menu = dialog ? props.menuCount(dialog) : 0;
  const title = !dialog
    ? ''
    : dialog.kind === 'addGroup'
      ? t('siteDocuments.name.addGroup')
      : dialog.kind === 'addSub'
        ? t('siteDocuments.name.addSub', { group: dialog.group })
        : dialog.kind === 'renameGroup'
          ? t('siteDocuments.name.renameGroup', { name: dialog.group })
          : t('siteDocuments.name.renameSub', { name: dialog.sub });
  return (
    <Modal
      open={dialog !== null}
      title={title}
      destroyOnHidden
      okText={t('siteDocuments.name.ok')}
      cancelText={t('siteDocuments.name.cancel')}
      onCancel={props.onCancel}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: current, updateMenu: true }}
        onFinish={(values) => props.onOk(values.name.trim(), menu > 0 && values.updateMenu)}
      >
        <Form.Item
          name="name"
          label={t('siteDocuments.name.label')}
          extra={t('siteDocuments.name.help')}
          htmlFor={`${id}-name`}
          rules={[
            {
              validator: (_rule, value: string | undefined) => {
                const name = (value ?? '').trim();
                if (!name) return Promise.reject(new Error(t('siteDocuments.name.required')));
                if (!NAME.test(name)) return Promise.reject(new Error(t('siteDocuments.name.invalid')));
                if (name !== current && siblings.includes(name))
                  return Promise.reject(new Error(t('siteDocuments.name.taken')));
                return Promise.resolve();
              },
            },
          ]}
        >
          <Input id={`${id}-name`} />
        </Form.Item>
        {menu > 0 ? (
          <Form.Item name="updateMenu" valuePropName="checked">
            <Checkbox>{t('siteDocuments.name.updateMenu', { count: menu })}</Checkbox>
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}

export const documentsEditor: SiteEditor = {
  key: 'documents',
  labelKey: 'siteDocuments.tab',
  paths: ['contentGroups'],
  order: 10,
  Component: DocumentsEditor,
};
