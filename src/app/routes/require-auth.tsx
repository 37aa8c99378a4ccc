/**
 * The login guard of routes whose meta says `requiresAuth` (issue #11 §4). A logged-out visitor arriving
 * on such a route gets the login drawer at once; the page stays under it, not rendered. Logging in closes
 * the drawer and the page renders where the visitor is: the same path and query, nothing to redirect.
 * Closing the drawer without logging in leaves a clear "please log in" screen with a button that opens the
 * drawer again and a way back to the home page (no bounce to another page, the address stays shareable).
 */
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATHS } from '@/config/paths';
import { useAppStore } from '@/stores/app-store';

function LoginRequired() {
  const { t } = useTranslation();
  const setLoginDrawerOpen = useAppStore((s) => s.setLoginDrawerOpen);
  return (
    <section className="page-state" data-testid="login-required">
      <h1 className="page-state__title">{t('pages.loginRequired.title')}</h1>
      <p className="page-state__text">{t('pages.loginRequired.description')}</p>
      <div className="page-state__actions">
        <button
          type="button"
          className="button button--primary"
          data-testid="login-required-login"
          onClick={() => setLoginDrawerOpen(true)}
        >
          {t('pages.loginRequired.login')}
        </button>
        <Link className="button" to={PATHS.home}>
          {t('pages.loginRequired.backHome')}
        </Link>
      </div>
    </section>
  );
}

export function RequireAuth({ children }: { children: React.ReactNode }) {
  const token = useAppStore((s) => s.token);
  const { pathname } = useLocation();

  // On arrival (and on moving to another guarded route) a logged-out visitor gets the drawer. Losing the
  // login while on the page (logging out) does not pop it up again: the "please log in" screen is enough.
  useEffect(() => {
    const { token: current, setLoginDrawerOpen } = useAppStore.getState();
    if (!current) setLoginDrawerOpen(true);
  }, [pathname]);

  return token ? <>{children}</> : <LoginRequired />;
}
