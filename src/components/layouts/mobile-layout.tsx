/**
 * The mobile site's shell (#16): a sticky top bar (mobile logo, menu button, language toggle, login entry),
 * a full-height menu sheet with the same tree as the desktop hover menu, and the link between the two sites.
 * Styles in mobile.css, all scoped under html[data-site='mobile'].
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATHS } from '@/config/paths';
import { UserIcon } from '@/components/ui/icons';
import { switchLanguage } from '@/lib/language';
import { isMobileSite, isMobileUserAgent, otherSiteUrl, readSiteChoice, switchSite } from '@/lib/mobile-site';
import { pickLang } from '@/lib/pick-lang';
import { resolveImageUrl } from '@/lib/url';
import { useAppStore } from '@/stores/app-store';
import type { SiteConfig } from '#contract/site-config/schema';
import { isActive, MenuLink, type SiteMenuNode } from './site-menu';
import './mobile.css';

function MenuIcon() {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden focusable="false">
      <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
    </svg>
  );
}

interface MenuSheetProps {
  nodes: SiteMenuNode[];
  activeKey: string;
  id: string;
  onClose: () => void;
  onLogout?: () => Promise<void>;
}

/** Tab and Shift+Tab go round the sheet's own links and buttons (a modal dialog keeps the focus). */
function keepFocusInside(e: React.KeyboardEvent<HTMLElement>) {
  const items = [...e.currentTarget.querySelectorAll<HTMLElement>('a[href], button')];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

/** The full-height menu sheet: every group expanded, Escape or the close button shuts it. */
function MenuSheet({ nodes, activeKey, id, onClose, onLogout }: MenuSheetProps) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const token = useAppStore((s) => s.token);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    closeRef.current?.focus();
    document.documentElement.classList.add('m-sheet-open');
    return () => document.documentElement.classList.remove('m-sheet-open');
  }, []);

  const linkClass = (node: SiteMenuNode) =>
    isActive(node, activeKey) ? 'm-sheet__link m-sheet__link--active' : 'm-sheet__link';

  return (
    // The sheet listens for Escape and for clicks on the links inside it (a link followed closes it).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <div
      id={id}
      className="m-sheet"
      role="dialog"
      aria-modal="true"
      aria-label={t('mobile.shell.menuTitle')}
      data-testid="mobile-menu-sheet"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
        if (e.key === 'Tab') keepFocusInside(e);
      }}
      onClick={(e) => {
        if ((e.target as HTMLElement).closest('a')) onClose();
      }}
    >
      <div className="m-sheet__head">
        <span className="m-sheet__title">{t('mobile.shell.menuTitle')}</span>
        <button
          ref={closeRef}
          type="button"
          className="m-sheet__close"
          aria-label={t('mobile.shell.closeMenu')}
          data-testid="mobile-menu-close"
          onClick={onClose}
        >
          ✕
        </button>
      </div>
      <nav className="m-sheet__nav" aria-label={t('layout.menu.ariaLabel')}>
        <ul className="m-sheet__list">
          {nodes.map((node) =>
            node.children?.length ? (
              <li key={node.key} className="m-sheet__group">
                <span className="m-sheet__group-title">{pickLang(language, node.title, node.titleEn)}</span>
                <ul className="m-sheet__sublist">
                  {node.children.map((child) => (
                    <li key={child.key}>
                      <MenuLink node={child} language={language} className={linkClass(child)} />
                    </li>
                  ))}
                </ul>
              </li>
            ) : (
              <li key={node.key}>
                <MenuLink node={node} language={language} className={linkClass(node)} />
              </li>
            ),
          )}
        </ul>
      </nav>
      {/* The language selector helper (spec §2: the I18NDemos route is reached from it). */}
      <Link to={PATHS.i18NDemos} className="m-sheet__lang-page" data-testid="language-page-link">
        {t('layout.banner.languagePage')}
      </Link>
      {token ? (
        <button
          type="button"
          className="m-sheet__logout"
          data-testid="mobile-logout"
          onClick={() => {
            onClose();
            void onLogout?.();
          }}
        >
          {t('layout.banner.logout')}
        </button>
      ) : null}
    </div>
  );
}

