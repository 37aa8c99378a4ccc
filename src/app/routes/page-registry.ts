/**
 * The page modules that route items name by `component` (spec §2: "other names map to page modules").
 * Each page is loaded lazily. Pages add themselves here and their name to page-names.ts; an unknown name
 * renders the not-found page.
 */
import { createElement, lazy, type ComponentType } from 'react';
import type { PageComponentName } from '#contract/page-names';

/** A lazily loaded page that can be fetched ahead; once fetched, it renders at once (no loading flash). */
export type PageModule = ComponentType & { preload: () => Promise<void> };

function page(load: () => Promise<{ default: ComponentType }>): PageModule {
  let loaded: ComponentType | undefined;
  let pending: Promise<void> | undefined;
  const Lazy = lazy(load);
  const preload = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ));
  return Object.assign(() => createElement(loaded ?? Lazy), { preload });
}

const GalleryPage = page(() => import('@/features/content/components/gallery-page'));
const VideoPage = page(() => import('@/features/content/components/video-page'));

// Keyed by the names of page-names.ts: a page missing here or a name missing there does not compile.
export const pageRegistry: Record<PageComponentName, PageModule> = {
  Home: page(() => import('@/features/home/components/home-page')),
  DocumentPage: page(() => import('@/features/content/components/document-page')),
  NewsPage: page(() => import('@/features/content/components/news-page')),
  PartnerPage: page(() => import('@/features/content/components/partner-page')),
  GalleryPage,
  VideoPage,
  // The hidden main routes /image-collection and /video-collection show the same pages.
  ImageCollection: GalleryPage,
  VideoCollection: VideoPage,
  RegistrationSearch: page(() => import('@/features/search/components/registration-search-page')),
  ScoreSearch: page(() => import('@/features/search/components/score-search-page')),
  PbSearch: page(() => import('@/features/search/components/pb-search-page')),
  MultipleScoreSearch: page(() => import('@/features/search/components/multiple-score-search-page')),
  ImageSearch: page(() => import('@/features/search/components/image-search-page')),
  CertificateVerify: page(() => import('@/features/search/components/certificate-verify-page')),
};

export function findPage(name: string | undefined): PageModule | undefined {
  return name && Object.hasOwn(pageRegistry, name) ? pageRegistry[name as PageComponentName] : undefined;
}
