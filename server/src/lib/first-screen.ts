/**
 * The first screens: the page the server answers shows the race at once, in the visitor's language (cookie
 * 'language'), from the domain's published site configuration; the app's module tags are left out and the
 * loader at the end of the page (src/app/boot/first-screen-loader.ts) starts the app once that screen has
 * been painted.
 * - The mobile site (#16, /m/): the site title, the mobile logo and (on the home page) the first carousel
 *   slide, where the app's top bar and carousel will stand, by the rules the SPA uses
 *   (contract/site-config/first-screen.ts).
 * - The desktop home page (#29 §5, /): the app's own layout and home page, rendered by the app's own
 *   components (src/app/boot/home-first-screen.tsx, built for Node into dist/.server/), with the stylesheets
 *   of their first render; the app's first render replaces it with the same page.
 *
 * A page without the markers of index.html or without the loader, a domain without a published
 * configuration, and a build without the home renderer, get index.html as it was built.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { firstScreenOf, type FirstScreen, type SiteLanguage } from '#contract/site-config/first-screen';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { SiteConfig } from '#contract/site-config/schema';
import { normalizeDomainName } from './domain.ts';
import { siteConfigKey } from './file-store.ts';

const SPLASH = /<!--boot-splash-->([\s\S]*?)<!--\/boot-splash-->/;
const LOADING_TEXT = /<p class="boot-splash__text">[\s\S]*?<\/p>/;
const MODULE_TAGS = /\s*<script type="module"[^>]*\bsrc="[^"]*"[^>]*><\/script>|\s*<link rel="modulepreload"[^>]*>/g;
const IMAGE_HOST = /<meta name="race-site-image-host" content="([^"]*)"/;
const HOME_CSS = /<meta name="race-site-home-css" content="([^"]*)"/;
const ROOT = /<div id="root">/;

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

/** The stylesheets of the home page's first render, as the build names them (vite.config.ts). */
export function homeStylesheetsOf(html: string): string[] {
  const match = HOME_CSS.exec(html);
  return match ? unescapeAttribute(match[1]!).split(' ').filter(Boolean) : [];
}

/**
 * index.html carrying a first screen: `markup` in place of the splash (`splash` keeps the splash beside it),
 * without the app's module tags, in the visitor's language, titled with the site title.
 */
