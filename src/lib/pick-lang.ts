import type { Language } from '@/stores/app-store';

/**
 * Picks the text of the active language from a Chinese / English pair; English falls back to Chinese when
 * it is missing or blank (spec §2 "English falls back to Chinese").
 */
export function pickLang(lang: Language, zh: string | undefined, en: string | undefined): string {
  if (lang === 'en' && en && en.trim() !== '') return en;
  return zh ?? en ?? '';
}
