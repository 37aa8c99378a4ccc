/**
 * The personal centre's frame (issue 14 §5): a side menu (my registrations, profile, password, log out) beside
 * the page. Log out is the banner's (lib/logout.ts): the server revokes the token, the login is cleared here
 * and the page under the login guard asks for a login again.
 */
import { Button } from 'antd';
import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AntdScope } from '@/components/ui/antd-scope';
import { PATHS } from '@/config/paths';
import type { Load } from '@/lib/use-load';
import { useLogout } from '@/lib/logout';
import '../centre.css';
import '../centre-mobile.css';

const MENU = [
  { path: PATHS.myIndex, key: 'myIndex' },
  { path: PATHS.profile, key: 'profile' },
  { path: PATHS.participants, key: 'participants' },
  { path: PATHS.messages, key: 'messages' },
  { path: PATHS.password, key: 'password' },
] as const;

export function CentreFrame({ title, testId, children }: { title: string; testId: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const side = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // On the mobile site the menu is a tab bar that scrolls sideways: the current page's tab is brought into
  // view (centred). On the desktop site the menu never scrolls and nothing moves.
  useEffect(() => {
    const bar = side.current;
    const active = bar?.querySelector<HTMLElement>('.centre__menu-link--active');
    if (!bar || !active || bar.scrollWidth <= bar.clientWidth) return;
    const barBox = bar.getBoundingClientRect();
    const tabBox = active.getBoundingClientRect();
    bar.scrollLeft += tabBox.left - barBox.left - (barBox.width - tabBox.width) / 2;
  }, [pathname]);
  return (
    <div className="centre">
      <aside className="centre__side" ref={side}>
        <p className="centre__side-title">{t('centre.menu.title')}</p>
        <nav aria-label={t('centre.menu.title')}>
          <ul className="centre__menu">
            {MENU.map((item) => (
              <li key={item.key}>
                <NavLink
                  to={item.path}
                  className={({ isActive }) => `centre__menu-link${isActive ? ' centre__menu-link--active' : ''}`}
                  data-testid={`centre-menu-${item.key}`}
                >
                  {t(`centre.menu.${item.key}`)}
                </NavLink>
              </li>
            ))}
            <li>
              <button
                type="button"
                className="centre__menu-link centre__menu-logout"
                data-testid="centre-logout"
                onClick={() => void logout()}
              >
                {t('centre.menu.logout')}
              </button>
            </li>
          </ul>
        </nav>
      </aside>
      <section className="centre__main" data-testid={testId}>
        <h1 className="centre__title">{title}</h1>
        <AntdScope>{children}</AntdScope>
      </section>
    </div>
  );
}

/** A page's data: loading, failed (with a retry) or its content. */
export function LoadView<T>({
  load,
  retry,
  children,
}: {
  load: Load<T>;
  retry: () => void;
  children: (data: T) => React.ReactNode;
}) {
  const { t } = useTranslation();
  if (load.state === 'loading') {
    return (
      <p className="centre-note" role="status" data-testid="centre-loading">
        {t('centre.load.loading')}
      </p>
    );
  }
  if (load.state === 'failed') {
    return (
      <div className="centre-panel centre-panel--off" role="alert" data-testid="centre-failed">
        <p>{load.message}</p>
        <Button onClick={retry}>{t('centre.load.retry')}</Button>
      </div>
    );
  }
  return <>{children(load.data)}</>;
}
