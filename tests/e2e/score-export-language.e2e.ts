/**
 * The score export speaks the visitor's language (issue 28: in English the .xls had Chinese headers). On the
 * score search page, at 1366 px and on a 360 px phone, "Export results" / 导出成绩 saves a sheet whose header
 * row, genders and item names are English in English and Chinese in Chinese.
 */
import { readFileSync } from 'node:fs';
import { SCORE_EXPORT_TEXT } from '#contract/score-export';
import { newPage, useBrowser } from './browser';
import { serverPort } from './test-server';

const browser = useBrowser();
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const DEVICES = {
  desktop: { viewport: { width: 1366, height: 900 } },
  phone: { viewport: { width: 360, height: 740 }, userAgent: PHONE_UA, isMobile: true, hasTouch: true },
} as const;
const EXPORT = { zh: '导出成绩', en: 'Export results' } as const;
const GENDERS = { zh: /<Data ss:Type="String">(男|女)<\/Data>/, en: /<Data ss:Type="String">(Male|Female)<\/Data>/ };
const CHINESE_ONLY = /<Data ss:Type="String">(男|女|马拉松|半程马拉松|10公里)<\/Data>/;

describe.each(['desktop', 'phone'] as const)('the score export (%s)', (device) => {
  it.each(['zh', 'en'] as const)('saves a sheet in the page language (%s)', async (lang) => {
    const { context, page, errors } = await newPage(browser(), { ...DEVICES[device], acceptDownloads: true });
    const origin = `http://localhost:${serverPort()}`;
    await context.addCookies([{ name: 'language', value: lang, url: origin }]);
    await page.goto(`${origin}${device === 'phone' ? '/m/' : '/'}#/score-search`);
    const button = page.getByRole('button', { name: EXPORT[lang] });
    await button.waitFor();
    // The race picker has chosen the latest race with results (its list is loaded) before the export is asked.
    await page.waitForLoadState('networkidle');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const sheet = readFileSync(await download.path(), 'utf8');
    const header = /<Row>(.*?)<\/Row>/.exec(sheet)?.[1] ?? '';
    expect(header).toBe(
      SCORE_EXPORT_TEXT[lang].columns.map((h) => `<Cell><Data ss:Type="String">${h}</Data></Cell>`).join(''),
    );
    expect(sheet).toMatch(GENDERS[lang]);
    if (lang === 'en') expect(sheet).not.toMatch(CHINESE_ONLY);
    expect(errors).toEqual([]);
    await context.close();
  });
});
