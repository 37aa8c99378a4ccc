import { Link, NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { resolveWebLink } from '@/lib/url';
import type { ContentRoute } from '../hooks/use-content-route';

export interface Crumb {
  label: string;
  to?: string;
}

/**
 * The head of every content page: the breadcrumb (Home › section › page), the section's title and the
 * button bar of the section's pages with the current one highlighted (spec §2 "Document pages").
 * A route outside any section shows its own title and no bar. `trail` adds crumbs after the page (the
 * article open in a news list); the page crumb then links back to the page.
 */
export function ContentHeader({ route, trail = [] }: { route: ContentRoute; trail?: Crumb[] }) {
  const { t } = useTranslation();
  const { section, title, pathname } = route;
  const crumbs: Crumb[] = [
    { label: t('content.breadcrumb.home'), to: '/home' },
    ...(section ? [{ label: section.title, to: section.to }] : []),
    ...(title ? [{ label: title, to: trail.length ? pathname : undefined }] : []),
    ...trail,
  ];
  const links = section?.links ?? [];
  return (
    <header className="content-hero" data-testid="content-header">
      <div className="content-hero__inner">
        <nav className="content-breadcrumb" aria-label={t('content.breadcrumb.label')}>
          <ol>
            {crumbs.map((crumb, i) => {
              const last = i === crumbs.length - 1;
              return (
                <li key={`${i}-${crumb.label}`}>
                  {crumb.to && !last ? (
                    <Link to={crumb.to}>{crumb.label}</Link>
                  ) : (
                    <span aria-current={last ? 'page' : undefined}>{crumb.label}</span>
                  )}
                </li>
              );
            })}
          </ol>
        </nav>
        <p className="content-hero__title" data-testid="section-title">
          {section?.title || title}
        </p>
      </div>
      {links.length ? (
        <nav
          className="content-tabs"
          aria-label={t('content.sectionNav.label', { section: section?.title ?? '' })}
          data-testid="section-nav"
        >
          <ul className="content-tabs__list">
            {links.map((link) => (
              <li key={link.key}>
                {link.to ? (
                  <NavLink
                    to={link.to}
                    className={({ isActive }) =>
                      isActive ? 'content-tabs__link content-tabs__link--active' : 'content-tabs__link'
                    }
                  >
                    {link.label}
                  </NavLink>
                ) : (
                  <a
                    className="content-tabs__link"
                    href={resolveWebLink(link.href)}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    {link.label}
                    <span className="visually-hidden">{t('content.opensInNewTab')}</span>
                  </a>
                )}
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}

/**
 * The heading row of a list page: its title and a count. Outside a section the header already shows
 * the title, so it is kept for screen readers only.
 */
export function ListHeading({ route, count }: { route: ContentRoute; count?: string }) {
  return (
    <div className={route.section ? 'list-heading' : 'list-heading list-heading--bare'}>
      <h1 className={route.section ? 'list-heading__title' : 'visually-hidden'}>{route.title}</h1>
      {count ? <span className="list-heading__count">{count}</span> : null}
    </div>
  );
}
