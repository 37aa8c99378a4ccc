import i18n from 'i18next';
import { initI18n, mergeTranslations } from '@/app/i18n';
import { applyLanguage } from '@/lib/language';
import { loadTexts, textsLoaded } from '@/lib/locale-bundles';
import zhSearch from '@/locales/zh/search.json';
import enSearch from '@/locales/en/search.json';
import zhContent from '@/locales/zh/content.json';
import enContent from '@/locales/en/content.json';
import zhHome from '@/locales/zh/home.json';
import enHome from '@/locales/en/home.json';
import enCommon from '@/locales/en/common.json';

/** How many times each language's copy of the namespace was added to (one per bundle fetched). */
function countAdds() {
  const adds: string[] = [];
  const onAdded = (lng: string) => adds.push(lng);
  i18n.store.on('added', onAdded);
  return { adds, stop: () => i18n.store.off('added', onAdded) };
}

describe('locale bundles: feature texts load with the pages that use them', () => {
  beforeAll(async () => {
    await initI18n('zh');
    await applyLanguage('zh');
  });

  it('starts with the shell texts only: no feature bundle before a page asks for it', () => {
    expect(i18n.t('app.refresh')).toBe('刷新');
    // The entry carries the Chinese shell texts alone; the English ones come before English is used.
    expect(i18n.getResourceBundle('en', 'common')).toBeUndefined();
    expect(textsLoaded('search', 'zh')).toBe(false);
    expect(i18n.exists('search.submit')).toBe(false);
  });

  it('fetches a bundle once, in the current language, however often and however concurrently it is asked for', async () => {
    const { adds, stop } = countAdds();
    await Promise.all([loadTexts('search'), loadTexts('search')]);
    await loadTexts('search');
    stop();
    expect(adds).toEqual(['zh']);
    expect(i18n.t('search.submit')).toBe(zhSearch.submit);
    // Only the language in use: the English copy waits for a switch.
    expect(textsLoaded('search', 'en')).toBe(false);
  });

  it('brings every bundle in use in the new language before a switch, and keeps both after', async () => {
    await loadTexts('content');
    await applyLanguage('en');
    expect(i18n.t('app.refresh')).toBe(enCommon.app.refresh);
    expect(textsLoaded('search', 'en')).toBe(true);
    expect(textsLoaded('content', 'en')).toBe(true);
    expect(i18n.t('search.submit')).toBe(enSearch.submit);
    expect(i18n.t('content.allDisplayed')).toBe(enContent.allDisplayed);
    const { adds, stop } = countAdds();
    await applyLanguage('zh');
    stop();
    expect(adds).toEqual([]); // both copies were already in: switching back fetches nothing
    expect(i18n.t('content.allDisplayed')).toBe(zhContent.allDisplayed);
  });

  it('lets a remote translation merged before its bundle arrives win over the built-in text', async () => {
    mergeTranslations({ 'home.carousel.label': { zh: '远程焦点', en: 'Remote highlights' } });
    await loadTexts('home');
    expect(i18n.t('home.carousel.label')).toBe('远程焦点');
    // The rest of the bundle is there all the same, the built-in texts beside the remote one.
    expect(i18n.t('home.carousel.next')).toBe(zhHome.carousel.next);
    // The English copy, fetched later by a switch, keeps the remote English text too.
    await applyLanguage('en');
    expect(i18n.t('home.carousel.label')).toBe('Remote highlights');
    expect(i18n.t('home.carousel.next')).toBe(enHome.carousel.next);
    await applyLanguage('zh');
  });

  it('lets a remote translation merged after the bundle replace the built-in text', async () => {
    expect(i18n.t('search.back')).toBe(zhSearch.back);
    mergeTranslations({ 'search.back': { zh: '回到首页（远程）', en: 'Home (remote)' } });
    expect(i18n.t('search.back')).toBe('回到首页（远程）');
    expect(i18n.t('search.back', { lng: 'en' })).toBe('Home (remote)');
  });
});
