import { Link, type To } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ContentIcon } from './content-icons';

/** Page numbers to show: all of them up to 7, else the ends and the neighbours of the current page. */
export function pageWindow(page: number, total: number): (number | 'gap')[] {
  if (total <= 7) return Array.from({ length: total }, (_, i) => i + 1);
  const around = [page - 1, page, page + 1].filter((p) => p > 1 && p < total);
  if (page <= 3) around.push(2, 3, 4);
  if (page >= total - 2) around.push(total - 3, total - 2, total - 1);
  const middle = [...new Set(around)].filter((p) => p > 1 && p < total).sort((a, b) => a - b);
  const out: (number | 'gap')[] = [1];
  for (const p of middle) {
    const prev = out[out.length - 1];
    if (typeof prev === 'number' && p - prev > 1) out.push('gap');
    out.push(p);
  }
  if (total - (middle[middle.length - 1] ?? 1) > 1) out.push('gap');
  out.push(total);
  return out;
}

/** Page links driven by the URL (so back and forward work); hidden with a single page. */
export function Pagination({ page, total, to }: { page: number; total: number; to: (page: number) => To }) {
  const { t } = useTranslation();
  if (total <= 1) return null;
  return (
    <nav className="pager" aria-label={t('content.pagination.label')} data-testid="pagination">
      <ul className="pager__list">
        <li>
          {page > 1 ? (
            <Link
              className="pager__item pager__item--step"
              to={to(page - 1)}
              aria-label={t('content.pagination.previous')}
            >
              <ContentIcon name="chevronLeft" size={16} />
            </Link>
          ) : (
            <span className="pager__item pager__item--step pager__item--disabled" aria-hidden>
              <ContentIcon name="chevronLeft" size={16} />
            </span>
          )}
        </li>
        {pageWindow(page, total).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap-${i}`} className="pager__gap" aria-hidden>
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span
                  className="pager__item pager__item--current"
                  aria-current="page"
                  aria-label={t('content.pagination.page', { page: p })}
                >
                  {p}
                </span>
              ) : (
                <Link className="pager__item" to={to(p)} aria-label={t('content.pagination.page', { page: p })}>
                  {p}
                </Link>
              )}
            </li>
          ),
        )}
        <li>
          {page < total ? (
            <Link className="pager__item pager__item--step" to={to(page + 1)} aria-label={t('content.pagination.next')}>
              <ContentIcon name="chevronRight" size={16} />
            </Link>
          ) : (
            <span className="pager__item pager__item--step pager__item--disabled" aria-hidden>
              <ContentIcon name="chevronRight" size={16} />
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
