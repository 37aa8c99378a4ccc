import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SafeHtml, isBlankHtml } from '@/components/ui/safe-html';
import { resolveImageUrl } from '@/lib/url';
import type { Language } from '@/stores/app-store';
import { PARTNER_CATEGORY_ORDER, type DocumentPage } from '#contract/site-config/schema';
import { useContentRoute, useDocuments } from '../hooks/use-content-route';
import { text } from '../utils/content-items';
import { groupPartners, withoutLeadingLabel } from '../utils/partner-groups';
import { ContentEmpty } from './content-empty';
import { ContentHeader, ListHeading } from './content-header';
import { documentBody, documentTitle } from './document-view';
import '../content.css';

type PartnerCategory = (typeof PARTNER_CATEGORY_ORDER)[number];
const isPartnerCategory = (code: string): code is PartnerCategory =>
  (PARTNER_CATEGORY_ORDER as readonly string[]).includes(code);

function PartnerCard({ doc, language, labels }: { doc: DocumentPage; language: Language; labels: string[] }) {
  const { t } = useTranslation();
  const name = documentTitle(doc, language);
  const logo = resolveImageUrl(text(doc.icon));
  const body = documentBody(doc, language);
  const html = withoutLeadingLabel(body.html, labels);
  return (
    <li className="partner-card" data-testid="partner-card">
      <div className="partner-card__logo">
        {logo ? (
          <img
            src={logo}
            alt={t('content.partners.logoAlt', { name })}
            width={240}
            height={120}
            loading="lazy"
            decoding="async"
          />
        ) : (
          <span className="partner-card__logo-text">{name}</span>
        )}
      </div>
      <h3 className="partner-card__name">{name}</h3>
      {isBlankHtml(html) ? null : (
        <div className="partner-card__body" lang={body.fallback ? 'zh-CN' : undefined}>
          <SafeHtml className="rich-text rich-text--compact" html={html} />
        </div>
      )}
    </li>
  );
}

/**
 * Sponsor and partner profiles (documents with an icon and rich text at the route's dataPath): a logo
 * tile, the name and the profile, grouped by partner category in the order of spec §3.
 */
export default function PartnerPage() {
  const { t } = useTranslation();
  const route = useContentRoute();
  const { config, language } = route;
  const docs = useDocuments(config, route.handle.dataPath);
  const sections = useMemo(
    () => groupPartners(config, route.handle.dataPath, docs, language),
    [config, route.handle.dataPath, docs, language],
  );
  const titled = sections.length > 1 || sections.some((s) => s.code !== '');

  return (
    <div className="content-page" data-testid="partner-page">
      <ContentHeader route={route} />
      <div className="content-body">
        <ListHeading
          route={route}
          count={docs.length ? t('content.partners.count', { count: docs.length }) : undefined}
        />
        {docs.length === 0 ? (
          <ContentEmpty title={t('content.partners.empty.title')} text={t('content.partners.empty.text')} />
        ) : (
          sections.map((section) => {
            const builtIn = isPartnerCategory(section.code)
              ? t(`content.partners.categories.${section.code}`)
              : t('content.partners.other');
            const label = section.label || builtIn;
            const labels = [...section.labels, builtIn];
            return (
              <section
                key={section.code || 'other'}
                className={`partner-group${section.docs.length === 1 ? ' partner-group--single' : ''}`}
                data-testid="partner-group"
              >
                {titled ? <h2 className="partner-group__title">{label}</h2> : null}
                <ul className="partner-grid">
                  {section.docs.map((doc) => (
                    <PartnerCard key={String(doc.id)} doc={doc} language={language} labels={labels} />
                  ))}
                </ul>
              </section>
            );
          })
        )}
      </div>
    </div>
  );
}
