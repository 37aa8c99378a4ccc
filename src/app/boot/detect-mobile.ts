/** A mobile browser goes to the mobile site home (spec §1), when the environment names one. */
const MOBILE_UA = /Android|iPhone|iPod|iPad|Windows Phone|HarmonyOS|Mobile|MQQBrowser|MicroMessenger/i;

export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_UA.test(userAgent);
}

/** Returns true when it started the redirect (the boot then stops). */
export function redirectMobile(
  userAgent: string,
  mobileSiteUrl: string,
  go: (url: string) => void = (url) => window.location.replace(url),
): boolean {
  if (!mobileSiteUrl || !isMobileUserAgent(userAgent)) return false;
  go(mobileSiteUrl);
  return true;
}