function withFirstScreen(
  html: string,
  markup: string,
  { language, title, head = '', site }: { language: SiteLanguage; title: string; head?: string; site?: 'mobile' },
): string {
  let page = html.replace(SPLASH, () => markup).replace(MODULE_TAGS, '');
  // Read by the head's preload script (src/app/boot/first-screen-loader.ts), which comes after it.
  if (head) page = page.replace('<head>', () => `<head>\n    ${head}`);
  // data-site: the mobile CSS applies from the first paint (the boot sets it too, src/lib/mobile-site.ts).
  const lang = language === 'en' ? 'en' : 'zh-CN';
  page = page.replace(/<html lang="[^"]*">/, `<html lang="${lang}"${site ? ` data-site="${site}"` : ''}>`);
  if (title) page = page.replace(/<title>[\s\S]*?<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
  return page;
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
  const head = screen.hero ? `<meta name="first-screen-hero" content="${escapeHtml(screen.hero.src)}">` : '';
  return withFirstScreen(html, markup, { language, title: screen.title, head, site: 'mobile' });
}

/** What the server renders the desktop home page from (src/app/boot/home-first-screen.tsx's input). */
export interface HomeFirstScreenInput {
  document: unknown;
  race: RaceInfo | null;
  language: SiteLanguage;
  now: number;
}

/** The app's home page renderer (dist/.server/home-first-screen.js). */
export type HomeRenderer = (input: HomeFirstScreenInput) => string | undefined;

/**
 * index.html with the desktop home page the renderer drew (`markup`, the app's #root) in place of the splash,
 * the stylesheets of its first render linked, and without the app's module tags. The splash stays, hidden: a
 * visit to another page (the server cannot see the hash) shows it instead (first-screen-loader.ts).
 */
export function desktopDocument(html: string, markup: string, language: SiteLanguage, title: string): string {
  const splash = SPLASH.exec(html);
  if (!splash || !canCarryFirstScreen(html) || !ROOT.test(html)) return html;
  const links = homeStylesheetsOf(html)
    .filter((href) => !html.includes(`href="${href}"`))
    .map((href) => `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`)
    .join('');
  const page = withFirstScreen(html, `${markup}${splash[0]}`, { language, title });
  return page.replace(ROOT, '<div id="root" data-first-screen="home">').replace('</head>', () => `${links}</head>`);
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

/** What a first screen is drawn from: the domain's published configuration, its race, the visitor's language. */
export interface PublishedSite {
  /** The published document's MD5: a publish gives a new one (the store is content-addressed). */
  md5: string;
  config: SiteConfig;
  race: RaceInfo | null;
  language: SiteLanguage;
}

/**
 * The request's domain as published, or undefined (no published configuration, or one the store no longer
 * has). It is read on every request, so a publish shows at once; parsed documents are kept by their MD5.
 */
export function publishedSiteSource(app: FastifyInstance) {
  const parsed = new Map<string, SiteConfig>();
  return async (request: FastifyRequest): Promise<PublishedSite | undefined> => {
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
    return { md5: published.md5, config, race, language: cookieLanguage(request.headers.cookie) };
  };
}

/** The mobile first screen of the request's domain (publishedSiteSource), or undefined. */
export function firstScreenSource(app: FastifyInstance, site = publishedSiteSource(app)) {
  return async (request: FastifyRequest, imageHost: string): Promise<FirstScreen | undefined> => {
    const published = await site(request);
    return published && firstScreenOf(published.config, published.race, published.language, imageHost);
  };
}

/** Where the site's build puts the home page's server renderer (vite.config.ts SERVER_OUT_DIR). */
export const HOME_RENDERER_FILE = path.join('.server', 'home-first-screen.js');

/**
 * The desktop home page of the request's domain as the app draws it (publishedSiteSource and the build's
 * renderer), or undefined: no published configuration, no renderer in the build, a document the app cannot
 * use. The renderer is loaded again when a new build replaces it. The page drawn is kept for the second it
 * was drawn in, per published document, race and language: race-day traffic renders it once a second at
 * most, the countdown stays on time, and a publish (a new MD5) or a change to the race shows at once.
 */
export function homeFirstScreenSource(app: FastifyInstance, staticDir: string, site = publishedSiteSource(app)) {
  const file = path.join(path.resolve(staticDir), HOME_RENDERER_FILE);
  let loaded: { version: string; render: HomeRenderer } | undefined;
  const drawn = new Map<string, { second: number; markup: string | undefined }>();
  const renderer = async (): Promise<HomeRenderer | undefined> => {
    let version: string;
    try {
      const { mtimeMs, size } = await stat(file);
      version = `${mtimeMs}-${size}`;
    } catch {
      return undefined; // a build without it (or none yet): the page as built
    }
    if (loaded?.version !== version) {
      const module = (await import(`${pathToFileURL(file).href}?v=${version}`)) as {
        renderHomeFirstScreen?: HomeRenderer;
      };
      if (typeof module.renderHomeFirstScreen !== 'function') return undefined;
      loaded = { version, render: module.renderHomeFirstScreen };
      drawn.clear();
    }
    return loaded.render;
  };
  return async (request: FastifyRequest): Promise<{ markup: string; published: PublishedSite } | undefined> => {
    const render = await renderer();
    if (!render) return undefined;
    const published = await site(request);
    if (!published) return undefined;
    const now = app.config.now();
    const second = Math.floor(now / 1000);
    const key = `${published.md5}\n${published.language}\n${JSON.stringify(published.race)}`;
    let page = drawn.get(key);
    if (page?.second !== second) {
      page = {
        second,
        markup: render({ document: published.config, race: published.race, language: published.language, now }),
      };
      if (drawn.size >= 64) drawn.clear();
      drawn.set(key, page);
    }
    return page.markup === undefined ? undefined : { markup: page.markup, published };
  };
}
