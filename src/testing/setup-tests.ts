// First: it wraps setImmediate before React's scheduler keeps it.
import { drainImmediates } from './pending-immediates';
import '@testing-library/jest-dom/vitest';
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { server } from './mocks/server';
import { WAIT_LIMIT_MS } from './wait-limit';

// jsdom lacks these; antd and the layout use them.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
window.scrollTo = () => undefined;
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

interface ElementImpl {
  getAttributeNS?: (namespace: null, name: string) => string | null;
}

/** Per selector (list): for each of its selectors, the classes its subject (the part after the last combinator) names. */
const subjectClasses = new Map<string, string[][] | null>();

/**
 * The classes each selector of a list requires of the element it matches, read from the text after its last
 * combinator, outside brackets and parentheses (`:not(.a)` requires nothing). null when the text is not simple
 * enough to read so (escapes): such a selector is always asked of the engine.
 */
function classesOfSubjects(selector: string): string[][] | null {
  if (/[\\'"]/.test(selector)) return null;
  const lists: string[][] = [];
  let depth = 0;
  let subject = '';
  const end = () => lists.push([...subject.matchAll(/\.([^.#:]+)/g)].map((m) => m[1]));
  for (const char of selector) {
    if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (depth > 0) continue;
    else if (char === ',') {
      end();
      subject = '';
    } else if (/[\s>+~]/.test(char)) subject = '';
    else subject += char;
  }
  end();
  return depth === 0 ? lists : null;
}

/**
 * Whether no selector of the list can match the element, because each names a class of its subject that the
 * element does not have (class names match case-sensitively: the test document is in no-quirks mode).
 */
function lacksSubjectClass(selector: string, element: ElementImpl): boolean {
  let lists = subjectClasses.get(selector);
  if (lists === undefined) {
    lists = classesOfSubjects(selector);
    subjectClasses.set(selector, lists);
  }
  if (!lists || document.compatMode !== 'CSS1Compat') return false;
  const classes = new Set((element.getAttributeNS?.(null, 'class') ?? '').split(/\s+/));
  return lists.every((required) => required.some((name) => !classes.has(name)));
}

/**
 * jsdom's selector engine (@asamuzakjp/dom-selector) keeps what it works out about each selector (whether its
 * fast matcher takes it, the parsed selector) in an LRU cache of 1,024 entries. getComputedStyle walks every
 * CSS rule of the page, in order, for each element it is asked about, and antd's CSS-in-JS puts ~1,600 rules on
 * a form's page: walked in order, a cache smaller than the list never hits, and every style look-up (user-event
 * before each click, testing-library for each node of an accessible name) parses each selector again. The test
 * document gets an engine of the same library whose cache holds them all. What is cached depends on the
 * selector text alone, so what matches is unchanged; only the re-parsing goes (a role query on the demo form:
 * about 40% less time). The engine also passes over, without asking its matcher, each rule whose every selector
 * names a class of its subject that the element lacks (lacksSubjectClass): on antd's pages four rule checks in five
 * (the demo form's blur-rules tests: 24.3 -> 21.9 s CPU for the run). If jsdom's internals are not as expected
 * (an upgrade), the document keeps its engine.
 */
function enlargeSelectorCache(entries: number) {
  const implSymbol = Object.getOwnPropertySymbols(document).find((s) => s.description === 'impl');
  const impl = implSymbol && (document as unknown as Record<symbol, Record<string, unknown>>)[implSymbol];
  if (!impl?._domSelector) return;
  try {
    const fromJsdom = createRequire(createRequire(import.meta.url).resolve('jsdom'));
    const selectorPath = fromJsdom.resolve('@asamuzakjp/dom-selector');
    const { DOMSelector } = fromJsdom(selectorPath) as { DOMSelector: new (...args: unknown[]) => object };
    const lruCache = createRequire(selectorPath)('lru-cache') as { LRUCache: new (o: { max: number }) => object };
    const idlUtils: unknown = fromJsdom('./jsdom/living/generated/utils.js');
    const { domSymbolTree } = fromJsdom('./jsdom/living/helpers/internal-constants.js') as { domSymbolTree: unknown };
    const { LRUCache } = lruCache;
    // The engine reads LRUCache when it is built: a larger one for this construction only.
    lruCache.LRUCache = class extends LRUCache {
      constructor(options: { max: number }) {
        super({ ...options, max: Math.max(options.max, entries) });
      }
    };
    try {
      // The arguments jsdom's Document gives its own engine (living/nodes/Document-impl.js).
      const engine = new DOMSelector(impl._globalObject, impl._ownerDocument, { domSymbolTree, idlUtils }) as {
        check: (selector: string, element: ElementImpl, options?: object) => unknown;
      };
      const check = engine.check;
      // getComputedStyle asks the engine, for each CSS rule, whether it matches the element (check): most of
      // antd's rules name a class of their subject the element does not have, and are passed over here.
      engine.check = (selector, element, options) =>
        lacksSubjectClass(selector, element)
          ? { match: false, ast: null, pseudoElement: null }
          : check(selector, element, options);
      impl._domSelector = engine;
    } finally {
      lruCache.LRUCache = LRUCache;
    }
  } catch {
    // Not the jsdom this was written for: its own engine stays.
  }
}
enlargeSelectorCache(16_384);

configure({ asyncUtilTimeout: WAIT_LIMIT_MS });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  // Toasts close on their own timers: close them now, so no React work outlives the test environment.
  if (document.querySelector('.ant-message')) {
    const { default: message } = await import('antd/es/message');
    message.destroy();
  }
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0].trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
afterAll(async () => {
  server.close();
  // Toasts load antd's message on first use (src/lib/notify.ts): a toast of a file's last test may still be
  // importing it. Waiting for the same module here lets that import finish before the environment is torn down.
  await import('antd/es/message');
  // No wait for closing animations: jsdom has no AnimationEvent, so rc-motion renders without motion (no timers).
  // React's scheduler works in Node's setImmediate tasks, which outlive the test document: let those still
  // queued run now, and those they queue (after the environment is torn down they throw "window is not defined").
  await drainImmediates();
});
