/**
 * Limits of a site-configuration document, checked before the schema sees it: nesting depth, list
 * lengths, string lengths, number of values and overall size. The walk uses its own stack, never
 * recursion, so no document (a 100,000-level nested array, a 2,000-level menu) can overflow the call
 * stack here, and the schema afterwards only ever sees a document at most MAX_DEPTH deep.
 * No imports: the reference server loads this file as it is.
 */

export interface ConfigProblem {
  /** JSON path, e.g. "$.carouselList[2].surfacePlotUrl". */
  path: string;
  message: string;
}

export const DOCUMENT_LIMITS = {
  /** Levels of nesting below the document ($.menuGroups[0].children[0].meta.title is 6). */
  maxDepth: 24,
  /** Items in any one list (menus, ads, news lists …). */
  maxListLength: 1000,
  /** Characters of any one string (rich-text content included). */
  maxStringLength: 1_000_000,
  /** Keys, list items and values in the whole document. */
  maxValues: 100_000,
  /** Size of the document as JSON, in bytes (approximately, for a parsed document). */
  maxBytes: 5 * 1024 * 1024,
} as const;

export type DocumentLimits = typeof DOCUMENT_LIMITS;

export function formatJsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, key) =>
      typeof key === 'number'
        ? `${acc}[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(key))
          ? `${acc}.${String(key)}`
          : `${acc}[${JSON.stringify(String(key))}]`,
    '$',
  );
}

/** At most this many problems of one kind are listed; the rest are counted in one line. */
const MAX_LISTED = 20;

interface Frame {
  value: unknown;
  /** The frame of the container holding this value (null for the document). */
  parent: Frame | null;
  key: PropertyKey;
  depth: number;
  /** The copy of the container, where this value's copy goes. */
  into: Record<string, unknown> | unknown[] | null;
}

/** The JSON path of a frame, built only when a problem is reported. */
function pathOf(frame: Frame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) path.push(f.key);
  return path.reverse();
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so a "__proto__" key stays a plain key and never changes the copy's prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A copy of `raw` within the limits, and a problem for every part left out: a value nested too deep is
 * left out, a list too long is cut, a string too long is left out, and once the document holds too many
 * values or bytes the rest of it is left out. Non-JSON values (functions, symbols, undefined, NaN) are
 * left out without a problem. The copy shares nothing with `raw`.
 */
export function boundDocument(
  raw: unknown,
  limits: DocumentLimits = DOCUMENT_LIMITS,
): { value: unknown; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const counts = { depth: 0, list: 0, string: 0 };
  const note = (kind: keyof typeof counts, frame: Frame, message: string) => {
    counts[kind] += 1;
    if (counts[kind] <= MAX_LISTED) problems.push({ path: formatJsonPath(pathOf(frame)), message });
  };
  let values = 0;
  let bytes = 0;
  const holder: unknown[] = [];
  const lists: unknown[][] = [];
  const stack: Frame[] = [{ value: raw, parent: null, key: 0, depth: 0, into: holder }];
  const put = (frame: Frame, copy: unknown) => {
    if (Array.isArray(frame.into)) frame.into[frame.key as number] = copy;
    else if (frame.into) define(frame.into, frame.key as string, copy);
  };
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value } = frame;
    values += 1;
    if (values > limits.maxValues || bytes > limits.maxBytes) {
      problems.push({
        path: formatJsonPath(pathOf(frame)),
        message:
          values > limits.maxValues
            ? `the document holds more than ${limits.maxValues} values; the rest from here on is ignored`
            : `the document is larger than ${limits.maxBytes} bytes; the rest from here on is ignored`,
      });
      break;
    }
    if (typeof value === 'string') {
      if (value.length > limits.maxStringLength) {
        note('string', frame, `text longer than ${limits.maxStringLength} characters (${value.length})`);
        continue;
      }
      bytes += value.length + 2;
      put(frame, value);
      continue;
    }
    if (typeof value === 'number') {
      if (Number.isFinite(value)) put(frame, value);
      bytes += 8;
      continue;
    }
    if (typeof value === 'boolean' || value === null) {
      bytes += 5;
      put(frame, value);
      continue;
    }
    if (typeof value !== 'object') continue; // undefined, functions, symbols, bigints: not JSON
    if (frame.depth >= limits.maxDepth) {
      note('depth', frame, `nested more than ${limits.maxDepth} levels deep; this part is ignored`);
      continue;
    }
    bytes += 2;
    const depth = frame.depth + 1;
    if (Array.isArray(value)) {
      const copy: unknown[] = new Array<unknown>(Math.min(value.length, limits.maxListLength));
      put(frame, copy);
      lists.push(copy);
      if (value.length > limits.maxListLength) {
        note(
          'list',
          frame,
          `a list of ${value.length} items; at most ${limits.maxListLength} are allowed, the rest is ignored`,
        );
      }
      for (let i = copy.length - 1; i >= 0; i -= 1) {
        stack.push({ value: value[i], parent: frame, key: i, depth, into: copy });
      }
      continue;
    }
    const copy: Record<string, unknown> = {};
    put(frame, copy);
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i];
      bytes += key.length + 4;
      stack.push({ value: (value as Record<string, unknown>)[key], parent: frame, key, depth, into: copy });
    }
  }
  // Items left out leave holes: close them, keeping the order of the rest.
  for (const list of lists) {
    let kept = 0;
    for (let i = 0; i < list.length; i += 1) if (Object.hasOwn(list, i)) list[kept++] = list[i];
    list.length = kept;
  }
  for (const kind of ['depth', 'list', 'string'] as const) {
    if (counts[kind] > MAX_LISTED) {
      problems.push({ path: '$', message: `… and ${counts[kind] - MAX_LISTED} more parts over the same limit` });
    }
  }
  return { value: holder[0], problems };
}
