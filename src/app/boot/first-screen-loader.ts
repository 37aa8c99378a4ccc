/**
 * The first screens' loader. The reference server answers /m/ (#16) with a page that already shows the first
 * screen (the site title, the mobile logo and, on the home page, the first carousel slide; see
 * contract/site-config/first-screen.ts), and / (#29 §5) with the desktop home page as the app draws it
 * (src/app/boot/home-first-screen.tsx, in `#root[data-first-screen]`), both without the app's
 * <script type="module"> tag. This script, at the end of the body (vite.config.ts puts it there), then:
 * - shows the mobile slide only when the page is the home page (the server cannot see the hash; the slide
 *   waits in a <template>, so a deep link to a certificate or a news item never downloads it); on a deep
 *   link the desktop home page stays hidden behind the splash (firstScreenPreload marks it, index.html's CSS);
 * - starts the app once the first screen has been painted, so the visitor sees the race at once and the
 *   app's code no longer competes with the first screen for the network (a click on a button starts it at
 *   once);
 * - on the desktop home page, keeps a button pressed before the app has arrived and presses it again in the
 *   app's page once the app has drawn it (the same page: the same place in it); links are plain links.
 * On a page that loads the app itself (the module tag is there) it does nothing.
 *
 * `firstScreenLoader` is copied into the page with Function.prototype.toString: it must stay self-contained
 * (no imports, nothing from module scope) and use only what every supported browser runs natively.
 */
export function firstScreenLoader(entry: string): void {
  if (document.querySelector('script[type="module"][src]')) return;
  const route = window.location.hash.replace(/^#/, '').split('?')[0];
  const template = document.getElementById('first-screen-hero');
  let hero: HTMLImageElement | null = null;
  if (template instanceof HTMLTemplateElement && (route === '' || route === '/' || route === '/home')) {
    template.replaceWith(template.content.cloneNode(true));
    hero = document.querySelector('.first-screen__hero');
  }
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.appendChild(script);
  };
  const root = document.getElementById('root');
  const drawn = root && root.hasAttribute('data-first-screen') ? root.querySelector(':scope > [data-layout]') : null;
  if (root && drawn) {
    // The way from the layout down to the button pressed last: child indexes (the app draws the same tree).
    let pressed: number[] | null = null;
    const keep = (event: MouseEvent) => {
      const target = event.target instanceof Element ? event.target.closest('button') : null;
      if (!target || !drawn.contains(target)) return;
      event.preventDefault();
      event.stopPropagation();
      const way: number[] = [];
      for (let node: Element = target; node !== drawn && node.parentElement; node = node.parentElement)
        way.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
      pressed = way;
      start();
    };
    document.addEventListener('click', keep, true);
    new MutationObserver((_records, observer) => {
      if (drawn.parentNode === root) return;
      // The app has drawn its page in place of the server's.
      observer.disconnect();
      document.removeEventListener('click', keep, true);
      root.removeAttribute('data-first-screen');
      let node: Element | null | undefined = root.querySelector(':scope > [data-layout]');
      for (const index of pressed ?? []) node = node ? node.children[index] : null;
      if (pressed && node instanceof HTMLElement && node.tagName === 'BUTTON') node.click();
    }).observe(root, { childList: true });
  }
  // After the first contentful paint, as the browser reports it (Paint Timing); once that has happened, or in a
  // browser that does not report it, after the next frame has been painted (a timer queued from
  // requestAnimationFrame runs after the paint).
  const afterPaint = () => {
    const types = typeof PerformanceObserver === 'undefined' ? [] : PerformanceObserver.supportedEntryTypes || [];
    if (types.indexOf('paint') === -1 || performance.getEntriesByName('first-contentful-paint').length > 0) {
      requestAnimationFrame(() => setTimeout(start, 0));
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      setTimeout(start, 0);
    });
    observer.observe({ type: 'paint', buffered: true });
  };
  if (!hero || hero.complete) {
    afterPaint();
    return;
  }
  // The slide first (the largest thing on a phone's first screen), the app's code right after it; a slide
  // that fails or takes more than 1.5 s does not hold the app back.
  hero.addEventListener('load', afterPaint, { once: true });
  hero.addEventListener('error', afterPaint, { once: true });
  setTimeout(start, 1500);
}

/**
 * In the head, before the stylesheet: the home page's slide starts downloading with the stylesheet, not
 * after it. The server names it in <meta name="first-screen-hero"> (a deep link does not download it).
 * On a deep link, marks the page (html[data-first-screen="elsewhere"]) so that the desktop home page the
 * server drew is never shown: the splash stands instead until the app draws the page (index.html's CSS).
 * Self-contained, like the loader.
 */
export function firstScreenPreload(): void {
  const meta = document.querySelector('meta[name="first-screen-hero"]');
  const href = meta && meta.getAttribute('content');
  const route = window.location.hash.replace(/^#/, '').split('?')[0];
  const home = route === '' || route === '/' || route === '/home';
  if (!home) document.documentElement.setAttribute('data-first-screen', 'elsewhere');
  if (!href || !home) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.setAttribute('as', 'image');
  link.setAttribute('href', href);
  link.setAttribute('fetchpriority', 'high');
  document.head.appendChild(link);
}

/** The inline script for index.html: the loader called with the app's entry chunk. */
export function firstScreenLoaderScript(entry: string): string {
  return `(${firstScreenLoader.toString()})(${JSON.stringify(entry).replace(/</g, '\\u003c')});`;
}

/** The inline script for the head of index.html. */
export const firstScreenPreloadScript = (): string => `(${firstScreenPreload.toString()})();`;
