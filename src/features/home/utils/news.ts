import type { DocumentPage } from '#contract/site-config/schema';

const time = (doc: DocumentPage) => (typeof doc.time === 'number' && Number.isFinite(doc.time) ? doc.time : 0);

/** The latest documents, recommended ones first (each part newest first). */
export function pickHeadlines(docs: DocumentPage[], limit: number): DocumentPage[] {
  return [...docs].sort((a, b) => Number(!!b.recommend) - Number(!!a.recommend) || time(b) - time(a)).slice(0, limit);
}

/** The newest documents by date. */
export function pickNewest(docs: DocumentPage[], limit: number): DocumentPage[] {
  return [...docs].sort((a, b) => time(b) - time(a)).slice(0, limit);
}

/** The news page showing one document: the list route plus ?id=<document id>. */
export function documentHref(listPath: string | undefined, doc: DocumentPage): string | undefined {
  return listPath ? `${listPath}?id=${encodeURIComponent(String(doc.id))}` : undefined;
}
