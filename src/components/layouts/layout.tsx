import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { getEnv } from '@/config/env';
import { PageLoading } from '@/components/ui/page-loading';
import { useAppStore } from '@/stores/app-store';
import { isMobileSite } from '@/lib/mobile-site';
import { useSiteTitle } from '@/lib/site-title';
import { useSiteStore } from '@/stores/site-store';
import { Banner } from './banner';
import { DebugBadge } from './debug-badge';
import { Footer } from './footer';
import { MobileTopBar } from './mobile-layout';
import { SiteMenu, type SiteMenuNode } from './site-menu';

/** Routes whose main area is grey (spec §2 Layout). Names are compared without dashes or case. */
const GREY_ROUTES = new Set(['registrationsearch', 'scoresearch', 'activitybulletin', 'racenews']);
const norm = (s: string) => s.replace(/[-_]/g, '').toLowerCase();

interface Handle {
  name?: string;
  activeMenu?: string;
}

export interface LayoutProps {
  menu: SiteMenuNode[];
  /** Content instead of the routed page (the preview root screen). */
  children?: React.ReactNode;
  /** Drawers and dialogs over every page (the app passes the account feature's login drawer). */
  overlays?: React.ReactNode;
  /** The banner's logout action. */
  onLogout?: () => Promise<void>;
  /** A top-level screen (route layout 'bare'): banner and page only, no menu and no footer. */
  bare?: boolean;
}

/**
 * The layout shell: banner, hover menu, main area, footer (spec §2 Layout, §9 widths); a top-level screen
 * (`bare`) keeps the banner (logo home, language, login) and leaves out the menu and the footer. On the
 * mobile site (/m/, #16) the banner and the menu give way to the mobile top bar and its menu sheet.
 */
export function Layout({ menu, children, overlays, onLogout, bare = false }: LayoutProps) {
  const { t } = useTranslation();
  const config = useSiteStore((s) => s.config);
  const title = useSiteTitle();
  const location = useLocation();
  const matches = useMatches();
  const leaf = matches[matches.length - 1]?.handle as Handle | undefined;
  const lastSegment = location.pathname.split('/').filter(Boolean).pop() ?? '';
  const grey = GREY_ROUTES.has(norm(leaf?.name ?? '')) || GREY_ROUTES.has(norm(lastSegment));
  const activeKey = leaf?.activeMenu ?? location.pathname;
  const setWidths = useAppStore((s) => s.setWidths);

  useEffect(() => {
    const measure = () =>
      setWidths({
        clientWidth: document.documentElement.clientWidth,
        scrollBarWidth: window.innerWidth - document.documentElement.clientWidth,
      });
    measure();
    // spec §9: the layout is measured again 500 ms after mount (fonts and images settle by then).
    const timer = window.setTimeout(measure, 500);
    window.addEventListener('resize', measure);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('resize', measure);
    };
  }, [setWidths]);

  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [location.pathname]);

  useEffect(() => {
    if (title) document.title = title;
  }, [title]);

  if (!config) return null;
  return (
    <div className={bare ? 'site site--bare' : 'site'} data-layout={bare ? 'bare' : 'site'}>
      {/* The first stop of the Tab key. Hash routing owns the URL's #, so the link moves focus itself. */}
      <a
        className="skip-link"
        href="#main-content"
        data-testid="skip-link"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
      >
        {t('layout.menu.skipToContent')}
      </a>
      {isMobileSite() ? (
        <MobileTopBar config={config} title={title} menu={menu} activeKey={activeKey} onLogout={onLogout} bare={bare} />
      ) : (
        <>
          <Banner config={config} title={title} onLogout={onLogout} />
          {bare ? null : <SiteMenu nodes={menu} activeKey={activeKey} />}
        </>
      )}
      <main
        id="main-content"
        tabIndex={-1}
        className={grey ? 'main main--grey' : 'main'}
        data-testid="main"
        data-grey={grey || undefined}
      >
        <Suspense fallback={<PageLoading />}>{children ?? <Outlet />}</Suspense>
      </main>
      {bare ? null : <Footer config={config} />}
      {getEnv().debug ? <DebugBadge /> : null}
      {overlays}
    </div>
  );
}
