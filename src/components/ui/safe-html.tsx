/**
 * Rich text from a site configuration (document content, partner profiles), rendered through the one sanitiser
 * both apps share (contract/rich-text.ts: what it keeps and why is written there). This is the only place in src
 * that sets inner HTML.
 */
import { useMemo } from 'react';
import { sanitizeRichText } from '#contract/rich-text';

export { isBlankHtml, isSafeUrl } from '#contract/rich-text';

/** The sanitised HTML string (exported for tests and for callers that need the text). */
export const sanitizeHtml = sanitizeRichText;

export function SafeHtml({ html, className }: { html: string | null | undefined; className?: string }) {
  const clean = useMemo(() => sanitizeRichText(html), [html]);
  return (
    // eslint-disable-next-line no-restricted-syntax
    <div className={className ? `safe-html ${className}` : 'safe-html'} dangerouslySetInnerHTML={{ __html: clean }} />
  );
}
