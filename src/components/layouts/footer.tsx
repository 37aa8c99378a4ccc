import { useTranslation } from 'react-i18next';
import { isMobileSite } from '@/lib/mobile-site';
import { pickLang } from '@/lib/pick-lang';
import { resolveImageUrl, resolveWebLink } from '@/lib/url';
import { useAppStore, type Language } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import { SiteSwitchLink } from './mobile-layout';
import type { EventInfo, SiteConfig } from '#contract/site-config/schema';

interface EventLines {
  slogan: string;
  organizers: { role: string; names: string }[];
  hotline: string;
  hours: string;
  email: string;
}

/** The event's own lines (organisers, hotline, e-mail) in the active language; Chinese is the fallback. */
function eventLines(info: EventInfo | undefined, language: Language): EventLines {
  return {
    slogan: pickLang(language, info?.slogan, info?.sloganEn),
    organizers: (info?.organizers ?? []).map((o) => ({
      role: pickLang(language, o.role, o.roleEn),
      names: pickLang(language, o.names, o.namesEn),
    })),
    hotline: info?.hotline ?? '',
    hours: pickLang(language, info?.hotlineHours, info?.hotlineHoursEn),
    email: info?.email ?? '',
  };
}

/**
 * Footer (spec §1): the event's slogan, organisers and contacts and its follow-us QR codes, all from this
 * domain's site configuration (never from server-wide files, so two races on one server never mix), then
 * the copyright image (Chinese, English or mobile variant) and the filing links.
 */
export function Footer({ config }: { config: SiteConfig }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const copyright = resolveImageUrl(language === 'en' ? config.copyrightEn || config.copyright : config.copyright);
  const mobile = resolveImageUrl(config.copyrightH5);
  // The organiser's lines belong to a race: the preview shows none.
  const preview = useSiteStore((s) => s.mode) === 'preview';
  const lines = eventLines(preview ? undefined : config.eventInfo, language);
  const qrCodes = preview ? [] : (config.qrCodeList ?? []).filter((q) => resolveImageUrl(q.src));
  const hasLines = Boolean(lines.slogan || lines.organizers.length || lines.hotline || lines.email);
  return (
    <footer className="footer" data-testid="site-footer">
      <div className="footer__inner">
        {hasLines || qrCodes.length ? (
          <div className="footer__event">
            {hasLines ? (
              <div className="footer__lines" data-testid="footer-event-lines">
                {lines.slogan ? <p className="footer__slogan">{lines.slogan}</p> : null}
                {lines.organizers.map((o) => (
                  <p key={`${o.role}${o.names}`}>
                    <span className="footer__role">{o.role}</span>
                    {o.names}
                  </p>
                ))}
                {lines.hotline || lines.email ? (
                  <p className="footer__contacts">
                    {lines.hotline ? (
                      <span>
                        <span className="footer__role">{t('layout.footer.hotline')}</span>
                        <a href={`tel:${lines.hotline.replace(/[^\d+]/g, '')}`}>{lines.hotline}</a>
                        {lines.hours ? t('layout.footer.hotlineHours', { hours: lines.hours }) : null}
                      </span>
                    ) : null}
                    {lines.email ? (
                      <span>
                        <span className="footer__role">{t('layout.footer.email')}</span>
                        <a href={`mailto:${lines.email}`}>{lines.email}</a>
                      </span>
                    ) : null}
                  </p>
                ) : null}
              </div>
            ) : null}
            {qrCodes.length ? (
              <section className="footer__follow" aria-label={t('layout.footer.followUs')}>
                <h2 className="footer__follow-title">{t('layout.footer.followUs')}</h2>
                <ul className="footer__qr-list">
                  {qrCodes.map((qr) => {
                    const label = pickLang(language, qr.label, qr.labelEn);
                    return (
                      <li key={qr.id} className="footer__qr">
                        <img
                          src={resolveImageUrl(qr.src)}
                          alt={t('layout.footer.qrAlt', { label })}
                          width={96}
                          height={96}
                          loading="lazy"
                        />
                        <span>{label}</span>
                      </li>
                    );
                  })}
                </ul>
              </section>
            ) : null}
          </div>
        ) : null}
        {copyright ? (
          <picture className="footer__copyright">
            {mobile ? <source media="(max-width: 768px)" srcSet={mobile} /> : null}
            <img
              src={isMobileSite() && mobile ? mobile : copyright}
              alt={t('layout.footer.copyrightAlt')}
              width={1200}
              height={90}
              loading="lazy"
            />
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
        <SiteSwitchLink />
      </div>
    </footer>
  );
}
