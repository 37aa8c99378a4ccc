import i18n from 'i18next';
import type { SiteConfig } from '#contract/site-config/schema';
import type { RaceInfo } from '#contract/site-config/race-types';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';

/** Site title: the race year plus the event name (spec §1). */
export function siteTitle(
  race: Pick<RaceInfo, 'startTime' | 'raceName' | 'raceNameEn'> | null,
  config: Pick<SiteConfig, 'websiteTitle' | 'websiteTitleEn'>,
  language: 'zh' | 'en',
): string {
  const year = race?.startTime?.slice(0, 4);
  const name =
    language === 'en'
      ? config.websiteTitleEn || race?.raceNameEn || config.websiteTitle
      : config.websiteTitle || race?.raceName || '';
  if (!year || !/^\d{4}$/.test(year)) return name;
  return language === 'en' ? `${year} ${name}` : `${year}${name}`;
}

/** The site title in the active language, for the banner and the document title ('Unbound race' in preview). */
export function useSiteTitle(): string {
  const language = useAppStore((s) => s.language);
  const race = useSiteStore((s) => s.race);
  const config = useSiteStore((s) => s.config);
  const mode = useSiteStore((s) => s.mode);
  const previewReason = useSiteStore((s) => s.previewReason);
  if (mode === 'preview') {
    const screen = previewReason === 'unpublished' ? 'unpublished' : 'preview';
    return i18n.t(`pages.${screen}.pageTitle`, { lng: language });
  }
  return config ? siteTitle(race, config, language) : '';
}
