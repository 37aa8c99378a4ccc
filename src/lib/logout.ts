/**
 * Logging out (spec §4 "Clearing user data"): tells the server (the token is revoked), clears the login here
 * whatever it answers, confirms. Shared by the banner's logout (app/site-layout.tsx) and the personal
 * centre's menu.
 */
import { useTranslation } from 'react-i18next';
import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';
import { loadTexts } from '@/lib/locale-bundles';
import { notify } from '@/lib/notify';
import { clearUserData } from '@/lib/user-data';
import { useAppStore } from '@/stores/app-store';

/** POST logout with the token header (added by the api client); failures are silent, login is cleared anyway. */
export async function logout(): Promise<void> {
  await apiRequest<unknown>({ method: 'POST', url: API_PATHS.logout, silent: true });
}

/** Logs out: tells the server (the token is revoked), clears the login here whatever it answers, confirms. */
export function useLogout(): () => Promise<void> {
  const { t } = useTranslation();
  return async () => {
    // The confirmation is an account text: fetched meanwhile when the drawer has not brought it yet.
    const texts = loadTexts('auth').catch(() => undefined);
    try {
      await logout();
    } catch {
      // Logging out locally is what matters; a refused or failed call changes nothing for the visitor.
    }
    clearUserData();
    // An expired token answers "login expired": after a logout that is no reason to ask for a new login.
    useAppStore.getState().setReloginConfirmOpen(false);
    await texts;
    notify.success(t('auth.messages.logoutSuccess'));
  };
}
