/**
 * The page modules that route items name by `component` (spec §2: "other names map to page modules").
 * Each page is loaded lazily, together with its feature's texts (lib/locale-bundles.ts): the lazy module
 * resolves only once both are in, so a page never renders a raw key. Pages add themselves here and their
 * name to page-names.ts; an unknown name renders the not-found page.
 */
import { createElement, lazy, type ComponentType } from 'react';
import { loadTexts, type LocaleBundle } from '@/lib/locale-bundles';
import type { PageComponentName } from '#contract/page-names';

/** A lazily loaded page that can be fetched ahead; once fetched, it renders at once (no loading flash). */
export type PageModule = ComponentType & { preload: () => Promise<void> };

function page(importPage: () => Promise<{ default: ComponentType }>, texts: LocaleBundle[]): PageModule {
  let loaded: ComponentType | undefined;
  let pending: Promise<void> | undefined;
  const load = () => Promise.all([importPage(), loadTexts(...texts)]).then(([module]) => module);
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

const GalleryPage = page(() => import('@/features/content/components/gallery-page'), ['content']);
const VideoPage = page(() => import('@/features/content/components/video-page'), ['content']);

// Keyed by the names of page-names.ts: a page missing here or a name missing there does not compile.
export const pageRegistry: Record<PageComponentName, PageModule> = {
  Home: page(() => import('@/features/home/components/home-page'), ['home']),
  DocumentPage: page(() => import('@/features/content/components/document-page'), ['content']),
  NewsPage: page(() => import('@/features/content/components/news-page'), ['content']),
  PartnerPage: page(() => import('@/features/content/components/partner-page'), ['content']),
  GalleryPage,
  VideoPage,
  // The hidden main routes /image-collection and /video-collection show the same pages.
  ImageCollection: GalleryPage,
  VideoCollection: VideoPage,
  RegistrationSearch: page(() => import('@/features/search/components/registration-search-page'), ['search']),
  ScoreSearch: page(() => import('@/features/search/components/score-search-page'), ['search']),
  PbSearch: page(() => import('@/features/search/components/pb-search-page'), ['search']),
  MultipleScoreSearch: page(() => import('@/features/search/components/multiple-score-search-page'), ['search']),
  ImageSearch: page(() => import('@/features/search/components/image-search-page'), ['search']),
  CertificateVerify: page(() => import('@/features/search/components/certificate-verify-page'), ['search']),
  SignUp: page(() => import('@/features/registration/components/sign-up-page'), ['registration', 'entry']),
  Ballot: page(() => import('@/features/registration/components/ballot-page'), ['registration', 'entry']),
  // The personal centre (issue #14 §5), at reg/#/my/… and in the site itself.
  MyIndex: page(() => import('@/features/centre/components/my-index-page'), ['centre']),
  MyOrder: page(() => import('@/features/centre/components/order-page'), ['centre']),
  MyProfile: page(() => import('@/features/centre/components/profile-page'), ['centre']),
  MyPassword: page(() => import('@/features/centre/components/password-page'), ['centre']),
  MyParticipants: page(() => import('@/features/centre/components/participants-page'), ['centre']),
  MyLetter: page(() => import('@/features/centre/components/letter-page'), ['centre']),
  MyPickup: page(() => import('@/features/centre/components/pickup-page'), ['centre']),
  MyRefund: page(() => import('@/features/centre/components/refund-page'), ['centre']),
  MyMessages: page(() => import('@/features/centre/components/messages-page'), ['centre']),
  PickupCheckIn: page(() => import('@/features/centre/components/pickup-check-in-page'), ['centre']),
};

/** The top-level screens of spec §2 (routes in main-routes.ts TOP_LEVEL_ROUTES). */
export type TopLevelPageName = 'Upload' | 'Direct' | 'Post' | 'Confirm' | 'I18NDemos';

/**
 * The pages of the top-level screens (issue #13 §4): the registration feature's, with its locale bundle. A
 * slot left empty would show the not-found page, behind the login guard where the route needs login.
 */
export const topLevelPages: Partial<Record<TopLevelPageName, PageModule>> = {
  Upload: page(() => import('@/features/registration/components/upload-page'), ['registration']),
  Direct: page(() => import('@/features/registration/components/direct-page'), ['registration']),
  Post: page(() => import('@/features/registration/components/post-page'), ['registration']),
  Confirm: page(() => import('@/features/registration/components/confirm-page'), ['registration', 'search']),
  I18NDemos: page(() => import('@/features/registration/components/i18n-demos-page'), ['registration']),
};

export function findPage(name: string | undefined): PageModule | undefined {
  if (!name) return undefined;
  if (Object.hasOwn(pageRegistry, name)) return pageRegistry[name as PageComponentName];
  return Object.hasOwn(topLevelPages, name) ? topLevelPages[name as TopLevelPageName] : undefined;
}
