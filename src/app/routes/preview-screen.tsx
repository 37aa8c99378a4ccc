import { useTranslation } from 'react-i18next';
import { useAppStore } from '@/stores/app-store';

/** The preview root screen (spec §1): no race is bound to this host. */
export function PreviewScreen() {
  const { t } = useTranslation();
  const domainName = useAppStore((s) => s.domainName);
  // IP addresses cannot be bound (a race site lives on a domain): show a placeholder instead.
  const bindable = /[a-z]/i.test(domainName) && !domainName.includes(':') ? domainName : '<domain>';
  return (
    <section className="preview" data-testid="preview-screen">
      <div className="preview__card">
        <p className="preview__eyebrow">{t('pages.preview.subtitle')}</p>
        <h1 className="preview__title">{t('pages.preview.title')}</h1>
        <p className="preview__text">{t('pages.preview.description', { domain: domainName })}</p>
        <p className="preview__hint">{t('pages.preview.organizerHint')}</p>
        <pre className="preview__code">
          <code>{`npm run site -- bind ${bindable} <raceId>\nnpm run site -- publish ${bindable} site-config.json`}</code>
        </pre>
        <div className="preview__sample">
          <h2>{t('pages.preview.sampleTitle')}</h2>
          <p>{t('pages.preview.sampleText')}</p>
        </div>
      </div>
    </section>
  );
}
