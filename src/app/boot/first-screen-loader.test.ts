import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstScreenLoader, firstScreenPreload } from './first-screen-loader';

const ENTRY = '/assets/index-abc123.js';
const appScripts = () => [...document.head.querySelectorAll('script[type="module"]')].map((s) => s.getAttribute('src'));

function mobilePage(hash: string) {
  window.history.replaceState(null, '', `/m/${hash}`);
  document.body.innerHTML =
    '<div id="root"><div class="first-screen"><div class="first-screen__bar"></div>' +
    '<template id="first-screen-hero"><img class="first-screen__hero" src="/files/hero.jpg" alt=""></template></div></div>';
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] });
  document.head.innerHTML = '';
});
afterEach(() => {
  vi.useRealTimers();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

describe('the mobile first screen loader', () => {
  it('shows the slide on the home page and starts the app once it has loaded and been painted', () => {
    mobilePage('#/home');
    firstScreenLoader(ENTRY);
    const hero = document.querySelector<HTMLImageElement>('.first-screen__hero');
    expect(hero).not.toBeNull();
    expect(document.getElementById('first-screen-hero')).toBeNull();
    vi.advanceTimersByTime(100);
    expect(appScripts()).toEqual([]);
    hero!.dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(50);
    expect(appScripts()).toEqual([ENTRY]);
    // The safety timer does not start it twice.
    vi.advanceTimersByTime(2000);
    expect(appScripts()).toEqual([ENTRY]);
  });

  it('does not hold the app back for a slide that never loads', () => {
    mobilePage('');
    firstScreenLoader(ENTRY);
    vi.advanceTimersByTime(1499);
    expect(appScripts()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(appScripts()).toEqual([ENTRY]);
  });

  it('keeps the slide in its template on a deep link and starts the app after the first paint', () => {
    mobilePage('#/certificate?no=123');
    firstScreenLoader(ENTRY);
    expect(document.querySelector('.first-screen__hero')).toBeNull();
    expect(document.getElementById('first-screen-hero')).not.toBeNull();
    expect(appScripts()).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(appScripts()).toEqual([ENTRY]);
    const script = document.head.querySelector('script[type="module"]') as HTMLScriptElement;
    expect(script.crossOrigin).toBe('');
  });

  it('does nothing on a page that loads the app itself (the desktop site)', () => {
    mobilePage('#/home');
    const own = document.createElement('script');
    own.type = 'module';
    own.src = ENTRY;
    document.head.append(own);
    firstScreenLoader(ENTRY);
    vi.advanceTimersByTime(5000);
    expect(appScripts()).toEqual([ENTRY]);
    expect(document.getElementById('first-screen-hero')).not.toBeNull();
  });
});

describe('the desktop home page’s loader', () => {
  const layout = (label: string) =>
    `<div class="site" data-layout="site"><header><button type="button">${label} language</button></header>` +
    `<main><p>text</p><div><button type="button" class="signup">${label} sign up</button></div></main></div>`;
  function desktopHome() {
    window.history.replaceState(null, '', '/#/home');
    document.body.innerHTML = `<div id="root" data-first-screen="home"><link rel="preload">${layout('server')}</div>`;
  }
  /** The app's first render: React replaces what #root holds with the same page. */
  function appDraws(onClick: (label: string) => void) {
    const root = document.getElementById('root')!;
    const page = document.createElement('div');
    page.innerHTML = layout('app');
    for (const button of page.querySelectorAll('button'))
      button.addEventListener('click', () => onClick(button.textContent ?? ''));
    root.replaceChildren(...page.childNodes);
  }

  it('starts the app at once on a click and presses the same button in the app’s page', async () => {
    desktopHome();
    firstScreenLoader(ENTRY);
    const pressed: string[] = [];
    const serverButton = document.querySelector<HTMLButtonElement>('.signup')!;
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    serverButton.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(appScripts()).toEqual([ENTRY]);
    appDraws((label) => pressed.push(label));
    await Promise.resolve();
    expect(pressed).toEqual(['app sign up']);
    expect(document.getElementById('root')!.hasAttribute('data-first-screen')).toBe(false);
    // Afterwards the app's own buttons are left alone.
    document.querySelector<HTMLButtonElement>('.signup')!.click();
    expect(pressed).toEqual(['app sign up', 'app sign up']);
  });

  it('presses nothing when nothing was pressed, and lets links be links', async () => {
    desktopHome();
    document.querySelector('main p')!.innerHTML = '<a href="#/news">news</a>';
    firstScreenLoader(ENTRY);
    const link = new MouseEvent('click', { bubbles: true, cancelable: true });
    document.querySelector('a')!.dispatchEvent(link);
    expect(link.defaultPrevented).toBe(false);
    const pressed: string[] = [];
    vi.advanceTimersByTime(50);
    expect(appScripts()).toEqual([ENTRY]);
    appDraws((label) => pressed.push(label));
    await Promise.resolve();
    expect(pressed).toEqual([]);
    expect(document.getElementById('root')!.hasAttribute('data-first-screen')).toBe(false);
  });
});

describe('the first screen preload', () => {
  afterEach(() => document.documentElement.removeAttribute('data-first-screen'));

  it('marks a deep link, where the desktop home page the server drew must not show', () => {
    window.history.replaceState(null, '', '/#/news/12');
    firstScreenPreload();
    expect(document.documentElement.getAttribute('data-first-screen')).toBe('elsewhere');
    document.documentElement.removeAttribute('data-first-screen');
    window.history.replaceState(null, '', '/#/home');
    firstScreenPreload();
    expect(document.documentElement.hasAttribute('data-first-screen')).toBe(false);
  });

  const links = () => [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => l.getAttribute('href'));

  it('starts the slide’s download on the home page only', () => {
    document.head.innerHTML = '<meta name="first-screen-hero" content="/files/hero.jpg">';
    window.history.replaceState(null, '', '/m/#/home?from=qr');
    firstScreenPreload();
    expect(links()).toEqual(['/files/hero.jpg']);
    document.head.innerHTML = '<meta name="first-screen-hero" content="/files/hero.jpg">';
    window.history.replaceState(null, '', '/m/#/news/12');
    firstScreenPreload();
    expect(links()).toEqual([]);
  });

  it('does nothing without the server’s meta (the desktop page, a domain without a slide)', () => {
    window.history.replaceState(null, '', '/m/');
    firstScreenPreload();
    expect(links()).toEqual([]);
  });
});
