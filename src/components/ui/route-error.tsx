import { useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** Chunk load failures and render errors inside a route: a message in the visitor's language. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const text = error instanceof Error ? error.message : String(error);
  const isChunk =
    /Loading (CSS )?chunk|Failed to fetch dynamically imported module|Unable to preload CSS|error loading dynamically imported module/i.test(
      text,
    );
  const isStyle = /CSS|preload CSS/i.test(text);
  if (!isChunk) console.error('[race-site] page failed:', error);
  return (
    <section className="page-state" role="alert" data-testid="route-error">
      <h1 className="page-state__title">
        {isChunk ? t(isStyle ? 'errors.chunkLoadStyle' : 'errors.chunkLoad') : t('app.bootError')}
      </h1>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        {t('app.refresh')}
      </button>
    </section>
  );
}
