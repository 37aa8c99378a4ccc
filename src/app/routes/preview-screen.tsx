import { useTranslation } from 'react-i18next';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';

/**
 * The preview root screen (spec §1): no race is bound to this host, or one is bound but its site
 * configuration has not been published yet; each case names the organiser's next CLI command.
 */
export function PreviewScreen() {
  const { t } = useTranslation();
  const domainName = useAppStore((s) => s.domainName);
  const language = useAppStore((s) => s.language);
  const unpublished = useSiteStore((s) => s.previewReason) === 'unpublished';
  // IP addresses cannot be bound (a race site lives on a domain): show a placeholder instead.
  const bindable = /[a-z]/i.test(domainName) && !domainName.includes(':') ? domainName : '<domain>';
  const publish = `npm run site -- publish ${bindable} site-config.json`;
  const screen = unpublished ? 'unpublished' : 'preview';
  return (
    <section className="preview" data-testid="preview-screen" data-reason={screen}>
      <div className="preview__card">
        {/* The eyebrow repeats the title in the other language: mark it so it is read in that language. */}
        <p className="preview__eyebrow" lang={language === 'en' ? 'zh' : 'en'}>
          {t(`pages.${screen}.subtitle`)}
        </p>
        <h1 className="preview__title">{t(`pages.${screen}.title`)}</h1>
        <p className="preview__text">{t(`pages.${screen}.description`, { domain: domainName })}</p>
        <p className="preview__hint">{t(`pages.${screen}.organizerHint`)}</p>
        <pre className="preview__code">
          <code>{unpublished ? publish : `npm run site -- bind ${bindable} <raceId>\n${publish}`}</code>
        </pre>
        <div className="preview__sample">
          <h2>{t('pages.preview.sampleTitle')}</h2>
          <p>{t(`pages.${screen}.sampleText`)}</p>
        </div>
      </div>
    </section>
  );
}
