/**
 * A mobile browser goes to the mobile site (spec §1, #16), when the environment names one: the hash goes
 * along (the deep link of a certificate QR, a news item, a lookup). Nobody is sent who is already on the
 * mobile site or chose the desktop site (cookie 'site', lib/mobile-site.ts).
 */
import { isMobileUserAgent, type SiteChoice } from '@/lib/mobile-site';

export { isMobileUserAgent };

export interface MobileRedirectInput {
  userAgent: string;
  mobileSiteUrl: string;
  /** The page is on the mobile site already. */
  onMobileSite: boolean;
  choice: SiteChoice | null;
  /** The current hash ('#/certificate?...'), kept in the target. */
  hash: string;
}

/** The mobile site address to go to, or null to stay. */
export function mobileRedirectTarget({
  userAgent,
  mobileSiteUrl,
  onMobileSite,
  choice,
  hash,
}: MobileRedirectInput): string | null {
  if (!mobileSiteUrl || onMobileSite || choice === 'desktop' || !isMobileUserAgent(userAgent)) return null;
  return `${mobileSiteUrl}${hash}`;
}

/** Returns true when it started the redirect (the boot then stops). */
export function redirectMobile(
  input: MobileRedirectInput,
  go: (url: string) => void = (url) => window.location.replace(url),
): boolean {
  const target = mobileRedirectTarget(input);
  if (!target) return false;
  go(target);
  return true;
}
