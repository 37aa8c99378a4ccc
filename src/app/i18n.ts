/**
 * i18next with the built-in resources (src/locales) in one namespace, zh default. The entry carries the
 * shell's Chinese texts (zh/common.json, the fallback of every text); the English shell texts arrive before
 * English is first used, and each feature's texts (home, content, auth, search, registration) with the pages
 * that use them (lib/locale-bundles.ts) under the feature's key. Remote translation files
 * (map key → {en, zh}) merge over the built-in texts, the lazily loaded ones included.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import zhCommon from '@/locales/zh/common.json';
import type zhHome from '@/locales/zh/home.json';
import type zhContent from '@/locales/zh/content.json';
import type zhAuth from '@/locales/zh/auth.json';
import type zhSearch from '@/locales/zh/search.json';
import type zhRegistration from '@/locales/zh/registration.json';
import type zhEntry from '@/locales/zh/entry.json';
import type zhCentre from '@/locales/zh/centre.json';
import type { TranslationFile } from '#contract/site-config/race-types';
import { loadTextsFor } from '@/lib/locale-bundles';
import type { Language } from '@/stores/app-store';

export const defaultNS = 'common';
/** What the entry carries: the shell's Chinese texts (lib/locale-bundles.ts fetches the English ones). */
export const resources = {
  zh: { common: zhCommon },
} as const;

/** Every text of the namespace, the lazily loaded feature bundles included (typed keys, i18next.d.ts). */
export type Resources = typeof zhCommon & {
  home: typeof zhHome;
  content: typeof zhContent;
  auth: typeof zhAuth;
  search: typeof zhSearch;
  registration: typeof zhRegistration;
  entry: typeof zhEntry;
  centre: typeof zhCentre;
};

export async function initI18n(language: Language): Promise<typeof i18n> {
  if (!i18n.isInitialized) {
    // English shell texts, fetched alongside; merged once i18next is set up. Should they fail to arrive, the
    // texts fall back to Chinese (in the entry), never a raw key, as on a failed switch (lib/language.ts).
    const shellTexts = loadTextsFor(language).catch(() => undefined);
    await i18n.use(initReactI18next).init({
      // Copies: i18next merges later bundles into these objects, and the JSON modules stay as imported.
      resources: structuredClone(resources),
      lng: language,
      fallbackLng: 'zh',
      defaultNS,
      ns: [defaultNS],
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    await shellTexts;
  } else if (i18n.language !== language) {
    await loadTextsFor(language);
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
