import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import { resolveImageUrl, resolveWebLink } from '@/lib/url';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import type { SiteConfig } from '@/features/site-config/site-config-schema';

/** Footer (spec §1): copyright image (Chinese, English or mobile variant) and the filing links. */
export function Footer({ config }: { config: SiteConfig }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const copyright = resolveImageUrl(language === 'en' ? config.copyrightEn || config.copyright : config.copyright);
  const mobile = resolveImageUrl(config.copyrightH5);
  // The organiser's lines belong to a race: the preview shows none.
  const preview = useSiteStore((s) => s.mode) === 'preview';
  const lines = preview
    ? []
    : [t('layout.footer.slogan'), t('layout.footer.organizer'), t('layout.footer.hotline')].filter(Boolean);
  return (
    <footer className="footer" data-testid="site-footer">
      <div className="footer__inner">
        {lines.length ? (
          <div className="footer__lines">
            {lines.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
        ) : null}
        {copyright ? (
          <picture className="footer__copyright">
            {mobile ? <source media="(max-width: 768px)" srcSet={mobile} /> : null}
            <img src={copyright} alt={t('layout.footer.copyrightAlt')} width={1200} height={90} loading="lazy" />
          </picture>
        ) : null}
        {config.websiteRegInfo?.length ? (
          <nav className="footer__filings" aria-label={t('layout.footer.filings')}>
            {config.websiteRegInfo.map((item) => {
              const href = resolveWebLink(item.link);
              const label = pickLang(language, item.label, item.labelEn);
              return href ? (
                <a key={item.id} href={href} target="_blank" rel="noopener noreferrer">
                  {label}
                </a>
              ) : (
                <span key={item.id}>{label}</span>
              );
            })}
          </nav>
        ) : null}
      </div>
    </footer>
  );
}
