import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { getEnv } from '@/config/env';
import { UserIcon } from '@/components/ui/icons';
import { PATHS, REG_AREA_MY_INDEX } from '@/config/paths';
import { switchLanguage } from '@/lib/language';
import { pickLang } from '@/lib/pick-lang';
import { JumpLink } from '@/components/ui/jump-link';
import { isClickableLink, resolveImageUrl } from '@/lib/url';
import { adsShownAt } from '@/lib/sign-up-state';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import type { AdItem, SiteConfig } from '#contract/site-config/schema';

function BannerAd({ ad, language }: { ad: AdItem; language: 'zh' | 'en' }) {
  const src = resolveImageUrl(ad.surfacePlotUrl);
  if (!src) return null;
  const jump = language === 'en' && ad.jumpUrlEn ? ad.jumpUrlEn : ad.jumpUrl;
  const alt = pickLang(language, ad.title, ad.titleEn);
  const img = <img src={src} alt={alt} width={240} height={60} className="banner__ad-img" />;
  return isClickableLink(jump) ? (
    <JumpLink url={jump} allowInternal={false} className="banner__ad banner__ad--link">
      {img}
    </JumpLink>
  ) : (
    <span className="banner__ad">{img}</span>
  );
}

/** Top banner (spec §1): logo, optional ads, language toggle, login entry. */
export interface BannerProps {
  config: SiteConfig;
  title: string;
  /** Logs the visitor out (the app passes the account feature's logout). */
  onLogout?: () => Promise<void>;
}

export function Banner({ config, title, onLogout }: BannerProps) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const token = useAppStore((s) => s.token);
  const setLoginDrawerOpen = useAppStore((s) => s.setLoginDrawerOpen);
  const race = useSiteStore((s) => s.race);
  // When the page loaded: an ad shown only while sign-up is open follows its state on the next load.
  const [loadedAt] = useState(() => Date.now());
  const logo = resolveImageUrl(config.logo);
  const toEnglish = language === 'zh';

  const onAccount = () => {
    if (token) {
      window.open(`${getEnv().regAreaUrl}${REG_AREA_MY_INDEX}`, '_blank', 'noopener');
    } else {
      setLoginDrawerOpen(true);
    }
  };

  return (
    <header className="banner">
      <div className="banner__inner">
        <Link to="/home" className="banner__logo" aria-label={`${title} – ${t('layout.banner.homeLink')}`}>
          {logo ? (
            // width/height reserve the demo logo's 5:1 box before it loads; CSS keeps any logo's own ratio.
            <img src={logo} alt={title} width={280} height={56} fetchPriority="high" />
          ) : (
            <span className="banner__logo-text">{title}</span>
          )}
        </Link>
        <div className="banner__ads">
          {adsShownAt(config.bannerAdList ?? [], config, race, loadedAt)
            .slice(0, 3)
            .map((ad, i) => (
              <BannerAd key={`${ad.surfacePlotUrl}-${i}`} ad={ad} language={language} />
            ))}
        </div>
        <div className="banner__actions">
          <button
            type="button"
            className="banner__lang"
            data-testid="language-toggle"
            title={toEnglish ? t('layout.banner.toggleToEnTitle') : t('layout.banner.toggleToZhTitle')}
            lang={toEnglish ? 'en' : 'zh-CN'}
            onClick={() => void switchLanguage(toEnglish ? 'en' : 'zh')}
          >
            {toEnglish ? t('layout.banner.toggleToEn') : t('layout.banner.toggleToZh')}
          </button>
          {/* The language selector helper (spec §2: the I18NDemos route is reached from it). */}
          <Link
            to={PATHS.i18NDemos}
            className="banner__lang-more"
            data-testid="language-page-link"
            aria-label={t('layout.banner.languagePage')}
            title={t('layout.banner.languagePage')}
          >
            <svg viewBox="0 0 12 12" width="12" height="12" aria-hidden focusable="false">
              <path
                d="M2.5 4.5 6 8l3.5-3.5"
                stroke="currentColor"
                strokeWidth="1.5"
                fill="none"
                strokeLinecap="round"
              />
            </svg>
          </Link>
          <button type="button" className="banner__account" data-testid="login-entry" onClick={onAccount}>
            <UserIcon />
            <span>{token ? t('layout.banner.personalCenter') : t('layout.banner.login')}</span>
          </button>
          {token ? (
            <button type="button" className="banner__logout" data-testid="logout" onClick={() => void onLogout?.()}>
              {t('layout.banner.logout')}
            </button>
          ) : null}
        </div>
      </div>
    </header>
  );
}
