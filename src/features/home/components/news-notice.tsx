import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { allRoutes, findRoutePathByDataPath, getDocuments } from '@/lib/content';
import { formatDocumentDate } from '#contract/race-clock';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore, type Language } from '@/stores/app-store';
import type { DocumentPage, SiteConfig } from '#contract/site-config/schema';
import { pickHeadlines, pickNewest } from '../utils/news';
import { DocumentLink } from './document-link';
import { ScrollUpInfo } from './scroll-up-info';
import { SectionHead } from './section-head';

export const NEWS_PATH = 'newsNotice.raceNews';
export const BULLETIN_PATH = 'newsNotice.activityBulletin';
const NEWS_COUNT = 5;
const BULLETIN_COUNT = 7;
const TICKER_COUNT = 5;

interface ListInfo {
  docs: DocumentPage[];
  path: string | undefined;
  title: string;
}

/** The documents at a dataPath, the news page that lists them and its menu title (or the built-in one). */
function listInfo(config: SiteConfig, dataPath: string, language: Language, fallbackTitle: string): ListInfo {
  const route = allRoutes(config).find(({ item }) => item.meta?.dataPath === dataPath);
  return {
    docs: getDocuments(config, dataPath),
    path: findRoutePathByDataPath(config, dataPath),
    title:
      (route?.item.meta && pickLang(language, route.item.meta.title, route.item.meta.titleEn).trim()) || fallbackTitle,
  };
}

function MoreLink({ list }: { list: ListInfo }) {
  const { t } = useTranslation();
  if (!list.path) return null;
  return (
    <Link to={list.path} className="news-col__more" aria-label={t('home.news.moreLabel', { name: list.title })}>
      {t('home.news.more')}
      <span aria-hidden> ›</span>
    </Link>
  );
}

function RecommendTag({ doc }: { doc: DocumentPage }) {
  const { t } = useTranslation();
  return doc.recommend ? <span className="news-tag">{t('home.news.recommended')}</span> : null;
}

/** Race news: the headlines with their summaries. */
function NewsColumn({ list, language }: { list: ListInfo; language: Language }) {
  return (
    <div className="news-col news-col--news" data-testid="news-race">
      <div className="news-col__head">
        <h3 className="news-col__title">{list.title}</h3>
        <MoreLink list={list} />
      </div>
      <ul className="news-list">
        {pickHeadlines(list.docs, NEWS_COUNT).map((doc) => {
          const summary = pickLang(language, doc.summary, doc.summaryEn);
          const title = pickLang(language, doc.title, doc.titleEn);
          return (
            <li key={doc.id} className="news-list__item">
              <DocumentLink doc={doc} listPath={list.path} className="news-card">
                <span className="news-card__title" title={title}>
                  <RecommendTag doc={doc} />
                  {title}
                </span>
                {summary ? <span className="news-card__summary">{summary}</span> : null}
                <span className="news-card__date">{formatDocumentDate(doc.time)}</span>
              </DocumentLink>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Announcements: a compact list of titles and dates. */
function BulletinColumn({ list, language }: { list: ListInfo; language: Language }) {
  return (
    <div className="news-col news-col--bulletin" data-testid="news-bulletin">
      <div className="news-col__head">
        <h3 className="news-col__title">{list.title}</h3>
        <MoreLink list={list} />
      </div>
      <ul className="bulletin-list">
        {pickHeadlines(list.docs, BULLETIN_COUNT).map((doc) => {
          const title = pickLang(language, doc.title, doc.titleEn);
          return (
            <li key={doc.id} className="bulletin-list__item">
              <DocumentLink doc={doc} listPath={list.path} className="bulletin">
                <span className="bulletin__title" title={title}>
                  <RecommendTag doc={doc} />
                  {title}
                </span>
                <span className="bulletin__date">{formatDocumentDate(doc.time)}</span>
              </DocumentLink>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * News and notice (spec §2): race news and announcements (newsNotice.raceNews, .activityBulletin), latest
 * first with recommended ones on top, each opening on the news page (?id=) or its own article (jumpUrl);
 * above them the scroll-up ticker of the newest announcements. Hidden when both lists are empty.
 */
export function NewsNotice({ config }: { config: SiteConfig }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const news = listInfo(config, NEWS_PATH, language, t('home.news.raceNews'));
  const bulletins = listInfo(config, BULLETIN_PATH, language, t('home.news.bulletins'));
  if (!news.docs.length && !bulletins.docs.length) return null;

  return (
    <section className="home-section news" aria-labelledby="home-news-title" data-testid="home-news">
      <div className="container">
        <SectionHead id="home-news-title" eyebrow={t('home.news.eyebrow')} title={t('home.news.title')} />
        <ScrollUpInfo items={pickNewest(bulletins.docs, TICKER_COUNT)} listPath={bulletins.path} />
        <div className={`news__grid${news.docs.length && bulletins.docs.length ? '' : ' news__grid--single'}`}>
          {news.docs.length ? <NewsColumn list={news} language={language} /> : null}
          {bulletins.docs.length ? <BulletinColumn list={bulletins} language={language} /> : null}
        </div>
      </div>
    </section>
  );
}
