/**
 * The console's areas. Each folder under pages/ has a `meta.ts` exporting `area`; the shell finds them all
 * (app.tsx) and builds the side menu and the routes from them, so an area is added by adding its folder. The
 * menu hides what the signed-in role may not do; the server refuses it anyway (contract/staff.ts).
 */
import type { ComponentType } from 'react';
import type { StaffPermission } from '#contract/staff';

export type PageModule = { default: ComponentType };

export interface ConsoleRoute {
  /** Relative to the area: under /races/:raceId/ when the area is race-scoped, else under /. */
  path: string;
  load: () => Promise<PageModule>;
}

export interface ConsoleArea {
  /** The area's key: its menu key and the file name of its texts (locales/<lang>/<key>.json). */
  key: string;
  /** The area's path: `/races/:raceId/<path>` when race-scoped, else `/<path>`. */
  path: string;
  /** Whether the area works on one race (chosen in the top bar's race picker). */
  raceScoped: boolean;
  /** What the area needs; any of them when a list (the server checks each call). */
  permission: StaffPermission | readonly StaffPermission[] | null;
  /** The menu label's i18n key. */
  labelKey: string;
  /** An icon from @ant-design/icons (import it by its own path). */
  icon?: ComponentType;
  /** The place in the menu: lower first. */
  order: number;
  /** Shown in the side menu; false for an area reached only by link. */
  menu?: boolean;
  load: () => Promise<PageModule>;
  /** Further pages inside the area (an entry's detail page), relative to the area's base (see ConsoleRoute). */
  routes?: ConsoleRoute[];
}

/** Whether a member with `permissions` may use `area`. */
export function areaAllowed(area: ConsoleArea, permissions: readonly StaffPermission[]): boolean {
  if (area.permission === null) return true;
  const needed: readonly StaffPermission[] = typeof area.permission === 'string' ? [area.permission] : area.permission;
  return needed.some((p) => permissions.includes(p));
}

/** The absolute path of an area (for links and the menu), given the race in view. */
export function areaPath(area: Pick<ConsoleArea, 'path' | 'raceScoped'>, raceId: string | undefined): string {
  return area.raceScoped ? `/races/${encodeURIComponent(raceId ?? '')}/${area.path}` : `/${area.path}`;
}
