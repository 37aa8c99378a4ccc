import { useTranslation } from 'react-i18next';
import { loadTexts } from '@/lib/locale-bundles';
import { notify } from '@/lib/notify';
import { clearUserData } from '@/lib/user-data';
import { useAppStore } from '@/stores/app-store';
import { logout } from '../api/logout';

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
