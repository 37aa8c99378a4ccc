import { useTranslation } from 'react-i18next';
import { useContentRoute, useDocuments } from '../hooks/use-content-route';
import { ContentEmpty } from './content-empty';
import { ContentHeader } from './content-header';
import { DocumentView } from './document-view';
import '../content.css';

/**
 * A document page (spec §2 "Document pages"): the first document at the route's dataPath, under the
 * section's header and button bar. Without a document it says so in a friendly way.
 */
export default function DocumentPage() {
  const { t } = useTranslation();
  const route = useContentRoute();
  const docs = useDocuments(route.config, route.handle.dataPath);
  const doc = docs[0];
  return (
    <div className="content-page" data-testid="document-page">
      <ContentHeader route={route} />
      <div className="content-body">
        {doc ? (
          <DocumentView doc={doc} language={route.language} />
        ) : (
          <section className="doc doc--empty">
            <h1 className="doc__title">{route.title || t('content.empty.title')}</h1>
            <ContentEmpty />
          </section>
        )}
      </div>
    </div>
  );
}
