/**
 * The menu (menuGroups: the static menu groups of spec §2, shown after Home in this order) as a form: each
 * group with its path, its titles, whether it is hidden, where its own path goes (one of its items) and its
 * items; each item with its path, titles, hidden, and what it opens: a page of the site (contract/page-names),
 * for document, news and partner pages the list of documents it shows (a choice among the draft's
 * contentGroups), or another site.
 */
import { Col, Row, Select } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_COMPONENTS, PARENT_VIEW } from '#contract/page-names';
import type { SiteEditor, SiteEditorProps } from '../editor-types';
import {
  BilingualFields,
  BrokenPart,
  CardList,
  EditorFrame,
  FlagField,
  PartField,
  PartProblems,
  TextField,
  isObj,
  listPart,
  objectItems,
  problemsBeside,
  text,
  withKey,
  type Obj,
  type Path,
  type Problem,
} from './parts-kit';

const KEY = 'menuGroups';
const ROUTE_FIELDS = ['name', 'path', 'component', 'redirect', 'hidden', 'meta', 'children'];
const META_FIELDS = ['title', 'titleEn', 'dataPath', 'link'];
/** The pages that show a list of documents of contentGroups, named by meta.dataPath. */
export const LIST_PAGES: readonly string[] = ['DocumentPage', 'NewsPage', 'PartnerPage'];
/** The choice "a menu group of the items below", which the document writes as component ParentView. */
const GROUP = PARENT_VIEW;
const NONE = '';

/** Every list of documents of the draft ("group.list"), with how many documents it holds. */
export function documentLists(draft: Obj): { value: string; count: number }[] {
  const groups = draft.contentGroups;
  if (!isObj(groups)) return [];
  return Object.entries(groups).flatMap(([group, lists]) =>
    isObj(lists)
      ? Object.entries(lists).map(([list, documents]) => ({
          value: `${group}.${list}`,
          count: Array.isArray(documents) ? documents.length : 0,
        }))
      : [],
  );
}

/** The usual menu groups of spec §2 (as the demo event has them), offered to start a group from. */
export const MENU_TEMPLATES: Record<string, { path: string; children: [string, string, string, string][] }> = {
  raceInformation: {
    path: '/race-information',
    children: [
      ['raceRules', 'race-rules', 'DocumentPage', 'raceInformation.raceRules'],
      [
        'registrationInstructions',
        'registration-instructions',
        'DocumentPage',
        'raceInformation.registrationInstructions',
      ],
      ['raceRoute', 'race-route', 'DocumentPage', 'raceInformation.raceRoute'],
      ['raceStatement', 'race-statement', 'DocumentPage', 'raceInformation.raceStatement'],
    ],
  },
  newsNotice: {
    path: '/news-notice',
    children: [
      ['raceNews', 'race-news', 'NewsPage', 'newsNotice.raceNews'],
      ['activityBulletin', 'activity-bulletin', 'NewsPage', 'newsNotice.activityBulletin'],
    ],
  },
  epidemicPreventionInstructions: {
    path: '/epidemic-prevention-instructions',
    children: [
      [
        'epidemicPreventionNotice',
        'epidemic-prevention-notice',
        'DocumentPage',
        'epidemicPreventionInstructions.notice',
      ],
    ],
  },
  introduction: {
    path: '/introduction',
    children: [
      ['aboutIndex', 'about-index', 'DocumentPage', 'introduction.about'],
      ['cuisine', 'cuisine', 'DocumentPage', 'introduction.cuisine'],
      ['lightOfCanal', 'light-of-canal', 'DocumentPage', 'introduction.canalLight'],
    ],
  },
  aboutUs: {
    path: '/about-us',
    children: [
      ['raceIntroduction', 'race-Introduction', 'DocumentPage', 'aboutUs.raceIntroduction'],
      ['contactUs', 'contact-us', 'DocumentPage', 'aboutUs.contactUs'],
    ],
  },
};

const joinPath = (parent: string, child: string) =>
  child.startsWith('/') ? child : `${parent.replace(/\/+$/, '')}/${child}`;

