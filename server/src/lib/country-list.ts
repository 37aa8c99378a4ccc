/**
 * The ISO country list (spec §3 "Country item"), built from the maintained i18n-iso-countries package.
 * Chinese regions get the names and sort order of the spec; every other country sorts at 100 by English
 * name.
 */
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import type { CountryItem } from '#contract/site-config/race-types';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json') as countries.LocaleData);
countries.registerLocale(require('i18n-iso-countries/langs/zh.json') as countries.LocaleData);

const CHINESE_REGIONS: Record<string, { sort: number; cnName: string; enName: string }> = {
  CN: { sort: 1, cnName: '中国大陆', enName: 'Chinese Mainland' },
  HK: { sort: 2, cnName: '中国香港', enName: 'Hong Kong, China' },
  MO: { sort: 3, cnName: '中国澳门', enName: 'Macao, China' },
  TW: { sort: 4, cnName: '中国台湾', enName: 'Taiwan, China' },
};
const OTHER_SORT = 100;

/** XK (Kosovo) is a user-assigned code, not part of ISO 3166-1; the list holds the 249 assigned codes. */
const NOT_ISO_3166_1 = new Set(['XK']);

function build(): CountryItem[] {
  const rows = Object.keys(countries.getAlpha2Codes())
    .filter((twoCode) => !NOT_ISO_3166_1.has(twoCode))
    .map((twoCode) => {
      const region = CHINESE_REGIONS[twoCode];
      const cnName = region?.cnName ?? countries.getName(twoCode, 'zh');
      const enName = region?.enName ?? countries.getName(twoCode, 'en');
      const threeCode = countries.alpha2ToAlpha3(twoCode);
      const numberCode = countries.alpha2ToNumeric(twoCode);
      if (!cnName || !enName || !threeCode || !numberCode) {
        throw new Error(`i18n-iso-countries has incomplete data for ${twoCode}`);
      }
      return { twoCode, threeCode, numberCode, cnName, enName, itemSort: region?.sort ?? OTHER_SORT };
    })
    .sort((a, b) => a.itemSort - b.itemSort || a.enName.localeCompare(b.enName, 'en'));
  return rows.map((row, index) => ({
    id: index + 1,
    twoCode: row.twoCode,
    threeCode: row.threeCode,
    numberCode: row.numberCode.padStart(3, '0'),
    cnName: row.cnName,
    enName: row.enName,
    dictCode: 'country',
    itemName: row.cnName,
    itemCode: row.twoCode,
    itemSort: row.itemSort,
  }));
}

let cached: CountryItem[] | undefined;

export function countryList(): CountryItem[] {
  cached ??= build();
  return cached;
}
