/**
 * Reading the content of the site configuration: the documents at a route's dataPath, and the route
 * path that shows a given dataPath (so the home page can link into the news pages).
 */
import type { DocumentPage, RouteItem, SiteConfig } from '@/features/site-config/site-config-schema';

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

function* walk(items: RouteItem[], base: string): Generator<{ item: RouteItem; path: string }> {
  for (const item of items) {
    const path = item.component === 'Layout' ? joinPath(base, item.path || '/') : joinPath(base, item.path);
    yield { item, path };
    if (item.children) yield* walk(item.children, path);
  }
}

/** Every route item of the configuration with its absolute path (menu groups, then remote routes). */
export function allRoutes(config: SiteConfig | null): { item: RouteItem; path: string }[] {
  if (!config) return [];
  return [...walk(config.menuGroups ?? [], '/'), ...walk(config.remoteAsyncRoutes ?? [], '/')];
}

/** The path of the first route that shows `dataPath`, if any. */
export function findRoutePathByDataPath(config: SiteConfig | null, dataPath: string): string | undefined {
  return allRoutes(config).find(({ item }) => item.meta?.dataPath === dataPath)?.path;
}

/** The route item named `name` with its absolute path, if any. */
export function findRouteByName(config: SiteConfig | null, name: string): { item: RouteItem; path: string } | undefined {
  return allRoutes(config).find(({ item }) => item.name === name);
}
