/**
 * The mobile site's first screen (#16): what a phone shows from the document the server sends, before the
 * app's code has arrived: the site title, the mobile logo and the first carousel slide (the home page's
 * largest image). The reference server writes it into the page it answers for /m/ (server/src/lib/
 * first-screen.ts); the SPA's own first render uses the same rules (src/lib/url.ts, src/lib/site-title.ts,
 * the home carousel), so the page the app draws stands exactly where the first screen stood.
 */
import { inspectLink } from '#contract/link-safety';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { SiteConfig } from '#contract/site-config/schema';

export type SiteLanguage = 'zh' | 'en';

/** The text of the language from a Chinese / English pair; English falls back to Chinese (spec §2). */
export function pickText(language: SiteLanguage, zh: string | undefined, en: string | undefined): string {
  if (language === 'en' && en && en.trim() !== '') return en;
  return zh ?? en ?? '';
}

/**
 * Site title: the race year plus the event name (spec §1); a name that already starts with the year (a race named
 * "2028 Harbour 10K", as a new event's starter site takes it) keeps it once.
 */
export function siteTitle(
  race: Pick<RaceInfo, 'startTime' | 'raceName' | 'raceNameEn'> | null,
  config: Pick<SiteConfig, 'websiteTitle' | 'websiteTitleEn'>,
  language: SiteLanguage,
): string {
  const year = race?.startTime?.slice(0, 4);
  const name =
    language === 'en'
      ? config.websiteTitleEn || race?.raceNameEn || config.websiteTitle
      : config.websiteTitle || race?.raceName || '';
  if (!year || !/^\d{4}$/.test(year) || name.startsWith(year)) return name;
  return language === 'en' ? `${year} ${name}` : `${year}${name}`;
}

const ABSOLUTE_FILE = /^(https?:\/\/|blob:)/i;

/**
 * A file or image URL from a config (spec §5 "URLs"): http, https and blob URLs as they are, anything else a
 * path on the host; script, data and file links never (undefined).
 */
export function resolveOnHost(url: string | null | undefined, host: string): string | undefined {
  const value = url?.trim();
  if (!value || inspectLink(value).kind === 'blocked') return undefined;
  if (ABSOLUTE_FILE.test(value)) return value;
  return `${host.replace(/\/+$/, '')}/${value.replace(/^\/+/, '')}`;
}

/** The carousel's first slide with a usable image, as the carousel shows it. */
export function firstCarouselSlide(
  config: Pick<SiteConfig, 'carouselList'> | null | undefined,
  imageHost: string,
): { src: string; title?: string; titleEn?: string } | undefined {
  for (const item of config?.carouselList ?? []) {
    const src = resolveOnHost(item?.surfacePlotUrl, imageHost);
    if (src) return { src, title: item.title, titleEn: item.titleEn };
  }
  return undefined;
}

export interface FirstScreen {
  title: string;
  /** The mobile logo (logoH5, else the logo). */
  logo?: string;
  /** The first carousel slide; its alt is the slide's title, else the site title. */
  hero?: { src: string; alt: string };
}

export function firstScreenOf(
  config: SiteConfig,
  race: RaceInfo | null,
  language: SiteLanguage,
  imageHost: string,
): FirstScreen {
  const title = siteTitle(race, config, language);
  const slide = firstCarouselSlide(config, imageHost);
  return {
    title,
    logo: resolveOnHost(config.logoH5 || config.logo, imageHost),
    hero: slide ? { src: slide.src, alt: pickText(language, slide.title, slide.titleEn) || title } : undefined,
  };
}
