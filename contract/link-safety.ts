/**
 * The one link-safety rule, shared by the SPA (src/lib/url.ts decides what becomes an href or a route)
 * and by the organiser's `site validate` / `publish` (the site-config schema refuses unsafe links).
 * No imports: the reference server loads this file as it is.
 *
 * Browsers drop tabs and newlines anywhere in a URL and read "\" as "/" in http(s) URLs, so
 * "java\tscript:…" is a script link and "/\evil.example" is the same as "//evil.example": another site.
 */

/** Schemes that run code or read local files when clicked or loaded. */
const BLOCKED_SCHEME = /^(javascript|data|vbscript|file):/i;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this rule looks for
const CONTROL = /[\u0000-\u001f\u007f]/;
const TAB_OR_NEWLINE = /[\t\n\r]/g;

export interface LinkInspection {
  /**
   * - empty: nothing to link to
   * - internal: a path of this site ("/race-information/race-rules")
   * - external: another site ("https://…", "//host", "/\host", "\\host")
   * - other: a bare host ("beian.miit.gov.cn") or another scheme ("mailto:")
   * - blocked: a script, data or file link, or one with control characters: never usable
   */
  kind: 'empty' | 'internal' | 'external' | 'other' | 'blocked';
  /** Why an organiser must not publish this link (set for every blocked link and for backslash tricks). */
  problem?: string;
}

export function inspectLink(raw: string | null | undefined): LinkInspection {
  const value = (raw ?? '').trim();
  if (!value) return { kind: 'empty' };
  const read = value.replace(TAB_OR_NEWLINE, '');
  const scheme = SCHEME.exec(read)?.[1];
  if (scheme && BLOCKED_SCHEME.test(read)) {
    return { kind: 'blocked', problem: `unsafe link: the ${scheme.toLowerCase()}: scheme is not allowed` };
  }
  if (CONTROL.test(value)) return { kind: 'blocked', problem: 'unsafe link: it contains control characters' };
  const backslash = read.includes('\\')
    ? 'unsafe link: it contains a backslash, which browsers read as "/" (so "/\\evil.example" opens another site); use "/"'
    : undefined;
  if (/^[/\\]{2}/.test(read) || /^https?:[/\\]{2}/i.test(read)) return { kind: 'external', problem: backslash };
  if (read.startsWith('/')) return { kind: 'internal', problem: backslash };
  return { kind: 'other', problem: backslash };
}

/** The organiser-facing problem of a link, or undefined when it may be published. */
export function linkProblem(raw: string | null | undefined): string | undefined {
  return inspectLink(raw).problem;
}
