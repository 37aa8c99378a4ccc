/**
 * Start-up helpers for a visit that lands on the home page (called from main.tsx; tiny, so the first-paint
 * JS does not grow): the images of the first screen (the first carousel slide and the first top ad) start
 * loading before the first render instead of after it. (main.tsx also fetches the home chunk while the start-up pipeline runs.)
 */
import { getEnv } from '@/config/env';
import { resolveImageUrl } from '@/lib/url';
import { firstCarouselSlide } from '#contract/site-config/first-screen';
import type { SiteConfig } from '#contract/site-config/schema';

/** Whether the hash route is the home page ('' and '/' redirect to /home). */
export function isHomeRoute(hash = window.location.hash): boolean {
  const path = hash.replace(/^#/, '').split('?')[0];
  return path === '' || path === '/' || path === '/home';
}

/** The home page's own address for a landing on '' or '/' (their redirect, done before the first render). */
export function homeHashFor(hash = window.location.hash): string | null {
  const [path = '', query] = hash.replace(/^#/, '').split('?');
  if (path !== '' && path !== '/') return null;
  return query === undefined ? '#/home' : `#/home?${query}`;
}

/** The carousel's first image (the first slide with a usable image, as the carousel shows it). */
export function heroImageUrl(config: SiteConfig | null): string | undefined {
  return firstCarouselSlide(config, getEnv().imageHost)?.src;
}

/** The first top ad's image: at the fold of a desktop screen, and often the largest image a phone sees first. */
export function firstTopAdUrl(config: SiteConfig | null): string | undefined {
  for (const item of config?.adListTop ?? []) {
    const src = resolveImageUrl(item?.surfacePlotUrl);
    if (src) return src;
  }
  return undefined;
}

function preloadImage(href: string, priority: 'high' | 'auto') {
  const preloaded = Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]'));
  if (preloaded.some((link) => link.getAttribute('href') === href)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.setAttribute('as', 'image');
  link.setAttribute('href', href);
  link.setAttribute('fetchpriority', priority);
  document.head.append(link);
}

/** On the home page, the images of the first screen start loading before the first render. */
export function preloadFirstScreenImages(config: SiteConfig | null): void {
  if (!isHomeRoute()) return;
  const hero = heroImageUrl(config);
  if (hero) preloadImage(hero, 'high');
  const ad = firstTopAdUrl(config);
  if (ad) preloadImage(ad, 'auto');
}
