import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SafeHtml, isBlankHtml } from '@/components/ui/safe-html';
import { formatDocumentDate, formatRaceTime } from '#contract/race-clock';
import { isMobileSite } from '@/lib/mobile-site';
import { pickLang } from '@/lib/pick-lang';
import type { Language } from '@/stores/app-store';
import type { DocumentPage } from '#contract/site-config/schema';
import { text } from '../utils/content-items';
import { ContentIcon } from './content-icons';

/** Title of a document in the active language (English falls back to Chinese). */
export function documentTitle(doc: DocumentPage, language: Language): string {
  return pickLang(language, text(doc.title), text(doc.titleEn));
}

/** Summary of a document in the active language (English falls back to Chinese). */
export function documentSummary(doc: DocumentPage, language: Language): string {
  return pickLang(language, text(doc.summary), text(doc.summaryEn));
}

/** The document's date as YYYY.MM.DD, '' without a valid time. */
export function documentDate(doc: DocumentPage): { label: string; iso: string } {
  const time = typeof doc.time === 'number' ? doc.time : undefined;
  return { label: formatDocumentDate(time), iso: formatRaceTime(time, 'YYYY-MM-DD') };
}

/**
 * The rich text to show: English when there is some, else the Chinese (spec §2: "English falls back to
 * Chinese when empty"); `fallback` tells that an English reader sees the Chinese original.
 */
export function documentBody(doc: DocumentPage, language: Language): { html: string; fallback: boolean } {
  const zh = text(doc.content);
  const en = text(doc.contentEn);
  if (language === 'en' && !isBlankHtml(en)) return { html: en, fallback: false };
  return { html: zh, fallback: language === 'en' && !isBlankHtml(zh) };
}

/**
 * Organisers often start their sections at <h3>; under the document's <h1> that skips a level for
 * screen-reader users. Each heading's level is told relative to the title (aria-level: the text's top
 * level becomes 2); the tags, and so the organiser's look, stay as written. The result is sanitised next.
 */
export function relativeHeadings(html: string): string {
  const levels = [...html.matchAll(/<h([1-6])\b/gi)].map((m) => Number(m[1]));
  const shift = levels.length ? Math.min(...levels) - 2 : 0;
  if (shift === 0) return html;
  return html.replace(/<h([1-6])\b/gi, (tag, level: string) => `${tag} aria-level="${Number(level) - shift}"`);
}

/**
 * On the mobile site a table wider than the screen scrolls inside its own box (content.css): such a table
 * takes the keyboard focus, so it can be scrolled without a pointer too (WCAG 2.1.1). The desktop site's
 * tables never scroll and are left as they are.
 */
function useScrollableTables(html: string) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const root = ref.current;
    if (!root || !isMobileSite()) return;
    const mark = () => {
      for (const table of root.querySelectorAll('table')) {
        if (table.scrollWidth > table.clientWidth + 1) table.tabIndex = 0;
        else table.removeAttribute('tabindex');
      }
    };
    mark();
    window.addEventListener('resize', mark);
    return () => window.removeEventListener('resize', mark);
  }, [html]);
  return ref;
}

/**
 * One document: title, date (YYYY.MM.DD, hidden without a time), the sanitised rich text and the end
 * text 'All Displayed' (spec §2 "Document pages"). Shared by the document page and the news article view.
 */
export function DocumentView({
  doc,
  language,
  footer,
}: {
  doc: DocumentPage;
  language: Language;
  footer?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const title = documentTitle(doc, language);
  const date = documentDate(doc);
  const body = documentBody(doc, language);
  const bodyRef = useScrollableTables(body.html);
  return (
    <article className="doc" data-testid="document-view">
      <header className="doc__header">
        <h1 className="doc__title" lang={language === 'en' && !text(doc.titleEn).trim() ? 'zh-CN' : undefined}>
          {title}
        </h1>
        {date.label ? (
          <p className="doc__meta">
            <ContentIcon name="calendar" size={16} />
            <span className="visually-hidden">{t('content.document.publishedOn')}</span>
            <time dateTime={date.iso} data-testid="document-date">
              {date.label}
            </time>
          </p>
        ) : null}
      </header>
      {body.fallback ? (
        <p className="doc__notice" role="note">
          {t('content.document.chineseOnly')}
        </p>
      ) : null}
      {isBlankHtml(body.html) ? null : (
        <div className="doc__body" ref={bodyRef} lang={body.fallback ? 'zh-CN' : undefined}>
          <SafeHtml className="rich-text" html={relativeHeadings(body.html)} />
        </div>
      )}
      <p className="doc__end" data-testid="all-displayed">
        <span>{t('content.allDisplayed')}</span>
      </p>
      {footer}
    </article>
  );
}
