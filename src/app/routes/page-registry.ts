/**
 * The page modules that route items name by `component` (spec §2: "other names map to page modules").
 * Each page is loaded lazily. Pages add themselves here; an unknown name renders the not-found page.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type PageModule = LazyExoticComponent<ComponentType>;

export const pageRegistry: Record<string, PageModule> = {
  Home: lazy(() => import('@/features/home/components/home-page')),
};

export function findPage(name: string | undefined): PageModule | undefined {
  return name && Object.hasOwn(pageRegistry, name) ? pageRegistry[name] : undefined;
}
