/**
 * The mobile site's first screen (#16): the page the server answers for /m/ shows the domain's title, mobile
 * logo and first slide (in a template the loader opens on the home page only), without the app's module
 * tags; the desktop page and domains without a published configuration get index.html as built.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  canCarryFirstScreen,
  cookieLanguage,
  desktopDocument,
  HOME_RENDERER_FILE,
  homeStylesheetsOf,
  imageHostOf,
  mobileDocument,
} from '../src/lib/first-screen.ts';
import { publishSiteConfig } from '../src/db/site-config-publisher.ts';
import { buildTestApp, fakeClock, FIXTURE_SEED, removeTempDirs, tempDir } from './helpers.ts';

/**
 * index.html as the build writes it: the markers, the image host, the two first-screen scripts (stand-ins of
 * src/app/boot/first-screen-loader.ts, whose own test runs them), the module tags.
 */
const BUILT = `<!doctype html>
<html lang="zh-CN">
  <head>
    <script>(function firstScreenPreload() {})();</script>
    <title>赛事官网 · Race website</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/chunk-def456.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc123.css">
    <meta name="race-site-image-host" content="/files/">
    <meta name="race-site-home-css" content="/assets/render-app-1.css /assets/index-abc123.css /assets/home-page-2.css">
  </head>
  <body>
    <div id="root">
      <!--boot-splash-->
      <div class="boot-splash"><p class="boot-splash__text">正在加载赛事官网… Loading…</p></div>
      <!--/boot-splash-->
    </div>
    <script>(function firstScreenLoader(entry) {})("/assets/index-abc123.js");</script>
  </body>
</html>`;

