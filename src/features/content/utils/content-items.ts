/**
 * Guards and orderings for the content of a site configuration. The document is parsed tolerantly at
 * start-up, but a page never trusts it: anything of the wrong shape is skipped, never thrown on.
 */
import type { DocumentPage, PictureItem, VideoItem } from '#contract/site-config/schema';

/** The value when it is a string, else ''. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The value when it is an array, else []. */
export function list<T = unknown>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const hasId = (value: Record<string, unknown>) => typeof value.id === 'string' || typeof value.id === 'number';

export function isDocument(value: unknown): value is DocumentPage {
  return isObject(value) && hasId(value);
}

export function isPicture(value: unknown): value is PictureItem {
  return isObject(value) && (typeof value.surfacePlotUrl === 'string' || typeof value.src === 'string');
}

export function isVideo(value: unknown): value is VideoItem {
  return isObject(value) && (typeof value.src === 'string' || typeof value.pic === 'string');
}

const timeOf = (doc: DocumentPage) => (typeof doc.time === 'number' && Number.isFinite(doc.time) ? doc.time : 0);

/** Newest first; documents without a time go last, in their configured order. */
export function byTimeDesc(a: DocumentPage, b: DocumentPage): number {
  return timeOf(b) - timeOf(a);
}

/** Recommended items first, each part in the order `compare` gives (stable, so configured order breaks ties). */
export function recommendedFirst<T extends { recommend?: boolean }>(items: T[], compare?: (a: T, b: T) => number): T[] {
  const sorted = compare ? [...items].sort(compare) : [...items];
  return [...sorted.filter((i) => i.recommend === true), ...sorted.filter((i) => i.recommend !== true)];
}

/** Compares ids from the URL (always strings) with configured ids (string or number). */
export const sameId = (a: unknown, b: unknown) => String(a) === String(b);
