import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { getEnv } from '@/config/env';

/** Shown inside the layout for an unknown path or a page component that is not registered. */
export function NotFound({ component }: { component?: string }) {
  const { t } = useTranslation();
  return (
    <section className="page-state" data-testid="not-found">
      <div className="page-state__code" aria-hidden>
        404
      </div>
      <h1 className="page-state__title">{t('pages.notFound.title')}</h1>
      <p className="page-state__text">{t('pages.notFound.description')}</p>
      {component && getEnv().debug ? (
        <p className="page-state__debug">{t('pages.notFound.debugComponent', { name: component })}</p>
      ) : null}
      <Link className="button button--primary" to="/home">
        {t('pages.notFound.backHome')}
      </Link>
    </section>
  );
}
