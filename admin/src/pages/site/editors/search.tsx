/**
 * The search switches and the home page's search modules as forms. The switches (registrationSearch,
 * scoreSearch, pictureSearch) open or close the search pages; the modules (searchConfigList) are the home
 * page's buttons: sign up, registration search, score search, photo search. Every number of the document
 * (moduleType, openStatus, jumpType) is a choice said in words.
 */
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SiteEditor, SiteEditorProps } from '../editor-types';
import {
  BilingualFields,
  BrokenPart,
  CardList,
  EditorFrame,
  FlagField,
  PartSection,
  PartField,
  PartProblems,
  TextField,
  isObj,
  listPart,
  nextId,
  objectItems,
  problemsBeside,
  text,
  withKey,
  type Obj,
  type Path,
  type Problem,
} from './parts-kit';

export const SEARCH_SWITCHES = ['registrationSearch', 'scoreSearch', 'pictureSearch'] as const;
const MODULES = 'searchConfigList';
const SWITCH_FIELDS = ['openStatus', 'dialogText', 'dialogTextEn', 'jumpType', 'jumpUrl', 'useMultipleSearch'];
const MODULE_FIELDS = [
  'id',
  'moduleType',
  'title',
  'titleEn',
  'subTitle',
  'subTitleEn',
  'jumpType',
  'jumpUrl',
  'openStatus',
  'dialogText',
  'dialogTextEn',
  'signUpStartTime',
  'signUpEndTime',
  'signUpTimeTitle',
  'signUpTimeTitleEn',
];
export const MODULE_TYPES = [1, 2, 3, 4] as const;
/** Where each kind of module usually goes (spec §2). */
export const MODULE_ROUTES: Record<number, string> = {
  1: '/direct',
  2: '/registration-search',
  3: '/score-search',
  4: '/image-search',
};
const TIME_PLACEHOLDER = 'YYYY-MM-DD HH:mm:ss';

function JumpFields({
  object,
  path,
  problems,
  update,
  placeholder,
  required,
}: {
  object: Obj;
  path: Path;
  problems: readonly Problem[];
  update: (next: Obj) => void;
  placeholder?: string;
  /** A module must say its kind of link; a switch may leave it out. */
  required?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PartField label={t('siteParts.search.jumpType')} path={[...path, 'jumpType']} problems={problems}>
        {(control) => (
          <Select
            {...control}
            value={object.jumpType as number | undefined}
            allowClear={!required}
            placeholder={t('siteParts.search.jumpTypeNone')}
            options={[
              { value: 2, label: t('siteParts.search.jumpTypes.2') },
              { value: 1, label: t('siteParts.search.jumpTypes.1') },
            ]}
            onChange={(value: number | undefined) => update(withKey(object, 'jumpType', value))}
          />
        )}
      </PartField>
      <TextField
        label={t('siteParts.search.jumpUrl')}
        hint={t('siteParts.common.linkHint')}
        placeholder={placeholder}
        path={[...path, 'jumpUrl']}
        problems={problems}
        value={object.jumpUrl}
        onChange={(value) => update(withKey(object, 'jumpUrl', value))}
      />
    </>
  );
}

function OpenStatusField({
  object,
  path,
  problems,
  update,
}: {
  object: Obj;
  path: Path;
  problems: readonly Problem[];
  update: (next: Obj) => void;
}) {
  const { t } = useTranslation();
  return (
    <PartField label={t('siteParts.search.openStatus')} path={[...path, 'openStatus']} problems={problems}>
      {(control) => (
        <Select
          {...control}
          value={object.openStatus as number | undefined}
          options={[
            { value: 1, label: t('siteParts.search.open') },
            { value: 0, label: t('siteParts.search.closed') },
          ]}
          onChange={(value: number) => update(withKey(object, 'openStatus', value))}
        />
      )}
    </PartField>
  );
}

function SearchSwitch({
  name,
  draft,
  onChange,
  problems,
}: {
  name: (typeof SEARCH_SWITCHES)[number];
  draft: Obj;
  onChange: (next: Obj) => void;
  problems: readonly Problem[];
}) {
  const { t } = useTranslation();
  const value = draft[name];
  const path = [name];
  if (value !== undefined && !isObj(value)) return <BrokenPart name={name} />;
  const update = (next: Obj) => onChange(withKey(draft, name, next));
  const state = value === undefined ? 'none' : value.openStatus === 0 ? 'closed' : 'open';
  return (
    <PartSection
      small
      level={3}
      title={t(`siteParts.search.switches.${name}`)}
      hint={t(`siteParts.search.switchWhat.${name}`)}
      testId={`site-search-${name}`}
    >
      <PartProblems problems={value ? problemsBeside(problems, path, SWITCH_FIELDS) : []} />
      <PartField
        label={t('siteParts.search.pageState')}
        path={[...path, 'openStatus']}
        problems={problems}
        hint={t(`siteParts.search.states.${state}Hint`)}
      >
        {(control) => (
          <Select
            {...control}
            value={state}
            options={(['none', 'open', 'closed'] as const).map((option) => ({
              value: option,
              label: t(`siteParts.search.states.${option}`),
            }))}
            onChange={(next: 'none' | 'open' | 'closed') =>
              onChange(
                withKey(
                  draft,
                  name,
                  next === 'none' ? undefined : withKey(value ?? {}, 'openStatus', next === 'open' ? 1 : 0),
                ),
              )
            }
          />
        )}
      </PartField>
      {value && (
        <>
          <BilingualFields
            label={t('siteParts.search.dialogText')}
            object={value}
            path={path}
            field="dialogText"
            problems={problems}
            onChange={update}
          />
          <JumpFields object={value} path={path} problems={problems} update={update} />
          {name === 'scoreSearch' && (
            <FlagField
              label={t('siteParts.search.useMultipleSearch')}
              hint={t('siteParts.search.useMultipleSearchHint')}
              path={path}
              problems={problems}
              object={value}
              field="useMultipleSearch"
              onChange={update}
            />
          )}
        </>
      )}
    </PartSection>
  );
}

