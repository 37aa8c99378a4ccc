import { useTranslation } from 'react-i18next';

/** The submit button of a search form ('Search' / 'Searching…'), with any further actions after it. */
export function SearchSubmit({ loading, children }: { loading: boolean; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="search-actions">
      <button type="submit" className="search-btn" disabled={loading}>
        {loading ? t('search.searching') : t('search.submit')}
      </button>
      {children}
    </div>
  );
}

/** Why a lookup found nothing, announced to assistive technology. */
export function SearchFailure({ failure }: { failure: string | null }) {
  return failure ? (
    <p className="search-empty" role="alert" data-testid="search-failure">
      {failure}
    </p>
  ) : null;
}