function RouteFields({
  route,
  path,
  problems,
  update,
  lists,
  level,
}: {
  route: Obj;
  path: Path;
  problems: readonly Problem[];
  update: (next: Obj) => void;
  lists: { value: string; count: number }[];
  level: 'group' | 'item';
}) {
  const { t } = useTranslation();
  const meta: Obj = isObj(route.meta) ? route.meta : {};
  const updateMeta = (next: Obj) => update(withKey(route, 'meta', next));
  const component = text(route.component);
  const dataPath = text(meta.dataPath);
  const children = Array.isArray(route.children) ? route.children : [];
  const components: string[] = level === 'group' ? [NONE, GROUP, ...PAGE_COMPONENTS] : [NONE, ...PAGE_COMPONENTS];
  if (component && !components.includes(component)) components.push(component);
  const listOptions = lists.map((list) => ({
    value: list.value,
    label: t('siteParts.menu.documentList', { list: list.value, count: list.count }),
  }));
  if (dataPath && !lists.some((list) => list.value === dataPath))
    listOptions.push({ value: dataPath, label: dataPath });
  const redirects = children.flatMap((child) =>
    isObj(child) && text(child.path) ? [joinPath(text(route.path), text(child.path))] : [],
  );
  const redirect = text(route.redirect);
  if (redirect && !redirects.includes(redirect)) redirects.push(redirect);

  return (
    <>
      <PartProblems problems={isObj(route.meta) ? problemsBeside(problems, [...path, 'meta'], META_FIELDS) : []} />
      <BilingualFields
        label={t('siteParts.menu.title')}
        object={meta}
        path={[...path, 'meta']}
        field="title"
        required
        problems={problems}
        onChange={updateMeta}
      />
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <TextField
            label={t('siteParts.menu.path')}
            hint={t(level === 'group' ? 'siteParts.menu.groupPathHint' : 'siteParts.menu.itemPathHint')}
            placeholder={level === 'group' ? '/race-information' : 'race-rules'}
            path={[...path, 'path']}
            problems={problems}
            value={route.path}
            required
            onChange={(value) => update(withKey(route, 'path', value))}
          />
        </Col>
        <Col xs={24} md={12}>
          <TextField
            label={t('siteParts.menu.name')}
            hint={t('siteParts.menu.nameHint')}
            placeholder={level === 'group' ? 'raceInformation' : 'raceRules'}
            path={[...path, 'name']}
            problems={problems}
            value={route.name}
            onChange={(value) => update(withKey(route, 'name', value))}
          />
        </Col>
      </Row>
      <PartField label={t('siteParts.menu.opens')} path={[...path, 'component']} problems={problems}>
        {(control) => (
          <Select
            {...control}
            showSearch={{ optionFilterProp: 'label' }}
            value={component}
            options={components.map((value) => ({
              value,
              label:
                value === NONE
                  ? t(level === 'group' ? 'siteParts.menu.noneGroup' : 'siteParts.menu.none')
                  : `${t(`siteParts.menu.pages.${value}`, { defaultValue: value })} (${value})`,
            }))}
            onChange={(value: string) => update(withKey(route, 'component', value === NONE ? undefined : value))}
          />
        )}
      </PartField>
      {(LIST_PAGES.includes(component) || dataPath) && (
        <PartField
          label={t('siteParts.menu.dataPath')}
          hint={lists.length === 0 ? t('siteParts.menu.noLists') : t('siteParts.menu.dataPathHint')}
          path={[...path, 'meta', 'dataPath']}
          problems={problems}
        >
          {(control) => (
            <Select
              {...control}
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              value={dataPath || undefined}
              placeholder={t('siteParts.menu.chooseList')}
              options={listOptions}
              onChange={(value: string | undefined) => updateMeta(withKey(meta, 'dataPath', value || undefined))}
            />
          )}
        </PartField>
      )}
      {level === 'group' && (children.length > 0 || redirect) && (
        <PartField
          label={t('siteParts.menu.redirect')}
          hint={t('siteParts.menu.redirectHint')}
          path={[...path, 'redirect']}
          problems={problems}
        >
          {(control) => (
            <Select
              {...control}
              allowClear
              value={redirect || undefined}
              placeholder={t('siteParts.menu.chooseRedirect')}
              options={redirects.map((value) => ({ value, label: value }))}
              onChange={(value: string | undefined) => update(withKey(route, 'redirect', value || undefined))}
            />
          )}
        </PartField>
      )}
      {level === 'item' && (
        <TextField
          label={t('siteParts.menu.link')}
          hint={t('siteParts.menu.linkHint')}
          placeholder="https://"
          path={[...path, 'meta', 'link']}
          problems={problems}
          value={meta.link}
          onChange={(value) => updateMeta(withKey(meta, 'link', value))}
        />
      )}
      <FlagField
        label={t('siteParts.menu.hidden')}
        hint={t('siteParts.menu.hiddenHint')}
        path={path}
        problems={problems}
        object={route}
        field="hidden"
        onChange={update}
      />
    </>
  );
}

/**
 * A group of MENU_TEMPLATES with its titles in both languages; an item's documents are named only when the draft
 * has that list (a dataPath that points at nothing would stop the publication).
 */
