import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { saveUserData, userDataSchema } from '@/lib/user-data';
import { useAppStore } from '@/stores/app-store';
import { login, type LoginInput } from '../api/login';
import { useSubmitting } from './use-submitting';

/**
 * Logs in: stores the token and user data, closes the drawer (the banner then shows personal centre).
 * A refusal shows the server's message (api client toast) and leaves the drawer open.
 */
export function useLogin() {
  const { t } = useTranslation();
  const { loading, run } = useSubmitting();

  const submit = (input: LoginInput) =>
    run(async () => {
      const data = userDataSchema.safeParse(await login(input));
      if (!data.success) {
        notify.error(t('errors.somethingWrong'));
        return;
      }
      saveUserData(data.data);
      useAppStore.getState().setLoginDrawerOpen(false);
      notify.success(t('auth.messages.loginSuccess'));
    });

  return { submit, loading };
}
