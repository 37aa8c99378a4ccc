/**
 * The mobile site (#16): the same build served under /m/. The page is on the mobile site when its path
 * starts with /m/; the visitor's choice between the two sites is remembered in the cookie 'site' (a year).
 */
import { cookies } from '@/lib/storage';

export const MOBILE_BASE = '/m/';
export const SITE_CHOICE_COOKIE = 'site';

export type SiteChoice = 'desktop' | 'mobile';

const MOBILE_UA = /Android|iPhone|iPod|iPad|Windows Phone|HarmonyOS|Mobile|MQQBrowser|MicroMessenger/i;

/** A phone or tablet browser. */
export function isMobileUserAgent(userAgent: string = navigator.userAgent): boolean {
  return MOBILE_UA.test(userAgent);
}

/** True on the mobile site: the path is /m or starts with /m/. */
export function isMobileSite(pathname: string = window.location.pathname): boolean {
  return pathname === '/m' || pathname.startsWith(MOBILE_BASE);
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

/**
 * Remembers the choice and goes to the other site, keeping the hash (the deep link: a certificate, a
 * news item, a lookup).
 */
export function switchSite(choice: SiteChoice, go: (url: string) => void = (url) => window.location.assign(url)): void {
  writeSiteChoice(choice);
  go(`${choice === 'mobile' ? MOBILE_BASE : '/'}${window.location.hash}`);
}
