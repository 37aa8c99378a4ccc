/**
 * The mobile site's loader (#16). The reference server answers /m/ with a page that already shows the first
 * screen (the site title, the mobile logo and, on the home page, the first carousel slide; see
 * contract/site-config/first-screen.ts) and without the app's <script type="module"> tag. This script, at
 * the end of the body (vite.config.ts puts it there), then:
 * - shows the slide only when the page is the home page (the server cannot see the hash; the slide waits in
 *   a <template>, so a deep link to a certificate or a news item never downloads it);
 * - starts the app once the first screen has been painted, so on a slow phone the runner sees the race at
 *   once and the app's code no longer competes with the first screen for the network.
 * On the desktop page (and a mobile page the server left as built) the module tag is there: it does nothing.
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
  // After the next frame has been painted (a timer queued from requestAnimationFrame runs after the paint).
  const afterPaint = () => requestAnimationFrame(() => setTimeout(start, 0));
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
 * Self-contained, like the loader.
 */
export function firstScreenPreload(): void {
  const meta = document.querySelector('meta[name="first-screen-hero"]');
  const href = meta && meta.getAttribute('content');
  const route = window.location.hash.replace(/^#/, '').split('?')[0];
  if (!href || (route !== '' && route !== '/' && route !== '/home')) return;
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
