/**
 * Writes contract/region-names-en.json: the English (pinyin) name of every province, city and district
 * code of @vant/area-data, which has Chinese names only. It runs here, by hand, whenever @vant/area-data is
 * upgraded (`node --import tsx scripts/region-names.ts`), so no pinyin library goes to the browser; a test
 * (contract/region-data.test.ts) fails when a code of the package has no English name.
 *
 * A name is its pinyin without tones, one word per place name (Hanyu Pinyin's rule for place names, with an
 * apostrophe before a syllable that starts with a, o or e: Lu'an), and the administrative suffix in
 * English: 区 District, 县 County, 市 City (a county-level city; a prefecture-level city is its bare name,
 * as it is written in English: Guangzhou), 自治州 Autonomous Prefecture... Provinces, Hong Kong and Macao have
 * their established English names; a few place names whose characters pinyin-pro reads wrongly are listed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { areaList } from '@vant/area-data';
import { customPinyin, pinyin } from 'pinyin-pro';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'contract', 'region-names-en.json');

/** Provinces by their established English names (Shaanxi and Shanxi would both be "Shanxi" in plain pinyin). */
const PROVINCES: Record<string, string> = {
  '110000': 'Beijing',
  '120000': 'Tianjin',
  '130000': 'Hebei',
  '140000': 'Shanxi',
  '150000': 'Inner Mongolia',
  '210000': 'Liaoning',
  '220000': 'Jilin',
  '230000': 'Heilongjiang',
  '310000': 'Shanghai',
  '320000': 'Jiangsu',
  '330000': 'Zhejiang',
  '340000': 'Anhui',
  '350000': 'Fujian',
  '360000': 'Jiangxi',
  '370000': 'Shandong',
  '410000': 'Henan',
  '420000': 'Hubei',
  '430000': 'Hunan',
  '440000': 'Guangdong',
  '450000': 'Guangxi',
  '460000': 'Hainan',
  '500000': 'Chongqing',
  '510000': 'Sichuan',
  '520000': 'Guizhou',
  '530000': 'Yunnan',
  '540000': 'Tibet',
  '610000': 'Shaanxi',
  '620000': 'Gansu',
  '630000': 'Qinghai',
  '640000': 'Ningxia',
  '650000': 'Xinjiang',
  '710000': 'Taiwan',
  '810000': 'Hong Kong',
  '820000': 'Macao',
};

/** Hong Kong's and Macao's regions and districts by their official English names. */
const HONG_KONG_MACAO: Record<string, string> = {
  '810100': 'Hong Kong Island',
  '810101': 'Central and Western',
  '810102': 'Wan Chai',
  '810103': 'Eastern',
  '810104': 'Southern',
  '810200': 'Kowloon',
  '810201': 'Kowloon City',
  '810202': 'Yau Tsim Mong',
  '810203': 'Sham Shui Po',
  '810204': 'Wong Tai Sin',
  '810205': 'Kwun Tong',
  '810300': 'New Territories',
  '810301': 'North',
  '810302': 'Tai Po',
  '810303': 'Sha Tin',
  '810304': 'Sai Kung',
  '810305': 'Yuen Long',
  '810306': 'Tuen Mun',
  '810307': 'Tsuen Wan',
  '810308': 'Kwai Tsing',
  '810309': 'Islands',
  '820100': 'Macao Peninsula',
  '820102': 'Nossa Senhora de Fátima',
  '820103': 'Santo António',
  '820104': 'São Lázaro',
  '820105': 'Sé',
  '820106': 'São Lourenço',
  '820200': 'Islands',
  '820202': 'Nossa Senhora do Carmo',
  '820203': 'Cotai',
  '820204': 'São Francisco Xavier',
};

/** Entries that are groups, not places. */
const GROUPS: Record<string, string> = {
  省直辖县: 'County-level Divisions',
  自治区直辖县级行政区划: 'County-level Divisions',
  县: 'Counties',
  市辖区: 'City Districts',
};

/** Place names whose reading pinyin-pro gets wrong out of context. */
customPinyin({
  单县: 'shan xian',
  大城: 'da cheng',
  乐亭: 'lao ting',
  蔚县: 'yu xian',
  黄陂: 'huang pi',
  郫都: 'pi du',
  乐清: 'yue qing',
  洪洞: 'hong tong',
  浚县: 'xun xian',
  繁峙: 'fan shi',
  涡阳: 'guo yang',
  六合: 'lu he',
  大冶: 'da ye',
  铅山: 'yan shan',
  长子: 'zhang zi',
  莘县: 'shen xian',
  番禺: 'pan yu',
  东阿: 'dong e',
  阿城: 'a cheng',
  会稽: 'kuai ji',
  塔什库尔干: 'ta shi ku er gan',
});

