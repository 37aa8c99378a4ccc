/**
 * Feature texts arrive with the pages that use them (issue #11 §4), so the first paint carries only the
 * shell's texts (locales/<lang>/common.json) and the texts of the page it shows. The shell's Chinese texts
 * (the default language and every text's fallback) are in the entry; another language's shell texts are a
 * chunk of their own, fetched before that language is used (start-up in English, a switch), like a feature
 * bundle (issue #29 §5: the home page's JS before first paint).
 *
 * Each feature file (locales/<lang>/<feature>.json) is a chunk of its own, fetched in the current language
 * when a page, drawer or action of that feature first needs it, and merged into the one namespace under
 * the feature's key: `t('search.form.name')` reads as before. Whatever needs a bundle awaits it before it
 * renders (the page registry, the login drawer), so no raw key is ever shown. A language switch first
 * fetches the other language's copy of every bundle already in use (lib/language.ts), then switches.
 *
 * Remote translations (app/i18n.ts mergeTranslations) win: a bundle is merged without overwriting, so a
 * remote text merged before its bundle arrives stays, and one merged later replaces the built-in text.
 */
import i18n from 'i18next';
import type { Language } from '@/stores/app-store';

export const LOCALE_BUNDLES = ['auth', 'content', 'home', 'search', 'registration', 'entry', 'centre'] as const;
export type LocaleBundle = (typeof LOCALE_BUNDLES)[number];

/** The one namespace every text lives in (app/i18n.ts). */
const NAMESPACE = 'common';

// One lazily imported chunk per language and feature; zh/common.json is in the entry (app/i18n.ts).
const files = import.meta.glob<Record<string, unknown>>(['../locales/*/*.json', '!../locales/zh/common.json'], {
  import: 'default',
});
/** The shell's texts (common.json) of a language other than zh, merged at the namespace's root. */
const SHELL = 'common';

const inUse = new Set<LocaleBundle>();
const loads = new Map<string, Promise<void>>();
const loaded = new Set<string>();
/** The language being switched to (set before i18next switches), so a bundle asked for meanwhile comes in both. */
let target: Language | undefined;

function fetchBundle(bundle: LocaleBundle | typeof SHELL, language: Language): Promise<void> {
  const key = `${language}/${bundle}`;
  let load = loads.get(key);
  if (!load) {
    const importer = files[`../locales/${key}.json`];
    if (!importer) return Promise.reject(new Error(`No texts for ${key}`));
    load = importer().then(
      (texts) => {
        // deep merge, no overwrite: remote texts already merged under this key stay.
        const add = () =>
          i18n.addResourceBundle(language, NAMESPACE, bundle === SHELL ? texts : { [bundle]: texts }, true, false);
        if (i18n.isInitialized) add();
        else i18n.on('initialized', add); // fetched ahead during start-up, before i18next is set up
        loaded.add(key);
      },
      (error: unknown) => {
        loads.delete(key); // a failed chunk load may be retried (the route's error screen offers a refresh)
        throw error;
      },
    );
    loads.set(key, load);
  }
  return load;
}

function activeLanguages(): Language[] {
  // Before i18next is set up (a page fetched ahead during start-up), the language start-up announced.
  const current: Language = i18n.language ? (i18n.language === 'en' ? 'en' : 'zh') : (target ?? 'zh');
  return target && target !== current ? [current, target] : [current];
}

/** Fetches feature texts in the active language (once each); resolves when `t()` can read them. */
export async function loadTexts(...bundles: LocaleBundle[]): Promise<void> {
  for (const bundle of bundles) inUse.add(bundle);
  const languages = activeLanguages();
  await Promise.all(bundles.flatMap((bundle) => languages.map((language) => fetchBundle(bundle, language))));
}

/**
 * Before using `language` (at start-up, or switching to it): its shell texts unless they are the entry's
 * (zh), and its copy of every bundle in use, so the switch shows no raw key.
 */
export async function loadTextsFor(language: Language): Promise<void> {
  target = language;
  await Promise.all([
    ...(language === 'zh' ? [] : [fetchBundle(SHELL, language)]),
    ...[...inUse].map((bundle) => fetchBundle(bundle, language)),
  ]);
}

/** Whether a bundle's texts in a language have been fetched (tests and diagnostics). */
export function textsLoaded(bundle: LocaleBundle, language: Language): boolean {
  return loaded.has(`${language}/${bundle}`);
}
