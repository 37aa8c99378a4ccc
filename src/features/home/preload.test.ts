import { testConfig } from '@/testing/fixtures/site';
import { firstTopAdUrl, heroImageUrl, homeHashFor, isHomeRoute, preloadFirstScreenImages } from './preload';

describe('home start-up preloads', () => {
  afterEach(() => {
    document.head.querySelectorAll('link[rel="preload"]').forEach((link) => link.remove());
    window.location.hash = '';
  });

  it('knows the routes that show the home page', () => {
    expect(['', '#', '#/', '#/home', '#/home?x=1'].map((hash) => isHomeRoute(hash))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(isHomeRoute('#/news-notice/race-news')).toBe(false);
  });

  it("sends '' and '/' to /home before the first render, keeping a query", () => {
    expect(['', '#', '#/', '#/?lang=en', '#/home', '#/news'].map((hash) => homeHashFor(hash))).toEqual([
      '#/home',
      '#/home',
      '#/home',
      '#/home?lang=en',
      null,
      null,
    ]);
  });

  it('preloads the first usable carousel image once, with high priority, only on home', () => {
    const config = {
      ...testConfig(),
      carouselList: [{ surfacePlotUrl: ' ' }, ...testConfig().carouselList!],
      adListTop: [],
    };
    expect(heroImageUrl(config)).toBe('/files/demo/slide-1.svg');
    preloadFirstScreenImages(config);
    preloadFirstScreenImages(config);
    const links = document.head.querySelectorAll('link[rel="preload"][as="image"]');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', '/files/demo/slide-1.svg');
    expect(links[0]).toHaveAttribute('fetchpriority', 'high');

    links[0].remove();
    window.location.hash = '#/news-notice/race-news';
    preloadFirstScreenImages(config);
    expect(document.head.querySelectorAll('link[rel="preload"]')).toHaveLength(0);
  });

  it('preloads the first top ad beside the carousel, at normal priority', () => {
    const config = { ...testConfig(), adListTop: [{ surfacePlotUrl: '' }, { surfacePlotUrl: 'demo/ad-1.svg' }] };
    expect(firstTopAdUrl(config)).toBe('/files/demo/ad-1.svg');
    preloadFirstScreenImages(config);
    const links = Array.from(document.head.querySelectorAll('link[rel="preload"][as="image"]'));
    expect(links.map((l) => [l.getAttribute('href'), l.getAttribute('fetchpriority')])).toEqual([
      ['/files/demo/slide-1.svg', 'high'],
      ['/files/demo/ad-1.svg', 'auto'],
    ]);
  });

  it('does nothing without a carousel or top ads', () => {
    preloadFirstScreenImages({ ...testConfig(), carouselList: [], adListTop: [] });
    expect(document.head.querySelectorAll('link[rel="preload"]')).toHaveLength(0);
  });
});
