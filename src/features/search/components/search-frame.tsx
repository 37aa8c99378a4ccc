import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import '../search.css';
import '../search-mobile.css';

export type SwitchName = 'registrationSearch' | 'scoreSearch' | 'pictureSearch';

/** Whether a search module is open (spec §4: openStatus 0 closes it); no switch configured means open. */
export function useSearchSwitch(name: SwitchName | undefined): { open: boolean; text: string } {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const config = useSiteStore((s) => s.config);
  const sw = name ? config?.[name] : undefined;
  const open = !sw || sw.openStatus !== 0;
  const text = pickLang(language, sw?.dialogText, sw?.dialogTextEn) || t('search.closed');
  return { open, text };
}

/**
 * The white card on the grey main area that every search page sits in: title, subtitle, then either the
 * page's form and results or, when its module is closed, the dialog text.
 */
export function SearchFrame({
  title,
  subtitle,
  switchName,
  children,
  wide = false,
}: {
  title: string;
  subtitle?: string;
  switchName?: SwitchName;
  children: React.ReactNode;
  wide?: boolean;
}) {
  const { t } = useTranslation();
  const { open, text } = useSearchSwitch(switchName);
  return (
    <div className="search-page">
      <section className={wide ? 'search-card search-card--wide' : 'search-card'} aria-labelledby="search-title">
        <header className="search-card__head">
          <h1 id="search-title" className="search-card__title">
            {title}
          </h1>
          {subtitle && open ? <p className="search-card__subtitle">{subtitle}</p> : null}
        </header>
        {open ? (
          children
        ) : (
          <div className="search-closed" role="status" data-testid="search-closed">
            <p>{text}</p>
            <Link to="/home" className="search-btn search-btn--ghost">
              {t('search.back')}
            </Link>
          </div>
        )}
      </section>
    </div>
  );
}
