import type { Language } from '@/stores/app-store';
import { pickText } from '#contract/site-config/first-screen';

/**
 * Picks the text of the active language from a Chinese / English pair; English falls back to Chinese when
 * it is missing or blank (spec §2 "English falls back to Chinese").
 */
export const pickLang: (lang: Language, zh: string | undefined, en: string | undefined) => string = pickText;