export interface MobileTopBarProps {
  config: SiteConfig;
  title: string;
  menu: SiteMenuNode[];
  activeKey: string;
  onLogout?: () => Promise<void>;
  /** A top-level screen: no menu button. */
  bare?: boolean;
}

/** The mobile top bar (52 px, sticky) and its menu sheet. */
export function MobileTopBar({ config, title, menu, activeKey, onLogout, bare = false }: MobileTopBarProps) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const token = useAppStore((s) => s.token);
  const setLoginDrawerOpen = useAppStore((s) => s.setLoginDrawerOpen);
  const location = useLocation();
  const navigate = useNavigate();
  // The page the sheet was opened on: a page change (a link in the sheet, the back button) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.pathname;
  const menuButton = useRef<HTMLButtonElement>(null);
  const sheetId = useId();
  const logo = resolveImageUrl(config.logoH5 || config.logo);
  const toEnglish = language === 'zh';

  const close = () => {
    setOpenOn(null);
    menuButton.current?.focus();
  };

  // The personal centre opens in this tab on a phone (the desktop banner opens the registration area in a
  // new one; on a phone that is a detour, and the registration area sends a phone back to /m/ anyway).
  const onAccount = () => {
    if (token) void navigate(PATHS.myIndex);
    else setLoginDrawerOpen(true);
  };

  return (
    <header className="m-bar" data-testid="mobile-top-bar">
      {bare || !menu.length ? null : (
        <button
          ref={menuButton}
          type="button"
          className="m-bar__button m-bar__menu"
          aria-label={t('mobile.shell.openMenu')}
          aria-expanded={open}
          aria-controls={open ? sheetId : undefined}
          data-testid="mobile-menu-button"
          onClick={() => setOpenOn(location.pathname)}
        >
          <MenuIcon />
        </button>
      )}
      <Link to="/home" className="m-bar__logo" aria-label={`${title} – ${t('layout.banner.homeLink')}`}>
        {logo ? (
          <img src={logo} alt={title} width={160} height={32} fetchPriority="high" />
        ) : (
          <span className="m-bar__logo-text">{title}</span>
        )}
      </Link>
      <button
        type="button"
        className="m-bar__button m-bar__lang"
        data-testid="language-toggle"
        title={toEnglish ? t('layout.banner.toggleToEnTitle') : t('layout.banner.toggleToZhTitle')}
        lang={toEnglish ? 'en' : 'zh-CN'}
        onClick={() => void switchLanguage(toEnglish ? 'en' : 'zh')}
      >
        {toEnglish ? t('layout.banner.toggleToEn') : t('layout.banner.toggleToZh')}
      </button>
      <button type="button" className="m-bar__button m-bar__account" data-testid="login-entry" onClick={onAccount}>
        <UserIcon />
        <span className="m-bar__account-text">
          {token ? t('layout.banner.personalCenter') : t('layout.banner.login')}
        </span>
      </button>
      {open ? <MenuSheet nodes={menu} activeKey={activeKey} id={sheetId} onClose={close} onLogout={onLogout} /> : null}
    </header>
  );
}

/**
 * The link between the two sites, in the footer: on the mobile site '电脑版 / Desktop site'; on the
 * desktop site, only for a phone whose visitor chose the desktop site, '手机版 / Mobile site'. Either
 * remembers the choice and keeps the page (the hash).
 */
export function SiteSwitchLink() {
  const { t } = useTranslation();
  const mobile = isMobileSite();
  // (No navigator while the server renders the desktop first screen, src/app/boot/home-first-screen.tsx.)
  const phone = typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent);
  if (!mobile && !(phone && readSiteChoice() === 'desktop')) return null;
  const target = mobile ? 'desktop' : 'mobile';
  return (
    <p className="footer__site-switch">
      <a
        href={otherSiteUrl(target)}
        data-testid="site-switch"
        onClick={(e) => {
          e.preventDefault();
          switchSite(target);
        }}
      >
        {mobile ? t('mobile.shell.desktopSite') : t('mobile.shell.mobileSite')}
      </a>
    </p>
  );
}