function templateGroup(
  name: string,
  lists: { value: string }[],
  title: (key: string, lng: 'zh' | 'en') => string,
): Obj {
  const template = MENU_TEMPLATES[name]!;
  const titles = (key: string) => ({ title: title(key, 'zh'), titleEn: title(key, 'en') });
  return {
    name,
    path: template.path,
    component: GROUP,
    redirect: joinPath(template.path, template.children[0]![1]),
    meta: titles(`siteParts.menu.templates.${name}`),
    children: template.children.map(([child, path, component, dataPath]) => ({
      name: child,
      path,
      component,
      meta: {
        ...titles(`siteParts.menu.templates.${child}`),
        ...(lists.some((list) => list.value === dataPath) ? { dataPath } : {}),
      },
    })),
  };
}

const routeTitle = (route: unknown) => (isObj(route) && isObj(route.meta) ? text(route.meta.title) : '');

export function MenuEditor({ draft, onChange, problems }: SiteEditorProps) {
  const { t } = useTranslation();
  const { items, broken } = listPart(draft, KEY);
  const lists = documentLists(draft);
  const templateId = useId();
  const title = (key: string, lng: 'zh' | 'en') => t(key, { lng });
  const present = new Set(items.map((item) => (isObj(item) ? text(item.path) : '')));
  return (
    <EditorFrame intro={t('siteParts.menu.intro')} testId="site-menu">
      {broken ? (
        <BrokenPart name={KEY} />
      ) : (
        <CardList
          testId="site-menu-groups"
          items={items}
          itemFields={ROUTE_FIELDS}
          path={[KEY]}
          problems={problems}
          onChange={(next) => onChange(withKey(draft, KEY, next))}
          newItem={() => ({ path: '', component: GROUP, meta: { title: '' }, children: [] })}
          addLabel={t('siteParts.menu.addGroup')}
          extraActions={
            <span className="site-parts-template">
              <label htmlFor={templateId}>{t('siteParts.menu.addTemplate')}</label>
              <Select
                id={templateId}
                className="site-parts-template-select"
                value={null}
                placeholder={t('siteParts.menu.chooseTemplate')}
                data-testid="site-menu-template"
                options={Object.entries(MENU_TEMPLATES).map(([name, template]) => ({
                  value: name,
                  label: `${t(`siteParts.menu.templates.${name}`)} (${template.path})`,
                  disabled: present.has(template.path),
                }))}
                onChange={(name: string) =>
                  onChange(withKey(draft, KEY, [...items, templateGroup(name, lists, title)]))
                }
              />
            </span>
          }
          emptyText={t('siteParts.menu.noGroups')}
          itemTitle={(group, index) => (
            <span>
              {routeTitle(group) || t('siteParts.menu.groupUntitled', { n: index + 1 })}
              {isObj(group) && text(group.path) && <code className="site-parts-code"> {text(group.path)}</code>}
            </span>
          )}
          renderItem={objectItems((group, index, update) => {
            const path = [KEY, index];
            const children = listPart(group, 'children');
            return (
              <>
                <RouteFields
                  route={group}
                  path={path}
                  problems={problems}
                  update={update}
                  lists={lists}
                  level="group"
                />
                <h3 className="site-parts-subtitle">{t('siteParts.menu.items')}</h3>
                {children.broken ? (
                  <BrokenPart name={`${KEY}[${index}].children`} />
                ) : (
                  <CardList
                    testId={`site-menu-${index}-items`}
                    items={children.items}
                    itemFields={ROUTE_FIELDS}
                    path={[...path, 'children']}
                    problems={problems}
                    onChange={(next) => update(withKey(group, 'children', next))}
                    newItem={() => ({ path: '', component: 'DocumentPage', meta: { title: '' } })}
                    addLabel={t('siteParts.menu.addItem')}
                    emptyText={t('siteParts.menu.noItems')}
                    itemTitle={(item, i) => (
                      <span>
                        {routeTitle(item) || t('siteParts.menu.itemUntitled', { n: i + 1 })}
                        {isObj(item) && text(item.path) && (
                          <code className="site-parts-code"> {joinPath(text(group.path), text(item.path))}</code>
                        )}
                      </span>
                    )}
                    renderItem={objectItems((item, i, updateItem) => (
                      <RouteFields
                        route={item}
                        path={[...path, 'children', i]}
                        problems={problems}
                        update={updateItem}
                        lists={lists}
                        level="item"
                      />
                    ))}
                  />
                )}
              </>
            );
          })}
        />
      )}
    </EditorFrame>
  );
}

export const menuEditor: SiteEditor = {
  key: 'menu',
  labelKey: 'siteParts.menu.tab',
  paths: [KEY],
  order: 70,
  Component: MenuEditor,
};
