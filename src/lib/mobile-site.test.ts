import Cookies from 'js-cookie';
import { isMobileSite, markMobileSite, readSiteChoice, switchSite, writeSiteChoice } from './mobile-site';

afterEach(() => {
  Cookies.remove('site', { path: '/' });
  delete document.documentElement.dataset.site;
  window.history.replaceState(null, '', '/');
});

describe('mobile site', () => {
  it('is the /m/ path', () => {
    expect(isMobileSite('/m/')).toBe(true);
    expect(isMobileSite('/m')).toBe(true);
    expect(isMobileSite('/m/index.html')).toBe(true);
    expect(isMobileSite('/')).toBe(false);
    expect(isMobileSite('/media/')).toBe(false);
    expect(isMobileSite('/reg/')).toBe(false);
  });

  it('marks the document only on the mobile site', () => {
    markMobileSite();
    expect(document.documentElement.dataset.site).toBeUndefined();
    window.history.replaceState(null, '', '/m/#/home');
    markMobileSite();
    expect(document.documentElement.dataset.site).toBe('mobile');
  });

  it('remembers the choice in the cookie and goes to the other site with the hash', () => {
    expect(readSiteChoice()).toBeNull();
    writeSiteChoice('mobile');
    expect(readSiteChoice()).toBe('mobile');
    window.history.replaceState(null, '', '/m/#/certificate?code=1');
    const go = vi.fn();
    switchSite('desktop', go);
    expect(Cookies.get('site')).toBe('desktop');
    expect(go).toHaveBeenCalledWith('/#/certificate?code=1');
    switchSite('mobile', go);
    expect(go).toHaveBeenLastCalledWith('/m/#/certificate?code=1');
  });

  it("goes to the organiser's own mobile site when the environment names one", () => {
    window.history.replaceState(null, '', '/#/news-notice/race-news?id=3');
    const go = vi.fn();
    switchSite('mobile', go, 'https://m.race-site.example/');
    expect(go).toHaveBeenCalledWith('https://m.race-site.example/#/news-notice/race-news?id=3');
    expect(Cookies.get('site')).toBe('mobile');
  });
});
