/**
 * Language (spec §4): zh (default) or en, kept in the cookie 'language'. Switching changes i18next, the
 * dayjs locale and (through the store) antd's locale, and shows a success message. When cookies are
 * blocked the choice is kept in memory for the session (lib/storage.ts).
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import { getEnv } from '@/config/env';
import { loadTextsFor } from '@/lib/locale-bundles';
import { notify } from '@/lib/notify';
import { cookies } from '@/lib/storage';
import { useAppStore, type Language } from '@/stores/app-store';

export const LANGUAGE_COOKIE = 'language';

export function readLanguageCookie(): Language {
  return cookies.get(LANGUAGE_COOKIE) === 'en' ? 'en' : 'zh';
}

/** The cookie is shared across the organiser's sub-domains when the site runs under the root domain. */
function cookieDomain(hostname = window.location.hostname): string | undefined {
  const root = getEnv().rootDomain;
  return hostname === root || hostname.endsWith(`.${root}`) ? root : undefined;
}

/** Applies a language without saving it or telling the visitor (start-up). */
export async function applyLanguage(language: Language): Promise<void> {
  // The feature texts in use come in the new language first, so the switch never shows a raw key. If they
  // cannot be fetched, the texts fall back to Chinese (already loaded), still no raw key.
  await loadTextsFor(language).catch(() => undefined);
  dayjs.locale(language === 'en' ? 'en' : 'zh-cn');
  document.documentElement.lang = language === 'en' ? 'en' : 'zh-CN';
  if (i18n.language !== language) await i18n.changeLanguage(language);
  useAppStore.getState().setLanguageState(language);
}

/** The visitor switches the language: saved in the cookie, applied, confirmed with a message. */
export async function switchLanguage(language: Language): Promise<void> {
  cookies.set(LANGUAGE_COOKIE, language, { expires: 365, path: '/', sameSite: 'Lax', domain: cookieDomain() });
  await applyLanguage(language);
  notify.success(i18n.t('layout.language.switched'));
}
