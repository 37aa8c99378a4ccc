/**
 * The one sanitiser of rich text (document content, news, partner profiles), shared by both browser apps: the
 * public site renders through it (src/components/ui/safe-html.tsx) and the console's rich-text editor gives back
 * only what it returns (admin/src/lib/rich-text-editor.tsx), so what an organiser saves is what a visitor sees.
 * Browser only: DOMPurify needs a DOM (without one it hands its input back as it came), so the server never
 * imports this file (eslint.config.js refuses it; server/tsconfig.json leaves it out).
 *
 * - No scripts, styles, frames, plugins, forms or document-level tags; no event-handler attributes; no
 *   `style` attribute (it can carry url() and expression()); no SVG or MathML.
 * - URLs (href, src, srcset, action, poster, xlink:href …) pass only when they are http(s), protocol-relative,
 *   absolute or relative paths, fragments, mailto: or tel:. javascript:, vbscript: and data: never pass,
 *   not even for images.
 * - Links to another site open in a new tab without an opener; other links never carry a target.
 * - Images load lazily.
 */
import DOMPurify, { type Config } from 'dompurify';
import { inspectLink } from '#contract/link-safety';

/** Attribute values are checked against this (DOMPurify's default minus the rarer schemes). */
const ALLOWED_URI_REGEXP = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
/** Whitespace and control characters a browser ignores inside a URL (DOMPurify's own list). */
const URL_IGNORED = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g; // eslint-disable-line no-control-regex
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'background',
  'cite',
  'xlink:href',
  'longdesc',
  'usemap',
]);

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'script',
    'style',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'applet',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'base',
    'meta',
    'link',
    'noscript',
    'template',
    'portal',
  ],
  FORBID_ATTR: ['style', 'srcdoc', 'formaction', 'action', 'ping'],
  ALLOWED_URI_REGEXP,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

/** True for a URL that may stay in the document: no scheme, or http(s), mailto, tel. */
export function isSafeUrl(value: string): boolean {
  const compact = value.replace(URL_IGNORED, '');
  const scheme = SCHEME.exec(compact)?.[1]?.toLowerCase();
  return inspectLink(value).kind !== 'blocked' && (scheme === undefined || SAFE_SCHEMES.has(scheme));
}

function isSafeSrcset(value: string): boolean {
  return value
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .every((url) => url === '' || isSafeUrl(url));
}

let purifier: ReturnType<typeof DOMPurify> | null = null;

/** A DOMPurify instance of our own, so our hooks never leak into another user of the library. */
function getPurifier() {
  if (purifier) return purifier;
  if (typeof window === 'undefined')
    throw new Error('Rich text is sanitised in a browser only (contract/rich-text.ts)');
  const instance = DOMPurify(window);
  instance.addHook('uponSanitizeAttribute', (_node, event) => {
    const name = event.attrName.toLowerCase();
    if (name.startsWith('on')) event.keepAttr = false;
    else if (URL_ATTRIBUTES.has(name) && !isSafeUrl(event.attrValue)) event.keepAttr = false;
    else if (name === 'srcset' && !isSafeSrcset(event.attrValue)) event.keepAttr = false;
  });
  instance.addHook('afterSanitizeAttributes', (node) => {
    const tag = node.nodeName.toLowerCase();
    if (tag === 'a') {
      const href = node.getAttribute('href')?.trim() ?? '';
      // The one external-link rule (contract/link-safety.ts): "/\host" leaves the site just like "//host".
      if (inspectLink(href).kind === 'external') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else {
        node.removeAttribute('target');
      }
    } else if (tag === 'img') {
      node.setAttribute('loading', 'lazy');
      node.setAttribute('decoding', 'async');
    } else {
      node.removeAttribute('target');
    }
  });
  purifier = instance;
  return instance;
}

/** The sanitised HTML string: what the site shows, and all the console's editor ever gives back. */
export function sanitizeRichText(html: string | null | undefined): string {
  if (typeof html !== 'string' || html.trim() === '') return '';
  return getPurifier().sanitize(html, CONFIG) as unknown as string;
}

/** True when the HTML shows nothing: no text and no image, table or list (e.g. "<p><br></p>"). */
export function isBlankHtml(html: string | null | undefined): boolean {
  if (typeof html !== 'string') return true;
  if (/<(img|table|video|audio|hr|li)\b/i.test(html)) return false;
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|&#xa0;/gi, ' ')
    .trim();
  return text === '';
}