function ModuleFields({
  module,
  index,
  update,
  problems,
}: {
  module: Obj;
  index: number;
  update: (next: Obj) => void;
  problems: readonly Problem[];
}) {
  const { t } = useTranslation();
  const path = [MODULES, index];
  const type = Number(module.moduleType);
  return (
    <>
      <PartField
        label={t('siteParts.search.moduleType')}
        hint={MODULE_TYPES.includes(type as 1) ? t(`siteParts.search.moduleWhat.${type}`) : undefined}
        path={[...path, 'moduleType']}
        problems={problems}
      >
        {(control) => (
          <Select
            {...control}
            value={module.moduleType as number | undefined}
            options={MODULE_TYPES.map((value) => ({ value, label: t(`siteParts.search.moduleTypes.${value}`) }))}
            onChange={(value: number) => {
              let next = withKey(module, 'moduleType', value);
              const url = text(module.jumpUrl);
              // The usual route follows the kind, unless the organiser wrote a route of their own.
              if (!url || url === MODULE_ROUTES[type]) next = withKey(next, 'jumpUrl', MODULE_ROUTES[value]);
              update(next);
            }}
          />
        )}
      </PartField>
      <BilingualFields
        label={t('siteParts.search.title')}
        object={module}
        path={path}
        field="title"
        required
        problems={problems}
        onChange={update}
      />
      <BilingualFields
        label={t('siteParts.search.subTitle')}
        object={module}
        path={path}
        field="subTitle"
        problems={problems}
        onChange={update}
      />
      <OpenStatusField object={module} path={path} problems={problems} update={update} />
      <BilingualFields
        label={t('siteParts.search.dialogText')}
        object={module}
        path={path}
        field="dialogText"
        problems={problems}
        onChange={update}
      />
      <JumpFields
        object={module}
        path={path}
        problems={problems}
        update={update}
        placeholder={MODULE_ROUTES[type]}
        required
      />
      {type === 1 && (
        <>
          <p className="site-parts-section-hint">{t('siteParts.search.signUpWindowHint')}</p>
          <TextField
            label={t('siteParts.search.signUpStartTime')}
            placeholder={TIME_PLACEHOLDER}
            path={[...path, 'signUpStartTime']}
            problems={problems}
            value={module.signUpStartTime}
            onChange={(value) => update(withKey(module, 'signUpStartTime', value))}
          />
          <TextField
            label={t('siteParts.search.signUpEndTime')}
            placeholder={TIME_PLACEHOLDER}
            path={[...path, 'signUpEndTime']}
            problems={problems}
            value={module.signUpEndTime}
            onChange={(value) => update(withKey(module, 'signUpEndTime', value))}
          />
          <BilingualFields
            label={t('siteParts.search.signUpTimeTitle')}
            object={module}
            path={path}
            field="signUpTimeTitle"
            problems={problems}
            onChange={update}
          />
        </>
      )}
    </>
  );
}

export function SearchEditor({ draft, onChange, problems }: SiteEditorProps) {
  const { t } = useTranslation();
  const { items, broken } = listPart(draft, MODULES);
  return (
    <EditorFrame intro={t('siteParts.search.intro')} testId="site-search">
      <PartSection title={t('siteParts.search.modulesTitle')} hint={t('siteParts.search.modulesHint')}>
        {broken ? (
          <BrokenPart name={MODULES} />
        ) : (
          <CardList
            testId="site-search-modules"
            items={items}
            itemFields={MODULE_FIELDS}
            path={[MODULES]}
            problems={problems}
            onChange={(next) => onChange(withKey(draft, MODULES, next))}
            newItem={() => {
              const used = new Set(items.map((item) => (isObj(item) ? Number(item.moduleType) : 0)));
              const type = MODULE_TYPES.find((value) => !used.has(value)) ?? 1;
              return {
                id: nextId(items),
                moduleType: type,
                title: '',
                jumpType: 2,
                jumpUrl: MODULE_ROUTES[type],
                openStatus: 1,
              };
            }}
            addLabel={t('siteParts.search.add')}
            emptyText={t('siteParts.search.empty')}
            itemTitle={(item) => {
              const module = isObj(item) ? item : {};
              const type = Number(module.moduleType);
              const kind = MODULE_TYPES.includes(type as 1) ? t(`siteParts.search.moduleTypes.${type}`) : '';
              return (
                <span>
                  {text(module.title) || t('siteParts.search.untitled')}
                  {kind && <span className="site-parts-card-kind"> · {kind}</span>}
                </span>
              );
            }}
            renderItem={objectItems((module, index, update) => (
              <ModuleFields module={module} index={index} update={update} problems={problems} />
            ))}
          />
        )}
      </PartSection>
      <PartSection title={t('siteParts.search.switchesTitle')} hint={t('siteParts.search.switchesHint')}>
        {SEARCH_SWITCHES.map((name) => (
          <SearchSwitch key={name} name={name} draft={draft} onChange={onChange} problems={problems} />
        ))}
      </PartSection>
    </EditorFrame>
  );
}

export const searchEditor: SiteEditor = {
  key: 'search',
  labelKey: 'siteParts.search.tab',
  paths: [MODULES, ...SEARCH_SWITCHES],
  order: 40,
  Component: SearchEditor,
};
