/**
 * The console's texts: one file per area, locales/<lang>/<area>.json, found by a glob; a key starts with its
 * file's name (`t('shell.title')` is locales/zh/shell.json's "title"). zh is the default; both languages
 * have the same keys (admin/src/locales.test.ts).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { ConsoleLanguage } from './store';

type Tree = Record<string, unknown>;

const files = import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' });

export const CONSOLE_RESOURCES: Record<ConsoleLanguage, Tree> = { zh: {}, en: {} };
for (const [file, texts] of Object.entries(files)) {
  const match = /\/locales\/(zh|en)\/([\w-]+)\.json$/.exec(file);
  if (match) CONSOLE_RESOURCES[match[1] as ConsoleLanguage][match[2]!] = texts;
}

export function startI18n(language: ConsoleLanguage) {
  return i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    resources: {
      zh: { translation: CONSOLE_RESOURCES.zh },
      en: { translation: CONSOLE_RESOURCES.en },
    },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}

export { i18n };
