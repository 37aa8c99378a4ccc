/**
 * The page modules that route items name by `component` (spec §2: "other names map to page modules").
 * Each page is loaded lazily. Pages add themselves here; an unknown name renders the not-found page.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type PageModule = LazyExoticComponent<ComponentType>;

const GalleryPage = lazy(() => import('@/features/content/components/gallery-page'));
const VideoPage = lazy(() => import('@/features/content/components/video-page'));

export const pageRegistry: Record<string, PageModule> = {
  Home: lazy(() => import('@/features/home/components/home-page')),
  DocumentPage: lazy(() => import('@/features/content/components/document-page')),
  NewsPage: lazy(() => import('@/features/content/components/news-page')),
  PartnerPage: lazy(() => import('@/features/content/components/partner-page')),
  GalleryPage,
  VideoPage,
  // The hidden main routes /image-collection and /video-collection show the same pages.
  ImageCollection: GalleryPage,
  VideoCollection: VideoPage,
  RegistrationSearch: lazy(() => import('@/features/search/components/registration-search-page')),
  ScoreSearch: lazy(() => import('@/features/search/components/score-search-page')),
  PbSearch: lazy(() => import('@/features/search/components/pb-search-page')),
  MultipleScoreSearch: lazy(() => import('@/features/search/components/multiple-score-search-page')),
  ImageSearch: lazy(() => import('@/features/search/components/image-search-page')),
  CertificateVerify: lazy(() => import('@/features/search/components/certificate-verify-page')),
};

export function findPage(name: string | undefined): PageModule | undefined {
  return name && Object.hasOwn(pageRegistry, name) ? pageRegistry[name] : undefined;
}
