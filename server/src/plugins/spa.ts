/**
 * Serves the built SPA (dist/) at `/`. Hashed assets under /assets/ are cached for a year; index.html is
 * revalidated on every load so a new build is picked up at once. The fallback to index.html for unknown
 * non-API paths lives in the app's not-found handler (see `spaFallback`).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_PREFIXES } from '#contract/api';
import { SITE_PATHS } from '#contract/entry';
import { readPreview } from '#contract/preview';
import { siteTitle, type FirstScreen } from '#contract/site-config/first-screen';
import {
  canCarryFirstScreen,
  cookieLanguage,
  desktopDocument,
  imageHostOf,
  mobileDocument,
  type PublishedSite,
} from '../lib/first-screen.ts';

export const INDEX_CACHE = 'no-cache';
export const ASSET_CACHE = 'public, max-age=31536000, immutable';
const OTHER_CACHE = 'public, max-age=3600';

export function isApiPath(pathname: string): boolean {
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** A path whose last segment has an extension, or under /assets/, names a file: missing, it is a 404. */
function looksLikeFile(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return last.includes('.') || pathname.startsWith('/assets/');
}

/** The mobile site's pages (#16): /m and everything under /m/ (SITE_PATHS; src/lib/mobile-site.ts). */
export const isMobileSitePath = (pathname: string) =>
  pathname === SITE_PATHS.mobile.slice(0, -1) || pathname.startsWith(SITE_PATHS.mobile);

/** The organiser console's page (vite.admin.config.ts builds it into dist/admin/). */
export const ADMIN_PAGE = '/admin/';
export const isConsolePath = (pathname: string) => pathname.startsWith(ADMIN_PAGE);

/** The first screen of the request's domain (lib/first-screen.ts `firstScreenSource`). */
export type FirstScreenOf = (request: FastifyRequest, imageHost: string) => Promise<FirstScreen | undefined>;

/** The desktop home page of the request's domain as the app draws it (lib/first-screen.ts `homeFirstScreenSource`). */
export type HomeFirstScreenOf = (
  request: FastifyRequest,
) => Promise<{ markup: string; published: PublishedSite } | undefined>;

/** The first screens the fallback can write into the page. */
export interface FirstScreens {
  mobile?: FirstScreenOf;
  home?: HomeFirstScreenOf;
}

/** index.html as last read, with what a mobile page's first screen needs to know of it. */
interface IndexDocument {
  mtimeMs: number;
  size: number;
  html: Buffer;
  page: string;
  /** The image host the build wrote, or undefined: then no first screen (as for a build without markers). */
  imageHost: string | undefined;
}

const indexDocuments = new Map<string, IndexDocument>();

/**
 * A build's index.html, read again only when the file changes (its modification time or size): a new build
 * is served at once, and a phone's page is not read from disk and searched for its markers every time.
 */
async function indexDocument(file: string): Promise<IndexDocument> {
  const { mtimeMs, size } = await stat(file);
  const kept = indexDocuments.get(file);
  if (kept !== undefined && kept.mtimeMs === mtimeMs && kept.size === size) return kept;
  const html = await readFile(file);
  const page = html.toString('utf8');
  const imageHost = canCarryFirstScreen(page) ? imageHostOf(page) : undefined;
  const made = { mtimeMs, size, html, page, imageHost };
  // One entry per static folder (a process serves one; tests make many).
  if (indexDocuments.size >= 16) indexDocuments.clear();
  indexDocuments.set(file, made);
  return made;
}

/**
 * Answers a not-found GET/HEAD with index.html when it is a client route of the SPA. Returns false when the
 * request is not one (API path, file, other method) so the caller answers 404. A page of the mobile site
 * carries the domain's first screen when `firstScreens.mobile` knows one, and the desktop site's page (`/`,
 * whose hash router starts on the home page) the home page when `firstScreens.home` draws it
 * (lib/first-screen.ts).
 */
