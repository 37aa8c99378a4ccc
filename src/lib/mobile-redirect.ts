/**
 * Who goes to the mobile site (spec §1, #16): a phone or tablet browser, when the environment names a mobile
 * site, unless it is on it already or its visitor chose the desktop site (cookie 'site'); the hash goes along
 * (the deep link of a certificate QR, a news item, a lookup).
 *
 * No imports: vite.config.ts copies `earlyMobileRedirect` and the two functions it calls into the head of
 * index.html (Function.prototype.toString), so a phone on the desktop address leaves before downloading the
 * desktop page's code; the start-up pipeline asks the same question again (src/app/boot/detect-mobile.ts) in
 * case that script could not run. Everything here must stay self-contained and run natively in every
 * supported browser.
 */

export const MOBILE_BASE = '/m/';
export const SITE_CHOICE_COOKIE = 'site';
export const MOBILE_USER_AGENT = /Android|iPhone|iPod|iPad|Windows Phone|HarmonyOS|Mobile|MQQBrowser|MicroMessenger/i;

export type SiteChoice = 'desktop' | 'mobile';

export interface MobileRedirectInput {
  userAgent: string;
  mobileSiteUrl: string;
  /** The page is on the mobile site already. */
  onMobileSite: boolean;
  choice: SiteChoice | null;
  /** The current hash ('#/certificate?...'), kept in the target. */
  hash: string;
}

/** True on the mobile site: this build's /m/ (and /m), or the address the environment names. */
export function isOnMobileSite(pathname: string, href: string, mobileSiteUrl: string): boolean {
  return (
    pathname === '/m' || pathname.indexOf('/m/') === 0 || (mobileSiteUrl !== '' && href.indexOf(mobileSiteUrl) === 0)
  );
}

/**
 * The mobile site address to go to, or null to stay. (The index.html copy passes the user-agent pattern; the
 * default is never read there.)
 */
export function mobileRedirectTarget(
  input: MobileRedirectInput,
  mobileUserAgent: RegExp = MOBILE_USER_AGENT,
): string | null {
  if (
    !input.mobileSiteUrl ||
    input.onMobileSite ||
    input.choice === 'desktop' ||
    !mobileUserAgent.test(input.userAgent)
  ) {
    return null;
  }
  return input.mobileSiteUrl + input.hash;
}

interface EarlyRedirectPlan {
  mobileSiteUrl: string;
  /** MOBILE_USER_AGENT's source. */
  userAgent: string;
  choiceCookie: string;
}

/** Run in the head of index.html, before anything else loads. */
export function earlyMobileRedirect(
  decide: typeof mobileRedirectTarget,
  onMobile: typeof isOnMobileSite,
  plan: EarlyRedirectPlan,
): void {
  try {
    // Copied into index.html, where the cookie helpers of lib/storage do not exist yet.
    // eslint-disable-next-line no-restricted-properties
    const match = new RegExp('(?:^|;\\s*)' + plan.choiceCookie + '=([^;]*)').exec(document.cookie);
    const value = match ? decodeURIComponent(match[1] ?? '') : null;
    const target = decide(
      {
        userAgent: navigator.userAgent,
        mobileSiteUrl: plan.mobileSiteUrl,
        onMobileSite: onMobile(window.location.pathname, window.location.href, plan.mobileSiteUrl),
        choice: value === 'desktop' || value === 'mobile' ? value : null,
        hash: window.location.hash,
      },
      new RegExp(plan.userAgent, 'i'),
    );
    if (target) window.location.replace(target);
  } catch {
    // The start-up pipeline decides again.
  }
}

/** The inline script for the head of index.html (an empty mobile site URL: no script at all). */
export function earlyMobileRedirectScript(mobileSiteUrl: string): string | undefined {
  if (!mobileSiteUrl) return undefined;
  const plan: EarlyRedirectPlan = {
    mobileSiteUrl,
    userAgent: MOBILE_USER_AGENT.source,
    choiceCookie: SITE_CHOICE_COOKIE,
  };
  const json = JSON.stringify(plan).replace(/</g, '\\u003c');
  return `(${earlyMobileRedirect.toString()})(${mobileRedirectTarget.toString()}, ${isOnMobileSite.toString()}, ${json});`;
}