/** Administrative suffixes, longest first, and their English. */
const SUFFIXES: [string, string][] = [
  ['街道办事处', 'Subdistrict'],
  ['自治州', 'Autonomous Prefecture'],
  ['自治县', 'Autonomous County'],
  ['自治旗', 'Autonomous Banner'],
  ['街道', 'Subdistrict'],
  ['地区', 'Prefecture'],
  ['林区', 'Forestry District'],
  ['特区', 'Special District'],
  ['新区', 'New Area'],
  ['区', 'District'],
  ['县', 'County'],
  ['旗', 'Banner'],
  ['盟', 'League'],
  ['镇', 'Town'],
  ['乡', 'Township'],
  ['市', 'City'],
];

/** Ethnic groups named in autonomous areas' names, by their English names. */
const ETHNIC_GROUPS: Record<string, string> = {
  朝鲜族: 'Korean',
  回族: 'Hui',
  蒙古族: 'Mongol',
  蒙古: 'Mongol',
  藏族: 'Tibetan',
  布依族: 'Buyei',
  苗族: 'Miao',
  土家族: 'Tujia',
  彝族: 'Yi',
  侗族: 'Dong',
  壮族: 'Zhuang',
  傣族: 'Dai',
  景颇族: 'Jingpo',
  傈僳族: 'Lisu',
  白族: 'Bai',
  哈尼族: 'Hani',
  羌族: 'Qiang',
  哈萨克族: 'Kazak',
  哈萨克: 'Kazak',
  柯尔克孜: 'Kirgiz',
  瑶族: 'Yao',
  满族: 'Manchu',
  土族: 'Tu',
  撒拉族: 'Salar',
  东乡族: 'Dongxiang',
  保安族: 'Bonan',
  裕固族: 'Yugur',
  达斡尔族: 'Daur',
  鄂温克族: 'Evenki',
  鄂伦春: 'Oroqen',
  锡伯: 'Xibe',
  纳西族: 'Naxi',
  拉祜族: 'Lahu',
  佤族: 'Va',
  布朗族: 'Blang',
  独龙族: 'Derung',
  怒族: 'Nu',
  普米族: 'Pumi',
  仡佬族: 'Gelao',
  仫佬族: 'Mulao',
  毛南族: 'Maonan',
  水族: 'Shui',
  黎族: 'Li',
  畲族: 'She',
  塔吉克: 'Tajik',
  各族: 'Various Nationalities',
};
const ETHNIC_NAMES = Object.keys(ETHNIC_GROUPS).sort((a, b) => b.length - a.length);

/** The pinyin syllables of a name, read as a whole (so that customPinyin's place names apply). */
const syllablesOf = (chinese: string): string[] => pinyin(chinese, { toneType: 'none', type: 'array', v: true });

/** Syllables as one word, capitalised, an apostrophe before a syllable starting with a, o or e. */
function word(syllables: string[]): string {
  const joined = syllables
    .map((syllable, i) => (i > 0 && /^[aoe]/.test(syllable) ? `'${syllable}` : syllable))
    .join('')
    .replace(/v/g, 'ü');
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

/** "A", "A and B", "A, B and C". */
const list = (items: string[]): string =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** An autonomous area's base name and the ethnic groups its name ends with (Yanbian, [Korean]). */
function peelEthnicGroups(chinese: string): { base: string; groups: string[] } {
  let base = chinese;
  const groups: string[] = [];
  for (;;) {
    const found = ETHNIC_NAMES.find((name) => base.endsWith(name));
    if (!found) break;
    groups.unshift(ETHNIC_GROUPS[found]!);
    base = base.slice(0, -found.length);
  }
  return { base, groups };
}

/** The English of a city (level 2) or district (level 3) name. */
function englishName(chinese: string, level: 2 | 3): string {
  if (GROUPS[chinese]) return GROUPS[chinese];
  const suffix = SUFFIXES.find(([ending]) => chinese.length > ending.length && chinese.endsWith(ending));
  if (!suffix) return word(syllablesOf(chinese));
  const [ending, english] = suffix;
  const stem = chinese.slice(0, -ending.length);
  if (ending.startsWith('自治')) {
    const { base, groups } = peelEthnicGroups(stem);
    return [base && word(syllablesOf(base)), list(groups), english].filter(Boolean).join(' ');
  }
  // Read with the suffix (单县 is Shan Xian, 单 alone Dan), then drop the suffix's syllables.
  const base = word(syllablesOf(chinese).slice(0, stem.length));
  // A prefecture-level city goes by its bare name in English (Guangzhou, not Guangzhou City).
  return ending === '市' && level === 2 ? base : `${base} ${english}`;
}

const names: Record<string, string> = {};
for (const [code, name] of Object.entries(areaList.province_list)) {
  const english = PROVINCES[code];
  if (!english) throw new Error(`No English name for the province ${code} ${name}: add it to PROVINCES`);
  names[code] = english;
}
for (const [code, name] of Object.entries(areaList.city_list))
  names[code] = HONG_KONG_MACAO[code] ?? englishName(name, 2);
for (const [code, name] of Object.entries(areaList.county_list)) {
  names[code] = HONG_KONG_MACAO[code] ?? englishName(name, 3);
}

writeFileSync(OUT, `${JSON.stringify(names, null, 2)}\n`);
console.log(`${Object.keys(names).length} names written to ${path.relative(process.cwd(), OUT)}`);
