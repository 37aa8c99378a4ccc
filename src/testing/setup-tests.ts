// First: it wraps setImmediate before React's scheduler keeps it.
import { drainImmediates } from './pending-immediates';
import '@testing-library/jest-dom/vitest';
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { server } from './mocks/server';

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

/**
 * jsdom's selector engine (@asamuzakjp/dom-selector) keeps what it works out about each selector (whether its
 * fast matcher takes it, the parsed selector) in an LRU cache of 1,024 entries. getComputedStyle walks every
 * CSS rule of the page, in order, for each element it is asked about, and antd's CSS-in-JS puts ~1,600 rules on
 * a form's page: walked in order, a cache smaller than the list never hits, and every style look-up (user-event
 * before each click, testing-library for each node of an accessible name) parses each selector again. The test
 * document gets an engine of the same library whose cache holds them all. What is cached depends on the
 * selector text alone, so what matches is unchanged; only the re-parsing goes (a role query on the demo form:
 * about 40% less time). If jsdom's internals are not as expected (an upgrade), the document keeps its engine.
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
      impl._domSelector = new DOMSelector(impl._globalObject, impl._ownerDocument, { domSymbolTree, idlUtils });
    } finally {
      lruCache.LRUCache = LRUCache;
    }
  } catch {
    // Not the jsdom this was written for: its own engine stays.
  }
}
enlargeSelectorCache(16_384);

// antd is imported on first use (toasts, dialogs); its first import in jsdom can take a few seconds.
configure({ asyncUtilTimeout: 5000 });

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
  // Let closing animations (rc-motion's fallback timers) finish while the DOM still exists.
  await new Promise((resolve) => setTimeout(resolve, 800));
  // React's scheduler works in Node's setImmediate tasks, which outlive the test document: let those still
  // queued run now, and those they queue (after the environment is torn down they throw "window is not defined").
  await drainImmediates();
});
