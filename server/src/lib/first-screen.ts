/**
 * The mobile site's first screen (#16). The page the server answers for /m/ shows the race at once: the
 * site title, the mobile logo and (on the home page) the first carousel slide, in the visitor's language
 * (cookie 'language'), where the app's top bar and carousel will stand; the app's module tag is left out
 * and the loader at the end of the page (src/app/boot/first-screen-loader.ts) starts the app once that
 * screen has been painted. What the screen holds comes from the domain's published site configuration by
 * the rules the SPA uses (contract/site-config/first-screen.ts).
 *
 * A page without the markers of index.html or without the loader, and a domain without a published
 * configuration, get index.html as it was built.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { firstScreenOf, type FirstScreen, type SiteLanguage } from '#contract/site-config/first-screen';
import type { SiteConfig } from '#contract/site-config/schema';
import { normalizeDomainName } from './domain.ts';
import { siteConfigKey } from './file-store.ts';

const SPLASH = /<!--boot-splash-->([\s\S]*?)<!--\/boot-splash-->/;
const LOADING_TEXT = /<p class="boot-splash__text">[\s\S]*?<\/p>/;
const MODULE_TAGS = /\s*<script type="module"[^>]*\bsrc="[^"]*"[^>]*><\/script>|\s*<link rel="modulepreload"[^>]*>/g;
const IMAGE_HOST = /<meta name="race-site-image-host" content="([^"]*)"/;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const unescapeAttribute = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!,
  );

/** The build's image host (VITE_IMAGE_HOST, written into index.html by vite.config.ts), or undefined. */
export function imageHostOf(html: string): string | undefined {
  const match = IMAGE_HOST.exec(html);
  return match ? unescapeAttribute(match[1]!) : undefined;
}

/** Whether the page can carry a first screen: the splash markers and the loader are there. */
export function canCarryFirstScreen(html: string): boolean {
  return SPLASH.test(html) && html.includes('firstScreenLoader') && imageHostOf(html) !== undefined;
}

/** index.html with the first screen in place of the splash and without the app's module tags. */
export function mobileDocument(html: string, screen: FirstScreen, language: SiteLanguage): string {
  const splash = SPLASH.exec(html);
  if (!splash || !canCarryFirstScreen(html)) return html;
  const loading = LOADING_TEXT.exec(splash[1]!)?.[0] ?? '';
  const title = escapeHtml(screen.title);
  const brand = screen.logo
    ? `<img class="first-screen__logo" src="${escapeHtml(screen.logo)}" alt="${title}" width="160" height="32" fetchpriority="high">`
    : `<span class="first-screen__title">${title}</span>`;
  const hero = screen.hero
    ? `<template id="first-screen-hero"><img class="first-screen__hero" src="${escapeHtml(screen.hero.src)}" ` +
      `alt="${escapeHtml(screen.hero.alt)}" width="1920" height="600" fetchpriority="high"></template>`
    : '';
  const markup =
    `<div class="first-screen" role="status" aria-live="polite">` +
    `<div class="first-screen__bar">${brand}</div>${hero}${loading}</div>`;
  let page = html.replace(SPLASH, () => markup).replace(MODULE_TAGS, '');
  // Read by the head's preload script (src/app/boot/first-screen-loader.ts), which comes after it.
  if (screen.hero)
    page = page.replace(
      '<head>',
      () => `<head>\n    <meta name="first-screen-hero" content="${escapeHtml(screen.hero!.src)}">`,
    );
  // data-site: the mobile CSS applies from the first paint (the boot sets it too, src/lib/mobile-site.ts).
  page = page.replace(/<html lang="[^"]*">/, `<html lang="${language === 'en' ? 'en' : 'zh-CN'}" data-site="mobile">`);
  if (screen.title) page = page.replace(/<title>[\s\S]*?<\/title>/, () => `<title>${title}</title>`);
  return page;
}

/** The visitor's language from the cookie the SPA keeps ('language': zh, the default, or en). */
export function cookieLanguage(cookieHeader: string | undefined): SiteLanguage {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (name === 'language') return value === 'en' ? 'en' : 'zh';
  }
  return 'zh';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The first screen of the request's domain from its published configuration, or undefined (no published
 * configuration, or one the store no longer has). Parsed documents are kept by their MD5 (content-addressed).
 */
export function firstScreenSource(app: FastifyInstance) {
  const parsed = new Map<string, SiteConfig>();
  return async (request: FastifyRequest, imageHost: string): Promise<FirstScreen | undefined> => {
    const domainName = normalizeDomainName(request.hostname);
    if (domainName === null) return undefined;
    const published = await app.repos.siteConfigs.latestForDomain(domainName);
    if (!published) return undefined;
    let config = parsed.get(published.md5);
    if (!config) {
      const bytes = await app.files.get(siteConfigKey(published.md5));
      if (!bytes) return undefined;
      const document: unknown = JSON.parse(bytes.toString('utf8'));
      if (!isRecord(document)) return undefined;
      config = document as unknown as SiteConfig;
      if (parsed.size >= 64) parsed.clear();
      parsed.set(published.md5, config);
    }
    const binding = await app.repos.bindings.findByDomain(domainName);
    const race = binding ? ((await app.repos.races.findById(binding.raceId)) ?? null) : null;
    return firstScreenOf(config, race, cookieLanguage(request.headers.cookie), imageHost);
  };
}
