/**
 * Security headers (lib/security-headers.ts) on the SPA document, the API, files and error answers: the
 * page policy lets exactly the inline early-fetch script of the served index.html run (by its hash), HSTS
 * only over https.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { documentCsp, inlineScriptHashes, namedOrigins } from '../src/lib/security-headers.ts';
import { buildTestApp, removeTempDirs, tempDir } from './helpers.ts';

const EARLY = `(function earlyFetch(plan) {\n\ttry { fetch(plan.apiBase + "/x"); } catch {}\n})({"apiBase":"","imageHost":"/files/"});`;

const page = (inline: string) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="UTF-8" />
<style>html,body{margin:0}</style>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<link rel="stylesheet" crossorigin href="/assets/index-abc.css">
<script>${inline}</script>
</head><body><div id="root"></div></body></html>`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function builtSite(inline = EARLY) {
  const dir = tempDir('race-site-static-');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), page(inline));
  writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  return dir;
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
afterAll(removeTempDirs);

async function app(options: Parameters<typeof buildTestApp>[0] = {}) {
  const built = await buildTestApp({ env: { RATE_LIMITS: 'off', NODE_ENV: 'test' }, ...options });
  apps.push(built);
  return built;
}

/** Parses a policy into directive → sources. */
function directives(policy: string | string[] | number | undefined): Record<string, string[]> {
  return Object.fromEntries(
    String(policy)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

const COMMON = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': expect.stringContaining('camera=()'),
};

describe('the SPA document', () => {
  it('lets the inline early-fetch script run by its hash, not by unsafe-inline, and allows what antd needs', async () => {
    const site = await app({ staticDir: builtSite() });
    for (const url of ['/', '/index.html', '/some/client/route']) {
      const res = await site.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers, url).toMatchObject(COMMON);
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      const csp = directives(res.headers['content-security-policy']);
      expect(csp['script-src'], url).toEqual(["'self'", sha256(EARLY)]);
      expect(csp['style-src'], url).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp['frame-ancestors'], url).toEqual(["'self'"]);
      expect(csp['default-src'], url).toEqual(["'self'"]);
      expect(csp['connect-src'], url).toEqual(["'self'"]);
      expect(csp['img-src'], url).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:', 'https:']));
      expect(csp['media-src'], url).toEqual(expect.arrayContaining(["'self'", 'blob:', 'https:']));
      expect(csp['object-src'], url).toEqual(["'none'"]);
      expect(csp['base-uri'], url).toEqual(["'self'"]);
      expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-eval');
    }
  });

  it('leaves the cached policy of a revalidated document alone (no policy on a 304)', async () => {
    const site = await app({ staticDir: builtSite() });
    const first = await site.inject({ method: 'GET', url: '/' });
    const etag = String(first.headers.etag);
    const again = await site.inject({ method: 'GET', url: '/', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-security-policy']).toBeUndefined();
    expect(again.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('follows a new build of index.html without a restart', async () => {
    const dir = builtSite();
    const site = await app({ staticDir: dir });
    const first = directives((await site.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(first['script-src']).toContain(sha256(EARLY));
    const rebuilt = EARLY.replace('"/x"', '"/y"');
    writeFileSync(path.join(dir, 'index.html'), page(rebuilt));
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(dir, 'index.html'), later, later);
    const second = directives((await site.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(second['script-src']).toEqual(["'self'", sha256(rebuilt)]);
  });

  it('lets the page call an API and load images on the absolute hosts the build names', () => {
    const html = page(
      '(function(p){})({"apiBase":"https://api.example.com","imageHost":"https://img.example.com/files/"});',
    );
    expect(namedOrigins(html)).toEqual(['https://api.example.com', 'https://img.example.com']);
    const csp = directives(documentCsp(inlineScriptHashes(html), namedOrigins(html)));
    expect(csp['connect-src']).toEqual(["'self'", 'https://api.example.com', 'https://img.example.com']);
    expect(csp['img-src']).toContain('https://img.example.com');
  });

  it('hashes inline scripts only, each once', () => {
    const html = `${page('a()')}<script src="/x.js"></script><script>a()</script><script>b()</script>`;
    expect(inlineScriptHashes(html)).toEqual([sha256('a()'), sha256('b()')]);
  });
});

describe('the API, files and error answers', () => {
  it('carry the security headers and the API policy', async () => {
    const site = await app({ staticDir: builtSite() });
    const answers = [
      await site.inject({ method: 'GET', url: `${API_PATHS.raceByDomain}?domainName=localhost` }),
      await site.inject({
        method: 'POST',
        url: API_PATHS.login,
        payload: '{"bad json',
        headers: { 'content-type': 'application/json' },
      }),
      await site.inject({ method: 'GET', url: '/website-centre/api/nope' }),
      await site.inject({ method: 'GET', url: '/assets/index-abc.js' }),
      await site.inject({ method: 'GET', url: '/%E0%A4%A' }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(res.headers, res.body).toMatchObject({
        ...COMMON,
        'content-security-policy': "default-src 'none'; frame-ancestors 'self'",
      });
    }
  });

  it('keeps the development outbox page its own stricter policy', async () => {
    const site = await app();
    const res = await site.inject({ method: 'GET', url: API_PATHS.devOutbox });
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'",
    );
    expect(res.headers).toMatchObject(COMMON);
  });
});

describe('HSTS', () => {
  it('is sent over https as a trusted proxy forwards it, never over http or on a forged header', async () => {
    const behindProxy = await app({ staticDir: builtSite(), env: { RATE_LIMITS: 'off', TRUST_PROXY: '10.0.0.1' } });
    const viaProxy = (proto: string, remoteAddress = '10.0.0.1') =>
      behindProxy.inject({ method: 'GET', url: '/', remoteAddress, headers: { 'x-forwarded-proto': proto } });
    expect((await viaProxy('https')).headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await viaProxy('http, https')).headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await viaProxy('http')).headers['strict-transport-security']).toBeUndefined();
    expect((await viaProxy('https', '192.0.2.7')).headers['strict-transport-security']).toBeUndefined();
    const api = await behindProxy.inject({
      method: 'GET',
      url: `${API_PATHS.raceByDomain}?domainName=localhost`,
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000');
    const direct = await app();
    const forged = await direct.inject({
      method: 'GET',
      url: API_PATHS.devOutbox,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });
});
