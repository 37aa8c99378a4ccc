/**
 * i18next with the built-in resources (src/locales) in one namespace, zh default. Remote translation
 * files (map key → {en, zh}) merge over the built-in texts.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import zhCommon from '@/locales/zh/common.json';
import enCommon from '@/locales/en/common.json';
import zhHome from '@/locales/zh/home.json';
import enHome from '@/locales/en/home.json';
import zhContent from '@/locales/zh/content.json';
import enContent from '@/locales/en/content.json';
import zhAuth from '@/locales/zh/auth.json';
import enAuth from '@/locales/en/auth.json';
import zhSearch from '@/locales/zh/search.json';
import enSearch from '@/locales/en/search.json';
import type { TranslationFile } from '#contract/site-config/race-types';
import type { Language } from '@/stores/app-store';

export const defaultNS = 'common';
/** One namespace; each feature keeps its texts in its own file (locales/<lang>/<feature>.json) under its key. */
export const resources = {
  zh: { common: { ...zhCommon, home: zhHome, content: zhContent, auth: zhAuth, search: zhSearch } },
  en: { common: { ...enCommon, home: enHome, content: enContent, auth: enAuth, search: enSearch } },
} as const;

export type Resources = (typeof resources)['zh']['common'];

export async function initI18n(language: Language): Promise<typeof i18n> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources,
      lng: language,
      fallbackLng: 'zh',
      defaultNS,
      ns: [defaultNS],
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  } else if (i18n.language !== language) {
    await i18n.changeLanguage(language);
  }
  return i18n;
}

/** Merges a remote translation file over the built-in texts; malformed entries are skipped. */
export function mergeTranslations(file: unknown): number {
  if (!file || typeof file !== 'object' || Array.isArray(file)) return 0;
  let merged = 0;
  for (const [key, value] of Object.entries(file as TranslationFile)) {
    if (!key || !value || typeof value !== 'object') continue;
    for (const lang of ['zh', 'en'] as const) {
      const text = (value as Record<string, unknown>)[lang];
      if (typeof text === 'string') {
        i18n.addResource(lang, defaultNS, key, text);
        merged += 1;
      }
    }
  }
  return merged;
}

export { i18n };
