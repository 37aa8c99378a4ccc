/**
 * Reading the content of the site configuration: the documents at a route's dataPath, and the route
 * path that shows a given dataPath (so the home page can link into the news pages).
 */
import type { DocumentPage, RouteItem, SiteConfig } from '#contract/site-config/schema';

/** Documents at a dotted dataPath ("raceInformation.raceRules"); [] when the group or list is absent. */
export function getDocuments(config: SiteConfig | null, dataPath: string | undefined): DocumentPage[] {
  if (!config?.contentGroups || !dataPath) return [];
  const [group, sub] = dataPath.split('.');
  const list = sub ? config.contentGroups[group]?.[sub] : undefined;
  return Array.isArray(list) ? list : [];
}

/** Joins a route path to its parent's: '/a' + 'b' → '/a/b'; an absolute path stands alone. */
export function joinPath(base: string, path: string): string {
  const raw = path.startsWith('/') ? path : `${base.replace(/\/+$/, '')}/${path}`;
  return `/${raw.split('/').filter(Boolean).join('/')}`;
}

export interface RouteEntry {
  item: RouteItem;
  /** Absolute path. */
  path: string;
}

function* walk(items: RouteItem[], base: string, parent?: RouteEntry): Generator<RouteEntry & { parent?: RouteEntry }> {
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const path =
      item.component === 'Layout' ? joinPath(base, item.path || '/') : joinPath(base, String(item.path ?? ''));
    yield { item, path, parent };
    if (Array.isArray(item.children)) yield* walk(item.children, path, { item, path });
  }
}

/** Every route item of the configuration with its absolute path (menu groups, then remote routes). */
export function allRoutes(config: SiteConfig | null): (RouteEntry & { parent?: RouteEntry })[] {
  if (!config) return [];
  const list = (items: unknown) => (Array.isArray(items) ? (items as RouteItem[]) : []);
  return [...walk(list(config.menuGroups), '/'), ...walk(list(config.remoteAsyncRoutes), '/')];
}

/** The path of the first route that shows `dataPath`, if any. */
export function findRoutePathByDataPath(config: SiteConfig | null, dataPath: string): string | undefined {
  return allRoutes(config).find(({ item }) => item.meta?.dataPath === dataPath)?.path;
}

/** The route item named `name` with its absolute path, if any. */
export function findRouteByName(config: SiteConfig | null, name: string): RouteEntry | undefined {
  return allRoutes(config).find(({ item }) => item.name === name);
}

/** The charity pages, left out when the environment does not show them (spec §3 show_charitable). */
export function isCharity(item: RouteItem): boolean {
  return item.name === 'charity' || !!item.meta?.dataPath?.startsWith('charity.');
}

/** A section of the site: a named route (usually a menu group) and its visible child routes. */
export interface RouteSection {
  group: RouteEntry;
  /** Visible children, in order; an external menu link keeps its `meta.link`. */
  entries: RouteEntry[];
}

/**
 * The section a route belongs to (spec §2 "A button-bar lists child routes of a named route"): the route
 * named by `parent` when given, otherwise the group that holds the route (found by its path, else by its
 * name). The layout container and the top level are not sections, nor is a route without visible
 * children. Hidden children and those `keep` rejects are left out.
 */
export function findRouteSection(
  config: SiteConfig | null,
  route: { name?: string; path?: string; parent?: string },
  keep: (item: RouteItem) => boolean = () => true,
): RouteSection | undefined {
  const routes = allRoutes(config);
  const sectionOf = (group: RouteEntry | undefined): RouteSection | undefined => {
    if (!group || group.item.component === 'Layout' || !Array.isArray(group.item.children)) return undefined;
    const entries = group.item.children
      .filter(
        (child) =>
          child &&
          typeof child === 'object' &&
          !child.hidden &&
          !child.meta?.hidden &&
          !!child.meta?.title &&
          keep(child),
      )
      .map((child) => ({ item: child, path: joinPath(group.path, String(child.path ?? '')) }));
    return entries.length ? { group, entries } : undefined;
  };
  const named = route.parent ? sectionOf(routes.find(({ item }) => item.name === route.parent)) : undefined;
  if (named) return named;
  const path = route.path?.toLowerCase();
  const self =
    (path ? routes.find((r) => r.path.toLowerCase() === path) : undefined) ??
    (route.name ? routes.find(({ item }) => item.name === route.name) : undefined);
  return sectionOf(self?.parent);
}