const apps: { close: () => Promise<unknown> }[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(removeTempDirs);

function dist(html = BUILT) {
  const dir = tempDir('race-site-dist-');
  writeFileSync(path.join(dir, 'index.html'), html);
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

async function page(url: string, headers: Record<string, string> = {}, html?: string) {
  const app = await buildTestApp({ staticDir: dist(html) });
  apps.push(app);
  return app.inject({ method: 'GET', url, headers });
}

describe('the first screen of the mobile site', () => {
  it('shows the domain’s title, mobile logo and first slide, without the app’s module tags', async () => {
    const res = await page('/m/', { host: 'localhost' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    // The site title as the SPA writes it (the fixture's websiteTitle, '2025 测试马拉松', already starts with the
    // race's year, which is then not written twice), and the images on the image host as the SPA resolves them (the fixture's paths start with /files/).
    expect(html).toContain('<title>2025 测试马拉松</title>');
    expect(html).toContain('<img class="first-screen__logo" src="/files/files/demo/logo.svg" alt="2025 测试马拉松"');
    expect(html).toMatch(
      /<template id="first-screen-hero"><img class="first-screen__hero" src="\/files\/[^"]*poster\.png"/,
    );
    expect(html).toContain('<meta name="first-screen-hero" content="/files/');
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('class="boot-splash"');
    expect(html).toContain('正在加载赛事官网… Loading…');
    expect(html).toContain('firstScreenLoader');
    // The page policy still allows exactly the inline scripts of the built file.
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[^']+' 'sha256-[^']+'/);
  });

  it('speaks the visitor’s language, from the cookie', async () => {
    const res = await page('/m/#/home', { host: 'localhost', cookie: 'a=1; language=en' });
    expect(res.body).toContain('<html lang="en" data-site="mobile">');
    expect(res.body).toMatch(/<title>2025 [^<]+<\/title>/);
    expect(res.body).not.toContain('测试马拉松</title>');
  });

  it('leaves the desktop page, other domains and a build without the markers as they are', async () => {
    const desktop = await page('/news', { host: 'localhost' });
    expect(desktop.body).toBe(BUILT);
    const unbound = await page('/m/', { host: 'unbound.example' });
    expect(unbound.body).toBe(BUILT);
    const plain = '<!doctype html><title>race-site</title><div id="root"></div>';
    expect((await page('/m/', { host: 'localhost' }, plain)).body).toBe(plain);
  });
});

describe('index.html as served', () => {
  it('is read again once a new build replaces it, on the desktop and the mobile site', async () => {
    const dir = dist();
    const app = await buildTestApp({ staticDir: dir });
    apps.push(app);
    const get = async (url: string) => (await app.inject({ method: 'GET', url, headers: { host: 'localhost' } })).body;
    expect(await get('/news')).toBe(BUILT);
    expect(await get('/m/')).toContain('first-screen__logo');
    const rebuilt = BUILT.replace('<title>', '<meta name="build" content="2"><title>');
    writeFileSync(path.join(dir, 'index.html'), rebuilt);
    expect(await get('/news')).toBe(rebuilt);
    expect(await get('/m/')).toContain('<meta name="build" content="2">');
    const plain = '<!doctype html><title>race-site</title><div id="root"></div>';
    writeFileSync(path.join(dir, 'index.html'), plain);
    expect(await get('/m/')).toBe(plain);
  });
});

/**
 * A stand-in of the build's home renderer (vite.config.ts builds src/app/boot/home-first-screen.tsx there; the
 * browser tests, tests/e2e/home-first-screen.e2e.ts, run the real one): it draws what it was given.
 */
const RENDERER = `export function renderHomeFirstScreen({ document, race, language, now }) {
  if (!document.carouselList) return undefined;
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';');
  return '<div class="site" data-layout="site"><p class="title">' + esc(document.websiteTitle) + '</p><p class="race">' +
    esc(race && race.raceName) + '</p><p class="language">' + language + '</p><p class="now">' + now + '</p></div>';
}`;

function distWithRenderer(renderer = RENDERER) {
  const dir = dist();
  mkdirSync(path.join(dir, '.server'));
  writeFileSync(path.join(dir, HOME_RENDERER_FILE), renderer);
  return dir;
}

describe('the first screen of the desktop home page', () => {
  it('is the home page the build’s renderer draws, with its stylesheets, without the app’s module tags', async () => {
    const app = await buildTestApp({ staticDir: distWithRenderer() });
    apps.push(app);
    const res = await app.inject({ method: 'GET', url: '/', headers: { host: 'localhost', cookie: 'language=en' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(html).toMatch(/<div id="root" data-first-screen="home">\s*<div class="site" data-layout="site">/);
    expect(html).toContain('<p class="title">2025 测试马拉松</p>');
    expect(html).toContain('<p class="language">en</p>');
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<title>2025 [^<]+<\/title>/);
    // The splash stays beside it (shown on a deep link), the module tags go, the loader stays.
    expect(html).toContain('class="boot-splash"');
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('firstScreenLoader');
    // The stylesheets of the home page's first render, each once.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/render-app-1.css">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/home-page-2.css">');
    expect(html.split('href="/assets/index-abc123.css"')).toHaveLength(2);
    // The page policy still allows exactly the inline scripts of the built file.
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[^']+' 'sha256-[^']+'(;|$)/);
  });

  it('follows a publish at once, and stays the same within a second', async () => {
    const clock = fakeClock();
    const app = await buildTestApp({ staticDir: distWithRenderer(), now: clock.now });
    apps.push(app);
    const get = async () => (await app.inject({ method: 'GET', url: '/', headers: { host: 'localhost' } })).body;
    const first = await get();
    expect(first).toContain(`<p class="now">${clock.now()}</p>`);
    clock.advance(400);
    expect(await get()).toBe(first);
    clock.advance(600);
    expect(await get()).toContain(`<p class="now">${clock.now()}</p>`);
    const seeded = JSON.parse(readFileSync(path.join(FIXTURE_SEED, 'site-configs', 'localhost.json'), 'utf8'));
    await publishSiteConfig({
      siteConfigs: app.repos.siteConfigs,
      files: app.files,
      domainName: 'localhost',
      bytes: Buffer.from(JSON.stringify({ ...seeded, websiteTitle: '新标题 <马拉松>' })),
      now: clock.now() + 1,
    });
    const republished = await get();
    expect(republished).toContain('<p class="title">新标题 &#60;马拉松&#62;</p>');
    expect(republished).toContain('<title>2025新标题 &lt;马拉松&gt;</title>');
  });

  it('leaves the page as built: another domain, a renderer that declines or fails, no renderer, other paths', async () => {
    const declining = await buildTestApp({
      staticDir: distWithRenderer('export function renderHomeFirstScreen() { return undefined; }'),
    });
    const failing = await buildTestApp({
      staticDir: distWithRenderer('export function renderHomeFirstScreen() { throw new Error("no"); }'),
    });
    const drawing = await buildTestApp({ staticDir: distWithRenderer() });
    const none = await buildTestApp({ staticDir: dist() });
    apps.push(declining, failing, drawing, none);
    const get = async (app: typeof none, url: string, host = 'localhost') =>
      (await app.inject({ method: 'GET', url, headers: { host } })).body;
    expect(await get(declining, '/')).toBe(BUILT);
    expect(await get(failing, '/')).toBe(BUILT);
    expect(await get(none, '/')).toBe(BUILT);
    expect(await get(drawing, '/', 'unbound.example')).toBe(BUILT);
    expect(await get(drawing, '/news')).toBe(BUILT);
    // The renderer is the server's, never sent.
    const file = await drawing.inject({ method: 'GET', url: '/.server/home-first-screen.js' });
    expect(file.statusCode).toBe(404);
  });

  it('reads the stylesheets the build names, and leaves a page without the markers as it is', () => {
    expect(homeStylesheetsOf(BUILT)).toEqual([
      '/assets/render-app-1.css',
      '/assets/index-abc123.css',
      '/assets/home-page-2.css',
    ]);
    const plain = '<!doctype html><title>race-site</title><div id="root"></div>';
    expect(desktopDocument(plain, '<div class="site"></div>', 'zh', 'x')).toBe(plain);
  });
});

describe('the console’s preview of a draft (contract/preview.ts)', () => {
  it('is the page as built, desktop and phone: the app draws the draft, never the published first screen', async () => {
    const app = await buildTestApp({ staticDir: distWithRenderer() });
    apps.push(app);
    for (const url of ['/?preview=site&domain=localhost&lang=zh', '/m/?preview=site&domain=localhost&lang=en']) {
      const res = await app.inject({ method: 'GET', url, headers: { host: 'localhost' } });
      expect(res.statusCode).toBe(200);
      expect(res.body, url).toContain('<script type="module" crossorigin src="/assets/index-abc123.js">');
      expect(res.body, url).not.toContain('data-first-screen');
      expect(res.body, url).not.toContain('first-screen-hero');
    }
    // Without a preview the same pages carry the first screens.
    const home = await app.inject({ method: 'GET', url: '/', headers: { host: 'localhost' } });
    expect(home.body).toContain('data-first-screen');
  });
});

describe('mobileDocument', () => {
  it('escapes what the configuration says and keeps unsafe links out', () => {
    const html = mobileDocument(
      BUILT,
      {
        title: '</title><script>alert(1)</script>',
        logo: '/x.svg" onerror="alert(1)',
        hero: { src: '/h.png', alt: '"><b>' },
      },
      'zh',
    );
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).toContain('src="/x.svg&quot; onerror=&quot;alert(1)"');
    expect(html).toContain('alt="&quot;&gt;&lt;b&gt;"');
    expect(html).not.toContain('<script>alert(1)');
  });

  it('shows the title where there is no logo, and no template without a slide', () => {
    const html = mobileDocument(BUILT, { title: 'Race & Run' }, 'en');
    expect(html).toContain('<span class="first-screen__title">Race &amp; Run</span>');
    expect(html).not.toContain('<template');
    expect(html).not.toContain('<meta name="first-screen-hero"');
  });

  it('reads the image host and the language cookie', () => {
    expect(imageHostOf(BUILT)).toBe('/files/');
    expect(imageHostOf(BUILT.replace('content="/files/"', 'content="https://img.example/a?b=1&amp;c=2"'))).toBe(
      'https://img.example/a?b=1&c=2',
    );
    expect(canCarryFirstScreen(BUILT)).toBe(true);
    expect(canCarryFirstScreen(BUILT.replace('<!--boot-splash-->', ''))).toBe(false);
    expect(cookieLanguage('language=en')).toBe('en');
    expect(cookieLanguage('x=1; language=zh')).toBe('zh');
    expect(cookieLanguage('language=fr')).toBe('zh');
    expect(cookieLanguage(undefined)).toBe('zh');
  });
});
