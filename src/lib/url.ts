/**
 * URL rules of spec §5, one helper each.
 * - File and image URLs starting with http, https or blob are used as is; anything else is a path on
 *   the file resource host.
 * - Web links starting with http, https or // are used as is; anything else is prefixed with //.
 * - Only links that begin with http, https or // look clickable (ads).
 * Dangerous schemes (javascript:, data:, vbscript:, file:) never pass: they resolve to undefined. What is
 * safe, internal or external is decided by inspectLink (src/lib/link-safety.ts), the rule that
 * `site validate` applies too.
 */
import { getEnv } from '@/config/env';
import { inspectLink } from '#contract/link-safety';
import { resolveOnHost } from '#contract/site-config/first-screen';

const blocked = (value: string) => inspectLink(value).kind === 'blocked';

/** A file or image URL from a config or an API answer, ready for src/href. */
export function resolveFileUrl(url: string | null | undefined, host = getEnv().fileHost): string | undefined {
  return resolveOnHost(url, host);
}

/** An image URL: same rule as files, on the image host. */
export function resolveImageUrl(url: string | null | undefined): string | undefined {
  return resolveFileUrl(url, getEnv().imageHost);
}

/** An external web link from a config, ready for an anchor's href. */
export function resolveWebLink(url: string | null | undefined): string | undefined {
  const value = url?.trim();
  if (!value || blocked(value) || /\s/.test(value)) return undefined;
  if (inspectLink(value).kind === 'external') return value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return undefined; // mailto:, tel: and other schemes are not web links
  return `//${value.replace(/^\/+/, '')}`;
}

/**
 * An ad (or any config link) looks clickable only when its link begins with http, https or // (or a
 * backslash form of //, which browsers read the same way).
 */
export function isClickableLink(url: string | null | undefined): boolean {
  return inspectLink(url).kind === 'external';
}

export type Jump = { kind: 'external'; href: string } | { kind: 'internal'; to: string };

/**
 * Where a config's jump link goes: a path starting with a single '/' is a route of this site (opened in
 * the same tab); an http, https or // link is external (new tab), and so are "/\host" and "\\host",
 * which browsers open as "//host"; anything else is not a link.
 */
export function resolveJump(url: string | null | undefined): Jump | null {
  const value = url?.trim();
  if (!value) return null;
  const { kind } = inspectLink(value);
  if (kind === 'internal') return /\s/.test(value) ? null : { kind: 'internal', to: value };
  return kind === 'external' ? { kind: 'external', href: value } : null;
}
