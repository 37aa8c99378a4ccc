/**
 * Security headers of every answer: the SPA document, the API (Fastify's onSend hook in app.ts and the
 * race-day hot path, lib/hot-path.ts, which answers before Fastify's hooks), files and assets.
 *
 * - Every answer: X-Content-Type-Options, X-Frame-Options SAMEORIGIN, Referrer-Policy, Permissions-Policy and
 *   a Content-Security-Policy; Strict-Transport-Security only when the request came over https (the
 *   request's protocol; behind TRUST_PROXY the X-Forwarded-Proto of a trusted proxy, as Fastify reads it).
 * - The SPA document (text/html) gets the page policy (`documentPolicy`): scripts from the site only, plus
 *   the inline early-fetch script of index.html by its SHA-256 (computed from the built index.html, again
 *   whenever the file changes, never 'unsafe-inline'); styles with 'unsafe-inline' (antd injects <style>
 *   tags); images and videos from the site, data:/blob: and any https host (site configs name image and
 *   video URLs on the organiser's hosts, spec §5 "URLs"); requests to the site and to the absolute hosts the
 *   build names (VITE_API_BASE_URL, VITE_IMAGE_HOST); framing by the site only.
 * - Everything else (JSON, files, assets) gets `default-src 'none'; frame-ancestors 'self'`: nothing an
 *   answer of the API could carry may run or load anything if it is opened as a page.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';

/** Decides whether the connection's peer is a trusted proxy (proxy-addr's compiled TRUST_PROXY list). */
export type TrustProxy = (address: string, hop: number) => boolean;

export const API_CSP = "default-src 'none'; frame-ancestors 'self'";
export const HSTS = 'max-age=31536000';

/** The headers of every answer but its Content-Security-Policy and HSTS. */
export const COMMON_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
} as const;

/** The security headers of an API answer (the hot path sends exactly what Fastify's onSend hook adds). */
export function apiSecurityHeaders(https: boolean): Record<string, string> {
  return {
    ...COMMON_SECURITY_HEADERS,
    'content-security-policy': API_CSP,
    ...(https ? { 'strict-transport-security': HSTS } : {}),
  };
}

/**
 * Whether a request came over https, as Fastify's `request.protocol` decides it: the last X-Forwarded-Proto
 * entry when the peer is a trusted proxy, otherwise whether the connection itself is TLS.
 */
export function isHttps(req: IncomingMessage, trustProxy?: TrustProxy): boolean {
  // Without trusted proxies neither the headers nor the peer are read (the hot path never builds req.headers).
  const forwarded = trustProxy === undefined ? undefined : req.headers['x-forwarded-proto'];
  const peer = forwarded ? req.socket?.remoteAddress : undefined;
  if (forwarded && trustProxy !== undefined && peer !== undefined && trustProxy(peer, 0)) {
    const value = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
    return (
      value
        .slice(value.lastIndexOf(',') + 1)
        .trim()
        .toLowerCase() === 'https'
    );
  }
  return Boolean((req.socket as { encrypted?: boolean } | undefined)?.encrypted);
}

/** The 'sha256-…' sources of the inline scripts of an HTML document (scripts with a src are not inline). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes = '', body = ''] = match;
    if (/\bsrc\s*=/i.test(attributes) || body === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...new Set(hashes)];
}

/** The absolute http(s) origins an inline script names (the API and image hosts of the build). */
export function namedOrigins(html: string): string[] {
  const origins = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script\s*>/gi)) {
    for (const url of (match[1] ?? '').matchAll(/"(https?:\/\/[^"\s/]+)[^"\s]*"/gi)) {
      try {
        origins.add(new URL(url[1] ?? '').origin);
      } catch {
        // not a URL
      }
    }
  }
  return [...origins];
}

/** The page policy of an HTML document with these inline-script hashes and named origins. */
export function documentCsp(hashes: readonly string[], origins: readonly string[] = []): string {
  const extra = origins.length > 0 ? ` ${origins.join(' ')}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${hashes.length > 0 ? ` ${hashes.join(' ')}` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${extra}`,
    `media-src 'self' blob: https:${extra}`,
    "font-src 'self' data:",
    `connect-src 'self'${extra}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * The organiser console's page (dist/admin/): no inline script at all, and never inside another site's frame.
 */
export const CONSOLE_DOCUMENT_CSP = documentCsp([]).replace("frame-ancestors 'self'", "frame-ancestors 'none'");

/**
 * The page policy of the built SPA's index.html: read when the server starts, and again when the file
 * changes (a new build is served at once, see plugins/spa.ts), so the hash always matches the script sent.
 */
export class DocumentPolicy {
  private key = '';
  private policy = documentCsp([]);

  constructor(private readonly staticDir: string | undefined) {
    this.current();
  }

  current(): string {
    if (this.staticDir === undefined) return this.policy;
    const file = path.join(this.staticDir, 'index.html');
    let key: string;
    try {
      const stat = statSync(file);
      key = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      return this.policy;
    }
    if (key !== this.key) {
      try {
        const html = readFileSync(file, 'utf8');
        this.policy = documentCsp(inlineScriptHashes(html), namedOrigins(html));
        this.key = key;
      } catch {
        // keep the last policy
      }
    }
    return this.policy;
  }
}
