/**
 * The console's site page (issue 33 §2): what the server answers about a domain's draft site configuration and
 * its publications (server/src/services/website/site-drafts.ts), read by the console (admin/src/pages/site) and
 * the public SPA's preview (src/app/boot/site-preview.ts).
 */
import type { SiteConfigReport } from '#contract/site-config/checks';

/** Who a publication or a draft is by: a staff member, or null for the command line (and the seed). */
export type SiteAuthor = { id: number; name: string } | null;

/** A domain bound to the race, with its latest publication and whether it has a draft. */
export interface SiteDomain {
  domain: string;
  published: { md5: string; publishedAt: number } | null;
  draft: { savedAt: number } | null;
}

/** The draft of a domain as the page shows it. */
export interface SiteDraftView {
  domain: string;
  raceId: string;
  text: string;
  /** 'draft': a saved draft; 'published': none saved, the latest publication; 'starter': neither exists. */
  source: 'draft' | 'published' | 'starter';
  /** The publication the draft started from (null for a starter document). */
  baseMd5: string | null;
  savedAt: number | null;
  savedBy: SiteAuthor;
  /** The domain's latest publication. */
  published: { md5: string; publishedAt: number } | null;
  /** Whether the text is exactly the latest publication's bytes. */
  matchesPublished: boolean;
  /** The validator's report of the text. */
  report: SiteConfigReport;
}

/** One publication of a domain. */
export interface SiteVersion {
  md5: string;
  publishedAt: number;
  /** null: the command line (or the seed). */
  publishedBy: SiteAuthor;
  bytes: number;
  /** The publication the site serves now. */
  current: boolean;
}

/** What publishing a draft answers. */
export interface SitePublished {
  published: { domainName: string; md5: string; uri: string; publishedAt: number };
  draft: SiteDraftView;
}
