import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { JumpLink } from '@/components/ui/jump-link';
import { resolveJump } from '@/lib/url';
import type { DocumentPage } from '#contract/site-config/schema';
import { documentHref } from '../utils/news';

/**
 * A document of a news list: an item with a jumpUrl opens that article (external ones in a new tab);
 * otherwise it opens on the news page (`<list path>?id=<id>`); without a news page it is plain text.
 */
export function DocumentLink({
  doc,
  listPath,
  className,
  tabIndex,
  children,
}: {
  doc: DocumentPage;
  listPath: string | undefined;
  className: string;
  tabIndex?: number;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const jump = resolveJump(doc.jumpUrl);
  if (jump) {
    return (
      <JumpLink url={doc.jumpUrl} className={`${className} ${className}--jump`} tabIndex={tabIndex}>
        {children}
        {jump.kind === 'external' ? <span className="visually-hidden">{t('home.news.newWindow')}</span> : null}
      </JumpLink>
    );
  }
  const href = documentHref(listPath, doc);
  if (href) {
    return (
      <Link to={href} className={className} tabIndex={tabIndex}>
        {children}
      </Link>
    );
  }
  return <span className={className}>{children}</span>;
}
