/**
 * Turns the route items of a site configuration (static menu groups and the remote route list) into one
 * flat route table under the layout, and the menu tree (spec §2). Pure functions, tested alone.
 *
 * - 'Layout' marks the container: its children hang under the layout root '/'.
 * - 'ParentView' (or a group with children and no component) is flattened: its children become routes
 *   of their own, with joined paths; the group's path redirects (to `redirect`, else its first child).
 * - Any other component name is a page module looked up in the registry by the caller.
 */
import type { SiteMenuNode } from '@/components/layouts/site-menu';
import { isCharity, joinPath } from '@/lib/content';
import type { RouteItem, SiteConfig } from '#contract/site-config/schema';

import { LAYOUT, PARENT_VIEW } from '#contract/page-names';

export { LAYOUT, PARENT_VIEW };

/**
 * The shell a route renders in: 'site' is the layout (banner, menu, main area, footer); 'bare' is a
 * top-level screen outside it (spec §2 "Top-level routes"): banner and page only, a focused screen for the
 * registration forms, still with the login drawer and the error boundary.
 */
export type RouteLayout = 'site' | 'bare';

export interface RouteHandle {
  name?: string;
  /** Which shell the route renders in (the router groups routes by it). */
  layout?: RouteLayout;
  /** A logged-out visitor sees the login drawer instead of the page, and the page once logged in. */
  requiresAuth?: boolean;
  title?: string;
  titleEn?: string;
  parent?: string;
  dataPath?: string;
  activeMenu?: string;
  hidden?: boolean;
  component?: string;
}

export type FlatRoute =
  | { kind: 'page'; path: string; component: string; handle: RouteHandle }
  | { kind: 'redirect'; path: string; to: string; handle: RouteHandle };

/** One node of the menu tree, as the layout's menu renders it. */
export type MenuNode = SiteMenuNode;

function handleOf(item: RouteItem, component?: string): RouteHandle {
  return {
    name: item.name,
    title: item.meta?.title,
    titleEn: item.meta?.titleEn,
    parent: item.meta?.parent,
    dataPath: item.meta?.dataPath,
    activeMenu: item.meta?.activeMenu,
    hidden: item.hidden ?? item.meta?.hidden,
    component,
  };
}

function isGroup(item: RouteItem): boolean {
  return item.component === PARENT_VIEW || (!item.component && !!item.children?.length);
}

/** Removes the charity pages when the environment does not show them (spec §3 show_charitable). */
export { isCharity };

export function filterRoutes(items: RouteItem[], keep: (item: RouteItem) => boolean): RouteItem[] {
  return items
    .filter(keep)
    .map((item) => (item.children ? { ...item, children: filterRoutes(item.children, keep) } : item));
}

export function flattenRoutes(items: RouteItem[], base = '/'): FlatRoute[] {
  const out: FlatRoute[] = [];
  for (const item of items) {
    if (item.meta?.link) continue; // external menu links are not routes
    const path = joinPath(base, item.path);
    if (isGroup(item)) {
      const children = item.children ?? [];
      const first = children.find((c) => !c.meta?.link);
      const to = item.redirect ? joinPath(path, item.redirect) : first ? joinPath(path, first.path) : undefined;
      if (to && to !== path) out.push({ kind: 'redirect', path, to, handle: handleOf(item) });
      out.push(...flattenRoutes(children, path));
      continue;
    }
    if (item.redirect && !item.component) {
      out.push({ kind: 'redirect', path, to: joinPath(path, item.redirect), handle: handleOf(item) });
      continue;
    }
    if (item.component)
      out.push({ kind: 'page', path, component: item.component, handle: handleOf(item, item.component) });
    if (item.children?.length) out.push(...flattenRoutes(item.children, path));
  }
  return out;
}

/** Splits the remote route list into what goes under the layout and what stands alone. */
export function splitRemoteRoutes(items: RouteItem[]): { underLayout: RouteItem[]; topLevel: RouteItem[] } {
  const underLayout: RouteItem[] = [];
  const topLevel: RouteItem[] = [];
  for (const item of items) {
    if (item.component === LAYOUT) {
      for (const child of item.children ?? []) {
        underLayout.push({ ...child, path: joinPath(item.path || '/', child.path) });
      }
    } else {
      topLevel.push(item);
    }
  }
  return { underLayout, topLevel };
}

export function menuOf(items: RouteItem[], base = '/'): MenuNode[] {
  const nodes: MenuNode[] = [];
  for (const item of items) {
    if (item.hidden || item.meta?.hidden || !item.meta?.title) continue;
    const path = joinPath(base, item.path);
    const children = item.children?.length ? menuOf(item.children, path) : undefined;
    nodes.push({
      key: item.meta.link ? `link:${item.meta.link}` : path,
      title: item.meta.title,
      titleEn: item.meta.titleEn,
      path: item.meta.link ? undefined : path,
      link: item.meta.link,
      children: children?.length ? children : undefined,
    });
  }
  return nodes;
}

function withLayout(routes: FlatRoute[], layout: RouteLayout): FlatRoute[] {
  return routes.map((route) => ({ ...route, handle: { ...route.handle, layout } }));
}

export interface SiteRoutes {
  /** Routes under the layout root, paths absolute. */
  layoutRoutes: FlatRoute[];
  /** Routes outside the layout, paths absolute. */
  topLevelRoutes: FlatRoute[];
  menu: MenuNode[];
}

export function buildSiteRoutes(config: SiteConfig, { showCharitable }: { showCharitable: boolean }): SiteRoutes {
  const keep = (item: RouteItem) => showCharitable || !isCharity(item);
  const groups = filterRoutes(config.menuGroups ?? [], keep);
  const { underLayout, topLevel } = splitRemoteRoutes(filterRoutes(config.remoteAsyncRoutes ?? [], keep));
  const layoutItems = [...groups, ...underLayout];
  return {
    layoutRoutes: withLayout(flattenRoutes(layoutItems), 'site'),
    topLevelRoutes: withLayout(flattenRoutes(topLevel), 'bare'),
    menu: menuOf(layoutItems),
  };
}
