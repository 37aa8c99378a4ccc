/**
 * The preview configuration (spec §1): used when no race is bound to the host, or when the race's
 * configuration cannot be loaded. Its images ship with the SPA (public/preview/).
 */
import type { SiteConfig } from '#contract/site-config/schema';

export function previewConfig(origin = window.location.origin): SiteConfig {
  const asset = (name: string) => `${origin}${import.meta.env.BASE_URL}preview/${name}`;
  return {
    version: 'preview',
    websiteTitle: '赛事官网预览',
    websiteTitleEn: 'Race website preview',
    logo: asset('logo.svg'),
    copyright: asset('copyright.svg'),
    copyrightEn: asset('copyright-en.svg'),
    websiteRegInfo: [],
    menuGroups: [],
    remoteAsyncRoutes: [],
    contentGroups: {},
  };
}
