/**
 * Start-up helpers for a visit that lands on the home page (called from main.tsx; tiny, so the first-paint
 * JS does not grow): the home chunk is fetched while the start-up pipeline runs, and the first carousel
 * image, the page's LCP, starts loading before the first render instead of after it.
 */
import { resolveImageUrl } from '@/lib/url';
import type { SiteConfig } from '@/features/site-config/site-config-schema';

/** Whether the hash route is the home page ('' and '/' redirect to /home). */
export function isHomeRoute(hash = window.location.hash): boolean {
  const path = hash.replace(/^#/, '').split('?')[0];
  return path === '' || path === '/' || path === '/home';
}

export function prefetchHomePage(): void {
  if (isHomeRoute()) void import('./components/home-page');
}

/** The carousel's first image (the first slide with a usable image, as the carousel shows it). */
export function heroImageUrl(config: SiteConfig | null): string | undefined {
  for (const item of config?.carouselList ?? []) {
    const src = resolveImageUrl(item?.surfacePlotUrl);
    if (src) return src;
  }
  return undefined;
}

export function preloadHeroImage(config: SiteConfig | null): void {
  const href = isHomeRoute() ? heroImageUrl(config) : undefined;
  if (!href) return;
  const preloaded = Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]'));
  if (preloaded.some((link) => link.getAttribute('href') === href)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.setAttribute('as', 'image');
  link.setAttribute('href', href);
  link.setAttribute('fetchpriority', 'high');
  document.head.append(link);
}
