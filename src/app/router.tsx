/**
 * The hash router (spec §2): the layout root with Home, the hidden search pages, the configuration's menu
 * groups and remote routes, and not-found; beside it the top-level routes (/upload, /direct, /post,
 * /confirm, /i18NDemos and remote ones) in the bare layout. Each route's meta (handle) names its layout and
 * whether it needs login; a route that does renders behind the login guard (routes/require-auth.tsx).
 * In preview mode every path shows the preview root screen.
 */
import { Navigate, createHashRouter, type RouteObject } from 'react-router-dom';
import i18n from 'i18next';
import { getEnv } from '@/config/env';
import { SiteLayout } from './site-layout';
import { NotFound } from '@/components/ui/not-found';
import { RouteError } from '@/components/ui/route-error';
import type { SiteConfig } from '#contract/site-config/schema';
import { HIDDEN_MAIN_ROUTES, HOME_ROUTE, TOP_LEVEL_ROUTES } from './routes/main-routes';
import { findPage } from './routes/page-registry';
import { PreviewScreen } from './routes/preview-screen';
import { RequireAuth } from './routes/require-auth';
import { buildSiteRoutes, type FlatRoute, type MenuNode, type RouteLayout } from './routes/route-model';

/** The page a route shows: its registered module, else not-found; behind the login guard when it needs login. */
function toRouteObject(route: FlatRoute): RouteObject {
  const path = route.path.replace(/^\/+/, '');
  if (route.kind === 'redirect') {
    return { path, element: <Navigate to={route.to} replace />, handle: route.handle, errorElement: <RouteError /> };
  }
  const Page = findPage(route.component);
  const page = Page ? <Page /> : <NotFound component={route.component} />;
  const element = route.handle.requiresAuth ? <RequireAuth>{page}</RequireAuth> : page;
  return { path, element, handle: route.handle, errorElement: <RouteError /> };
}

function uniqueByPath(routes: FlatRoute[]): FlatRoute[] {
  const seen = new Set<string>();
  return routes.filter((r) => (seen.has(r.path) ? false : (seen.add(r.path), true)));
}

/** A registration screen (or the sign-up page) needs login wherever the remote route list mounts it. */
const NEEDS_LOGIN = new Set(
  [...TOP_LEVEL_ROUTES, ...HIDDEN_MAIN_ROUTES].flatMap((r) =>
    r.kind === 'page' && r.handle.requiresAuth ? [r.component] : [],
  ),
);
function withPageMeta(route: FlatRoute): FlatRoute {
  return route.kind === 'page' && NEEDS_LOGIN.has(route.component)
    ? { ...route, handle: { ...route.handle, requiresAuth: true } }
    : route;
}

export function homeMenuNode(): MenuNode {
  return {
    key: HOME_ROUTE.path,
    path: HOME_ROUTE.path,
    title: i18n.t('layout.menu.home', { lng: 'zh' }),
    titleEn: i18n.t('layout.menu.home', { lng: 'en' }),
  };
}

/** The configuration's routes and menu (spec §2), as the layout shows them. */
export const siteRoutes = (config: SiteConfig) => buildSiteRoutes(config, { showCharitable: getEnv().showCharitable });

/** The layout's menu: Home, then the configuration's menu (the desktop first screen draws the same). */
export const siteMenu = (site: ReturnType<typeof siteRoutes>): MenuNode[] => [homeMenuNode(), ...site.menu];

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
  const site = siteRoutes(config);
  const builtIn = [
    HOME_ROUTE,
    ...HIDDEN_MAIN_ROUTES.filter((r) => r.kind === 'page' && findPage(r.component)),
    ...TOP_LEVEL_ROUTES,
  ];
  // Built-in routes first: their meta (layout, login) wins over a remote route of the same path.
  const routes = uniqueByPath([...builtIn, ...[...site.layoutRoutes, ...site.topLevelRoutes].map(withPageMeta)]);
  const inLayout = (layout: RouteLayout) => routes.filter((r) => (r.handle.layout ?? 'site') === layout);
  return [
    {
      path: '/',
      element: <SiteLayout menu={siteMenu(site)} />,
      errorElement: <RouteError />,
      handle: { name: 'layout' },
      children: [
        { index: true, element: <Navigate to={HOME_ROUTE.path} replace /> },
        ...inLayout('site').map(toRouteObject),
        { path: '*', element: <NotFound />, handle: { name: 'notFound' } },
      ],
    },
    {
      // The top-level screens: no menu or footer, but the banner, the login drawer and the error boundary.
      element: <SiteLayout menu={[]} bare />,
      errorElement: <RouteError />,
      handle: { name: 'bareLayout' },
      children: inLayout('bare').map(toRouteObject),
    },
  ];
}

export function createAppRouter(config: SiteConfig, mode: 'bound' | 'preview') {
  return createHashRouter(createAppRoutes(config, mode));
}
