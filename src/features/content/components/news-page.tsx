import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { JumpLink } from '@/components/ui/jump-link';
import { resolveJump } from '@/lib/url';
import type { Language } from '@/stores/app-store';
import type { DocumentPage } from '#contract/site-config/schema';
import { useContentRoute, useDocuments } from '../hooks/use-content-route';
import { byTimeDesc, recommendedFirst, sameId } from '../utils/content-items';
import { ContentEmpty } from './content-empty';
import { ContentHeader, ListHeading } from './content-header';
import { ContentIcon } from './content-icons';
import { DocumentView, documentDate, documentSummary, documentTitle } from './document-view';
import { Pagination } from './pagination';
import '../content.css';

export const NEWS_PAGE_SIZE = 10;

const listPath = (pathname: string, page: number) => (page > 1 ? `${pathname}?page=${page}` : pathname);

/** An item with an external jumpUrl opens that article in a new tab; any other opens in place (?id=). */
function ArticleLink({
  doc,
  pathname,
  className,
  children,
}: {
  doc: DocumentPage;
  pathname: string;
  className?: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  if (resolveJump(doc.jumpUrl)?.kind === 'external') {
    return (
      <JumpLink url={doc.jumpUrl} className={className}>
        {children}
        <span className="visually-hidden">{t('content.opensInNewTab')}</span>
      </JumpLink>
    );
  }
  return (
    <Link className={className} to={`${pathname}?id=${encodeURIComponent(String(doc.id))}`}>
      {children}
    </Link>
  );
}

function ItemMeta({ doc, featured }: { doc: DocumentPage; featured?: boolean }) {
  const { t } = useTranslation();
  const date = documentDate(doc);
  const external = resolveJump(doc.jumpUrl)?.kind === 'external';
  return (
    <p className="news-meta">
      {featured ? <span className="news-tag">{t('content.news.featured')}</span> : null}
      {date.label ? (
        <span className="news-meta__date">
          <ContentIcon name="calendar" size={14} />
          <time dateTime={date.iso}>{date.label}</time>
        </span>
      ) : null}
      {external ? (
        <span className="news-meta__external">
          <ContentIcon name="external" size={14} />
          {t('content.news.external')}
        </span>
      ) : null}
    </p>
  );
}

function FeaturedCard({ doc, pathname, language }: { doc: DocumentPage; pathname: string; language: Language }) {
  const { t } = useTranslation();
  const summary = documentSummary(doc, language);
  return (
    <li className="news-card" data-testid="news-featured">
      <ItemMeta doc={doc} featured />
      <h2 className="news-card__title">
        <ArticleLink doc={doc} pathname={pathname} className="news-card__link">
          {documentTitle(doc, language)}
        </ArticleLink>
      </h2>
      {summary ? <p className="news-card__summary">{summary}</p> : null}
      <span className="news-card__more" aria-hidden>
        {t('content.news.readMore')}
        <ContentIcon name="arrowRight" size={16} />
      </span>
    </li>
  );
}

function ListRow({ doc, pathname, language }: { doc: DocumentPage; pathname: string; language: Language }) {
  const summary = documentSummary(doc, language);
  return (
    <li className="news-row" data-testid="news-item">
      <div className="news-row__text">
        <h2 className="news-row__title">
          <ArticleLink doc={doc} pathname={pathname} className="news-row__link">
            {documentTitle(doc, language)}
          </ArticleLink>
        </h2>
        {summary ? <p className="news-row__summary">{summary}</p> : null}
        <ItemMeta doc={doc} />
      </div>
      <span className="news-row__arrow" aria-hidden>
        <ContentIcon name="arrowRight" size={20} />
      </span>
    </li>
  );
}

/**
 * The news page shared by race news and announcements (spec §2): recommended items first as featured
 * cards with their summary, then the others newest first, 10 to a page. An item with an external jumpUrl
 * opens that article in a new tab; the others open here, in the same document view as a document page
 * (#/news-notice/race-news?id=news-2026-001), with a way back to the list.
 */
export default function NewsPage() {
  const { t } = useTranslation();
  const route = useContentRoute();
  const { pathname, language } = route;
  const docs = useDocuments(route.config, route.handle.dataPath);
  const ordered = useMemo(() => recommendedFirst(docs, byTimeDesc), [docs]);
  const [params] = useSearchParams();
  const id = params.get('id');
  const total = Math.max(1, Math.ceil(ordered.length / NEWS_PAGE_SIZE));
  const page = Math.min(Math.max(Number.parseInt(params.get('page') ?? '1', 10) || 1, 1), total);

  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [id, page]);

  if (id !== null) {
    const index = ordered.findIndex((d) => sameId(d.id, id));
    const doc = ordered[index];
    const back = listPath(pathname, index >= 0 ? Math.floor(index / NEWS_PAGE_SIZE) + 1 : 1);
    const backLink = (
      <Link className="back-link" to={back} data-testid="back-to-list">
        <ContentIcon name="arrowLeft" size={16} />
        {t('content.news.backToList')}
      </Link>
    );
    if (!doc) {
      return (
        <div className="content-page" data-testid="news-page">
          <ContentHeader route={route} />
          <div className="content-body">
            <ContentEmpty
              icon="alert"
              title={t('content.news.notFound.title')}
              text={t('content.news.notFound.text')}
              action={backLink}
            />
          </div>
        </div>
      );
    }
    const prev = ordered[index - 1];
    const next = ordered[index + 1];
    const neighbours =
      prev || next ? (
        <nav className="doc__neighbours" aria-label={t('content.news.listLabel')}>
          {prev ? (
            <ArticleLink doc={prev} pathname={pathname} className="doc__neighbour doc__neighbour--prev">
              <span className="doc__neighbour-label">
                <ContentIcon name="arrowLeft" size={14} />
                {t('content.news.previous')}
              </span>
              <span className="doc__neighbour-title">{documentTitle(prev, language)}</span>
            </ArticleLink>
          ) : (
            <span />
          )}
          {next ? (
            <ArticleLink doc={next} pathname={pathname} className="doc__neighbour doc__neighbour--next">
              <span className="doc__neighbour-label">
                {t('content.news.next')}
                <ContentIcon name="arrowRight" size={14} />
              </span>
              <span className="doc__neighbour-title">{documentTitle(next, language)}</span>
            </ArticleLink>
          ) : null}
        </nav>
      ) : null;
    return (
      <div className="content-page" data-testid="news-page">
        <ContentHeader route={route} trail={[{ label: documentTitle(doc, language) }]} />
        <div className="content-body">
          <div className="content-toolbar">{backLink}</div>
          <DocumentView key={String(doc.id)} doc={doc} language={language} footer={neighbours} />
        </div>
      </div>
    );
  }

  const items = ordered.slice((page - 1) * NEWS_PAGE_SIZE, page * NEWS_PAGE_SIZE);
  const featured = items.filter((d) => d.recommend === true);
  const rest = items.filter((d) => d.recommend !== true);
  return (
    <div className="content-page" data-testid="news-page">
      <ContentHeader route={route} />
      <div className="content-body">
        <ListHeading
          route={route}
          count={ordered.length ? t('content.news.count', { count: ordered.length }) : undefined}
        />
        {ordered.length === 0 ? (
          <ContentEmpty title={t('content.news.empty.title')} text={t('content.news.empty.text')} />
        ) : (
          <>
            {featured.length ? (
              <ul
                className={`news-featured news-featured--${featured.length % 2 ? 'odd' : 'even'}`}
                aria-label={t('content.news.featured')}
              >
                {featured.map((doc) => (
                  <FeaturedCard key={String(doc.id)} doc={doc} pathname={pathname} language={language} />
                ))}
              </ul>
            ) : null}
            {rest.length ? (
              <ul className="news-list" aria-label={t('content.news.listLabel')}>
                {rest.map((doc) => (
                  <ListRow key={String(doc.id)} doc={doc} pathname={pathname} language={language} />
                ))}
              </ul>
            ) : null}
            <Pagination page={page} total={total} to={(p) => listPath(pathname, p)} />
          </>
        )}
      </div>
    </div>
  );
}