export async function spaFallback(
  staticDir: string,
  request: FastifyRequest,
  reply: FastifyReply,
  firstScreens: FirstScreens = {},
): Promise<boolean> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '/';
  if (isApiPath(pathname) || looksLikeFile(pathname)) return false;
  // The organiser console (dist/admin/, hash-routed): its own page at /admin/ and under it.
  const inConsole = isConsolePath(pathname);
  let index: IndexDocument;
  try {
    index = await indexDocument(path.join(staticDir, inConsole ? 'admin' : '', 'index.html'));
  } catch {
    return false;
  }
  // The console's preview of a draft (contract/preview.ts) is drawn by the app alone, never the published site.
  const preview = readPreview(request.url.split('?')[1]?.split('#')[0] ?? '') !== null;
  const html =
    inConsole || preview
      ? index.html
      : isMobileSitePath(pathname)
        ? firstScreens.mobile
          ? await withFirstScreen(index, request, firstScreens.mobile)
          : index.html
        : pathname === '/' && firstScreens.home
          ? await withHomeFirstScreen(index, request, firstScreens.home)
          : index.html;
  // Revalidated on every load (no-cache): an unchanged page is a 304, as the static files answer.
  const etag = `"${createHash('sha1').update(html).digest('base64url')}"`;
  if (request.headers['if-none-match'] === etag) {
    await reply.code(304).header('cache-control', INDEX_CACHE).header('etag', etag).send();
    return true;
  }
  await reply
    .code(200)
    .header('cache-control', INDEX_CACHE)
    .header('etag', etag)
    .type('text/html; charset=utf-8')
    .send(html);
  return true;
}

async function withFirstScreen(
  { html, page, imageHost }: IndexDocument,
  request: FastifyRequest,
  firstScreen: FirstScreenOf,
): Promise<Buffer> {
  if (imageHost === undefined) return html;
  try {
    const screen = await firstScreen(request, imageHost);
    return screen ? Buffer.from(mobileDocument(page, screen, cookieLanguage(request.headers.cookie))) : html;
  } catch (error) {
    // A store or a document that cannot be read: the page as built (the app shows its own messages).
    request.log.warn({ err: error }, 'mobile first screen left out');
    return html;
  }
}

async function withHomeFirstScreen(
  { html, page, imageHost }: IndexDocument,
  request: FastifyRequest,
  home: HomeFirstScreenOf,
): Promise<Buffer> {
  if (imageHost === undefined) return html;
  try {
    const drawn = await home(request);
    if (!drawn) return html;
    const { config, race, language } = drawn.published;
    return Buffer.from(desktopDocument(page, drawn.markup, language, siteTitle(race, config, language)));
  } catch (error) {
    // A store, a document or a renderer that fails: the page as built (the app shows its own messages).
    request.log.warn({ err: error }, 'desktop first screen left out');
    return html;
  }
}

async function spaPlugin(app: FastifyInstance, options: { staticDir: string }) {
  // /admin is the console's folder: its page is /admin/, where its relative links work.
  app.get(ADMIN_PAGE.slice(0, -1), (_request, reply) => reply.redirect(ADMIN_PAGE, 301));
  const root = path.resolve(options.staticDir);
  // Hashed files: the site's and the console's.
  const assets = [path.join(root, 'assets') + path.sep, path.join(root, 'admin', 'assets') + path.sep];
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    decorateReply: false,
    index: ['index.html'],
    // The site's page at / is the fallback's (spaFallback: it may carry the home page's first screen).
    allowedPath: (pathname) => pathname !== '/',
    list: false,
    dotfiles: 'ignore',
    // The build writes .br and .gz beside each asset (vite.config.ts): sent as they are.
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const file = path.resolve(filePath);
      const cache =
        path.basename(file) === 'index.html'
          ? INDEX_CACHE
          : assets.some((folder) => file.startsWith(folder))
            ? ASSET_CACHE
            : OTHER_CACHE;
      void reply.header('cache-control', cache);
    },
  });
}

export default fp(spaPlugin, { name: 'spa' });
