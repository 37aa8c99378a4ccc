import i18n from 'i18next';
import { siteTitle } from '#contract/site-config/first-screen';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';

export { siteTitle };

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
