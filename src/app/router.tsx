/**
 * The hash router (spec §2): the layout root with Home, the hidden search pages, the configuration's menu
 * groups and remote routes; top-level remote routes outside the layout; not-found inside the layout.
 * In preview mode every path shows the preview root screen.
 */
import { Suspense } from 'react';
import { Navigate, createHashRouter, type RouteObject } from 'react-router-dom';
import i18n from 'i18next';
import { getEnv } from '@/config/env';
import { SiteLayout } from './site-layout';
import { NotFound } from '@/components/ui/not-found';
import { PageLoading } from '@/components/ui/page-loading';
import { RouteError } from '@/components/ui/route-error';
import type { SiteConfig } from '#contract/site-config/schema';
import { HIDDEN_MAIN_ROUTES, HOME_ROUTE } from './routes/main-routes';
import { findPage } from './routes/page-registry';
import { PreviewScreen } from './routes/preview-screen';
import { buildSiteRoutes, type FlatRoute, type MenuNode } from './routes/route-model';

function toRouteObject(route: FlatRoute, relative: boolean): RouteObject {
  const path = relative ? route.path.replace(/^\/+/, '') : route.path;
  if (route.kind === 'redirect') {
    return { path, element: <Navigate to={route.to} replace />, handle: route.handle };
  }
  const Page = findPage(route.component);
  const element = Page ? <Page /> : <NotFound component={route.component} />;
  return { path, element, handle: route.handle };
}

function uniqueByPath(routes: FlatRoute[]): FlatRoute[] {
  const seen = new Set<string>();
  return routes.filter((r) => (seen.has(r.path) ? false : (seen.add(r.path), true)));
}

export function homeMenuNode(): MenuNode {
  return {
    key: HOME_ROUTE.path,
    path: HOME_ROUTE.path,
    title: i18n.t('layout.menu.home', { lng: 'zh' }),
    titleEn: i18n.t('layout.menu.home', { lng: 'en' }),
  };
}

export function createAppRoutes(config: SiteConfig, mode: 'bound' | 'preview'): RouteObject[] {
  if (mode === 'preview') {
    return [
      {
        path: '*',
        element: (
          <SiteLayout menu={[]}>
            <PreviewScreen />
          </SiteLayout>
        ),
        errorElement: <RouteError />,
        handle: { name: 'preview' },
      },
    ];
  }
  const site = buildSiteRoutes(config, { showCharitable: getEnv().showCharitable });
  const mainRoutes = [HOME_ROUTE, ...HIDDEN_MAIN_ROUTES.filter((r) => r.kind === 'page' && findPage(r.component))];
  const layoutChildren = uniqueByPath([...mainRoutes, ...site.layoutRoutes]).map((r) => toRouteObject(r, true));
  return [
    {
      path: '/',
      element: <SiteLayout menu={[homeMenuNode(), ...site.menu]} />,
      errorElement: <RouteError />,
      handle: { name: 'layout' },
      children: [
        { index: true, element: <Navigate to={HOME_ROUTE.path} replace /> },
        ...layoutChildren.map((r) => ({ ...r, errorElement: <RouteError /> })),
        { path: '*', element: <NotFound />, handle: { name: 'notFound' } },
      ],
    },
    ...site.topLevelRoutes.map((r) => {
      const object = toRouteObject(r, false);
      return { ...object, element: <Suspense fallback={<PageLoading />}>{object.element}</Suspense> };
    }),
  ];
}

export function createAppRouter(config: SiteConfig, mode: 'bound' | 'preview') {
  return createHashRouter(createAppRoutes(config, mode));
}
