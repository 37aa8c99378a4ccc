/**
 * The mobile site (#16): the same build served under /m/. The page is on the mobile site when its path
 * starts with /m/; the visitor's choice between the two sites is remembered in the cookie 'site' (a year).
 */
import { getEnv } from '@/config/env';
import { cookies } from '@/lib/storage';

import {
  MOBILE_BASE,
  MOBILE_USER_AGENT,
  SITE_CHOICE_COOKIE,
  isOnMobileSite,
  type SiteChoice,
} from '@/lib/mobile-redirect';

export { MOBILE_BASE, SITE_CHOICE_COOKIE, type SiteChoice } from '@/lib/mobile-redirect';

/** A phone or tablet browser. */
export function isMobileUserAgent(userAgent: string = navigator.userAgent): boolean {
  return MOBILE_USER_AGENT.test(userAgent);
}

/** True on this build's mobile site: the path is /m or starts with /m/ (never while the server renders, app/first-screen). */
export function isMobileSite(
  pathname: string = typeof window === 'undefined' ? '/' : window.location.pathname,
): boolean {
  return isOnMobileSite(pathname, '', '');
}

/** The visitor's remembered choice, or null when they never chose. */
export function readSiteChoice(): SiteChoice | null {
  const value = cookies.get(SITE_CHOICE_COOKIE);
  return value === 'desktop' || value === 'mobile' ? value : null;
}

export function writeSiteChoice(choice: SiteChoice): void {
  cookies.set(SITE_CHOICE_COOKIE, choice, { expires: 365, path: '/', sameSite: 'Lax' });
}

/** Marks the document as the mobile site (the mobile CSS is scoped under html[data-site='mobile']). */
export function markMobileSite(root: HTMLElement = document.documentElement): void {
  if (isMobileSite()) root.dataset.site = 'mobile';
}

/** The mobile site's home: the environment's VITE_MOBILE_SITE_URL (an organiser's own), else this build's /m/. */
export function mobileSiteHome(): string {
  return getEnv().mobileSiteUrl || MOBILE_BASE;
}

/** The other site's address for this page: the same hash (the deep link: a certificate, a news item, a lookup). */
export function otherSiteUrl(choice: SiteChoice, home: string = mobileSiteHome()): string {
  return `${choice === 'mobile' ? home : '/'}${window.location.hash}`;
}

/** Remembers the choice and goes to the other site, keeping the hash. */
export function switchSite(
  choice: SiteChoice,
  go: (url: string) => void = (url) => window.location.assign(url),
  home: string = mobileSiteHome(),
): void {
  writeSiteChoice(choice);
  go(otherSiteUrl(choice, home));
}
