import { useMemo } from 'react';
import { useMatches } from 'react-router-dom';
import { getEnv } from '@/config/env';
import { findRouteSection, getDocuments, isCharity } from '@/lib/content';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore, type Language } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import type { DocumentPage, RouteItem, SiteConfig } from '#contract/site-config/schema';
import { isDocument, list, text } from '../utils/content-items';

/** What a content page reads from its route's handle (built by src/app/routes from the route metadata). */
export interface ContentRouteHandle {
  name?: string;
  title?: string;
  titleEn?: string;
  parent?: string;
  dataPath?: string;
}

export interface SectionLink {
  key: string;
  label: string;
  /** Route of this site. */
  to?: string;
  /** External menu link (opens in a new tab). */
  href?: string;
}

export interface ContentRoute {
  config: SiteConfig | null;
  language: Language;
  handle: ContentRouteHandle;
  /** The matched path, e.g. "/race-information/race-rules". */
  pathname: string;
  /** The route's own title in the active language. */
  title: string;
  /** The section (menu group or the route named by `parent`), when the route sits in one. */
  section?: { title: string; to?: string; links: SectionLink[] };
}

const keepRoute = (item: RouteItem) => getEnv().showCharitable || !isCharity(item);

/** The last matched route's handle, its section and title, with the config and the language. */
export function useContentRoute(): ContentRoute {
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const raw = leaf?.handle;
  const handle = (raw && typeof raw === 'object' ? raw : {}) as ContentRouteHandle;
  const pathname = leaf?.pathname ?? '';
  const config = useSiteStore((s) => s.config);
  const language = useAppStore((s) => s.language);

  const { name, parent, title, titleEn } = handle;
  const section = useMemo(() => {
    const found = findRouteSection(config, { name, path: pathname, parent }, keepRoute);
    if (!found) return undefined;
    const links: SectionLink[] = found.entries.map(({ item, path }) => ({
      key: path,
      label: pickLang(language, text(item.meta?.title), text(item.meta?.titleEn)),
      ...(item.meta?.link ? { href: item.meta.link } : { to: path }),
    }));
    const meta = found.group.item.meta;
    return {
      title: pickLang(language, text(meta?.title), text(meta?.titleEn)),
      to: links.find((l) => l.to)?.to,
      links,
    };
  }, [config, name, pathname, parent, language]);

  return {
    config,
    language,
    handle,
    pathname,
    title: pickLang(language, text(title), text(titleEn)),
    section,
  };
}

/** The well-formed documents at a dataPath ([] when the group, the list or the path is missing). */
export function useDocuments(config: SiteConfig | null, dataPath: string | undefined): DocumentPage[] {
  return useMemo(
    () => list(getDocuments(config, typeof dataPath === 'string' ? dataPath : undefined)).filter(isDocument),
    [config, dataPath],
  );
}
