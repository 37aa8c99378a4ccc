/**
 * A mobile browser goes to the mobile site (spec §1, #16), when the environment names one: the hash goes
 * along (the deep link of a certificate QR, a news item, a lookup). Nobody is sent who is already on the
 * mobile site or chose the desktop site (cookie 'site', lib/mobile-site.ts).
 */
import { isMobileUserAgent } from '@/lib/mobile-site';
import { mobileRedirectTarget, type MobileRedirectInput } from '@/lib/mobile-redirect';

export { isMobileUserAgent, mobileRedirectTarget, type MobileRedirectInput };

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
