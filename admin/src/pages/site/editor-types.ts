/**
 * The site page's form editors (issue 33 §2): each edits one part of the draft site configuration (the carousel,
 * the ads, the partners…) as a form instead of JSON. The page keeps the draft as a parsed document; an editor
 * reads the part it knows and gives back the whole document with that part changed (every other key kept as it
 * was, unknown keys included). The page shows the validator's problems under the part they belong to.
 */
import type { ComponentType } from 'react';

/** The draft document, parsed (the page only shows the form editors while its JSON parses to an object). */
export type SiteDraft = Record<string, unknown>;

export interface SiteEditorProps {
  raceId: string;
  /** The domain whose site is edited. */
  domain: string;
  draft: SiteDraft;
  /** Gives the page the new document (the editor never changes `draft` in place). */
  onChange: (next: SiteDraft) => void;
  /** The validator's problems whose JSON path starts with one of this editor's `paths` ($.carouselList[2].jumpUrl …). */
  problems: { path: string; message: string; severity: 'error' | 'warning' }[];
}

export interface SiteEditor {
  /** Its tab key. */
  key: string;
  /** Its tab label's i18n key (in the editor's own locale file, e.g. siteDocuments.tab). */
  labelKey: string;
  /** The top-level keys of the document it edits: problems under them are shown beside it. */
  paths: readonly string[];
  /** Its place among the tabs: lower first. */
  order: number;
  Component: ComponentType<SiteEditorProps>;
}
