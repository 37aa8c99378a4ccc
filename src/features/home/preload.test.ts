import { testConfig } from '@/testing/fixtures/site';
import { heroImageUrl, isHomeRoute, preloadHeroImage } from './preload';

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

  it('preloads the first usable carousel image once, with high priority, only on home', () => {
    const config = { ...testConfig(), carouselList: [{ surfacePlotUrl: ' ' }, ...testConfig().carouselList!] };
    expect(heroImageUrl(config)).toBe('/files/demo/slide-1.svg');
    preloadHeroImage(config);
    preloadHeroImage(config);
    const links = document.head.querySelectorAll('link[rel="preload"][as="image"]');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', '/files/demo/slide-1.svg');
    expect(links[0]).toHaveAttribute('fetchpriority', 'high');

    links[0].remove();
    window.location.hash = '#/news-notice/race-news';
    preloadHeroImage(config);
    expect(document.head.querySelectorAll('link[rel="preload"]')).toHaveLength(0);
  });

  it('does nothing without a carousel', () => {
    preloadHeroImage({ ...testConfig(), carouselList: [] });
    expect(document.head.querySelectorAll('link[rel="preload"]')).toHaveLength(0);
  });
});
