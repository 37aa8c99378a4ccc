import { useTranslation } from 'react-i18next';

/** Placeholder while a lazily loaded page arrives; keeps the main area's height to avoid layout shift. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status" aria-busy="true">
      <span className="spinner" aria-hidden />
      <span className="visually-hidden">{t('app.loading')}</span>
    </div>
  );
}
