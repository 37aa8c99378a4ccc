import { afterEach, describe, expect, it } from 'vitest';
import {
  earlyMobileRedirect,
  earlyMobileRedirectScript,
  isOnMobileSite,
  MOBILE_USER_AGENT,
  mobileRedirectTarget,
  type MobileRedirectInput,
} from './mobile-redirect';

const PLAN = { mobileSiteUrl: '/m/', userAgent: MOBILE_USER_AGENT.source, choiceCookie: 'site' };

afterEach(() => {
  document.cookie = 'site=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  window.history.replaceState(null, '', '/');
});

/** What the index.html copy hands to the decision, with the page as it is. */
function decided(): { input: MobileRedirectInput; pattern: RegExp } {
  let seen: { input: MobileRedirectInput; pattern: RegExp } | undefined;
  earlyMobileRedirect(
    (input, pattern) => {
      seen = { input, pattern: pattern! };
      return null;
    },
    isOnMobileSite,
    PLAN,
  );
  return seen!;
}

describe('the early mobile redirect (head of index.html)', () => {
  it('hands the page’s user agent, place, hash and remembered choice to the one decision', () => {
    window.history.replaceState(null, '', '/#/certificate?raceId=7&code=AB12');
    document.cookie = 'other=1; path=/';
    document.cookie = 'site=desktop; path=/';
    const { input, pattern } = decided();
    expect(input).toEqual({
      userAgent: navigator.userAgent,
      mobileSiteUrl: '/m/',
      onMobileSite: false,
      choice: 'desktop',
      hash: '#/certificate?raceId=7&code=AB12',
    });
    expect(pattern.source).toBe(MOBILE_USER_AGENT.source);
    expect(pattern.flags).toBe('i');
  });

  it('knows the mobile site and ignores a choice it does not know', () => {
    window.history.replaceState(null, '', '/m/#/home');
    document.cookie = 'site=tablet; path=/';
    expect(decided().input).toMatchObject({ onMobileSite: true, choice: null });
    expect(isOnMobileSite('/', 'https://m.example/#/news', 'https://m.example/')).toBe(true);
    expect(isOnMobileSite('/', 'https://www.example/', 'https://m.example/')).toBe(false);
    expect(isOnMobileSite('/mobile', 'https://www.example/mobile', '')).toBe(false);
  });

  it('is a script of its own, with the decision and the plan in it, only when there is a mobile site', () => {
    const script = earlyMobileRedirectScript('/m/');
    expect(script).toBeDefined();
    expect(() => new Function(script!)).not.toThrow();
    expect(script).toContain('"mobileSiteUrl":"/m/"');
    expect(earlyMobileRedirectScript('')).toBeUndefined();
    expect(earlyMobileRedirectScript('https://m.example/</script>')).not.toContain('</script>');
  });

  it('decides as the start-up pipeline does', () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    const base = { userAgent: iphone, mobileSiteUrl: '/m/', onMobileSite: false, choice: null, hash: '#/news/3' };
    expect(mobileRedirectTarget(base)).toBe('/m/#/news/3');
    expect(mobileRedirectTarget(base, new RegExp(MOBILE_USER_AGENT.source, 'i'))).toBe('/m/#/news/3');
    expect(mobileRedirectTarget({ ...base, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0' })).toBeNull();
  });
});
