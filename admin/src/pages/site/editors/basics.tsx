/**
 * The site's identity as a form: its title in Chinese and English (the browser tab, the header), the logo on the
 * desktop and the phone site, and the home page's route map (image, title, summary, where "full route" goes).
 * The first tab: a new event's draft starts with the race's names as its title and no logo.
 */
import { Card } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteEditor, SiteEditorProps } from '../editor-types';
import {
  BilingualFields,
  BrokenPart,
  EditorFrame,
  ImageField,
  PartProblems,
  TextField,
  isObj,
  problemsBeside,
  withKey,
  type Obj,
} from './parts-kit';

const ROUTE_MAP = 'routeMap';
const ROUTE_MAP_FIELDS = ['image', 'title', 'titleEn', 'summary', 'summaryEn', 'jumpUrl'];

export function BasicsEditor({ raceId, draft, onChange, problems }: SiteEditorProps) {
  const { t } = useTranslation();
  const routeValue = draft[ROUTE_MAP];
  const route: Obj = isObj(routeValue) ? routeValue : {};
  const updateRoute = (next: Obj) =>
    onChange(withKey(draft, ROUTE_MAP, Object.keys(next).length > 0 ? next : undefined));
  const section = (title: string, hint: string, children: ReactNode, testId: string) => (
    <Card
      className="site-parts-section"
      data-testid={testId}
      title={<h2 className="site-parts-section-title">{title}</h2>}
    >
      <p className="site-parts-section-hint">{hint}</p>
      {children}
    </Card>
  );

  return (
    <EditorFrame intro={t('siteBasics.intro')} testId="site-basics">
      {section(
        t('siteBasics.identityTitle'),
        t('siteBasics.identityHint'),
        <>
          <BilingualFields
            label={t('siteBasics.websiteTitle')}
            object={draft}
            path={[]}
            field="websiteTitle"
            required
            problems={problems}
            onChange={onChange}
          />
          <ImageField
            label={t('siteBasics.logo')}
            hint={t('siteBasics.logoHint')}
            path={['logo']}
            problems={problems}
            raceId={raceId}
            value={draft.logo}
            required
            onChange={(value) => onChange(withKey(draft, 'logo', value ?? ''))}
          />
          <ImageField
            label={t('siteBasics.logoH5')}
            hint={t('siteBasics.logoH5Hint')}
            path={['logoH5']}
            problems={problems}
            raceId={raceId}
            value={draft.logoH5}
            onChange={(value) => onChange(withKey(draft, 'logoH5', value))}
          />
        </>,
        'site-basics-identity',
      )}
      {section(
        t('siteBasics.routeTitle'),
        t('siteBasics.routeHint'),
        routeValue !== undefined && !isObj(routeValue) ? (
          <BrokenPart name={ROUTE_MAP} />
        ) : (
          <>
            <PartProblems problems={problemsBeside(problems, [ROUTE_MAP], ROUTE_MAP_FIELDS)} />
            <ImageField
              label={t('siteBasics.routeImage')}
              path={[ROUTE_MAP, 'image']}
              problems={problems}
              raceId={raceId}
              value={route.image}
              onChange={(value) => updateRoute(withKey(route, 'image', value))}
            />
            <BilingualFields
              label={t('siteBasics.routeName')}
              object={route}
              path={[ROUTE_MAP]}
              field="title"
              problems={problems}
              onChange={updateRoute}
            />
            <BilingualFields
              label={t('siteBasics.routeSummary')}
              object={route}
              path={[ROUTE_MAP]}
              field="summary"
              multiline
              problems={problems}
              onChange={updateRoute}
            />
            <TextField
              label={t('siteBasics.routeLink')}
              hint={t('siteBasics.routeLinkHint')}
              path={[ROUTE_MAP, 'jumpUrl']}
              problems={problems}
              value={route.jumpUrl}
              placeholder="/race-information/race-route"
              onChange={(value) => updateRoute(withKey(route, 'jumpUrl', value))}
            />
          </>
        ),
        'site-basics-route',
      )}
    </EditorFrame>
  );
}

export const basicsEditor: SiteEditor = {
  key: 'basics',
  labelKey: 'siteBasics.tab',
  paths: ['websiteTitle', 'websiteTitleEn', 'logo', 'logoH5', ROUTE_MAP],
  order: 5,
  Component: BasicsEditor,
};
