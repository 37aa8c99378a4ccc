import { areaList } from '@vant/area-data';
import { checkRegion, isRegionEmpty } from '#contract/region';
import {
  checkRegionValue,
  loadRegionNamesEn,
  REGION_PARENTS,
  REGION_TREE,
  regionExists,
  regionNames,
} from '#contract/region-data';

const HAIDIAN = ['110000', '110100', '110108'];

describe('the region rule (three codes, each under the one before)', () => {
  it('accepts a province, one of its cities and one of that city’s districts', () => {
    expect(checkRegionValue(['440000', '440100', '440106'])).toBeNull(); // 广东 广州 天河
    expect(regionExists(['440000', '440100', '440106'])).toBe(true);
  });

  it('refuses a choice of one or two levels with "region only with all three levels"', () => {
    expect(checkRegionValue(['440000'])).toEqual({ code: 'regionIncomplete' });
    expect(checkRegionValue(['440000', '440100'])).toEqual({ code: 'regionIncomplete' });
    expect(checkRegionValue(['440000', '440100', '440106', '440106'])).toEqual({ code: 'regionIncomplete' });
    expect(regionExists(['440000', '440100'])).toBe(false);
  });

  it('refuses anything that is not a list of code strings', () => {
    for (const value of [
      '440000,440100,440106',
      440106,
      { 0: '440000' },
      [440000, 440100, 440106],
      ['440000', '', '440106'],
    ]) {
      expect(checkRegionValue(value)).toEqual({ code: 'regionIncomplete' });
      expect(regionExists(value)).toBe(false);
    }
  });

  it('refuses a city of another province and a district of another city', () => {
    expect(checkRegionValue(['440000', '320100', '320102'])).toEqual({ code: 'regionUnknown' }); // 南京 under 广东
    expect(checkRegionValue(['440000', '440100', '440304'])).toEqual({ code: 'regionUnknown' }); // 深圳福田 under 广州
    expect(checkRegionValue(['440100', '440000', '440106'])).toEqual({ code: 'regionUnknown' }); // levels swapped
    expect(regionExists(['440000', '440100', '440304'])).toBe(false);
  });

  it('refuses unknown codes', () => {
    expect(checkRegionValue(['990000', '990100', '990101'])).toEqual({ code: 'regionUnknown' });
    expect(checkRegionValue(['440000', '440100', '440199'])).toEqual({ code: 'regionUnknown' });
    expect(regionExists(['__proto__', 'constructor', 'toString'])).toBe(false);
  });

  it('lets an empty value pass (required is the field’s own rule)', () => {
    for (const value of [undefined, null, '', [], ['', '', '']]) {
      expect(isRegionEmpty(value)).toBe(true);
      expect(checkRegionValue(value)).toBeNull();
      expect(regionExists(value)).toBe(false);
    }
  });

  it('checks against the data it is given', () => {
    const parents = new Map<string, string | null>([
      ['1', null],
      ['11', '1'],
      ['111', '11'],
    ]);
    expect(checkRegion(['1', '11', '111'], parents)).toBeNull();
    expect(checkRegion(['1', '11', '112'], parents)).toEqual({ code: 'regionUnknown' });
  });
});

describe('the region data (@vant/area-data)', () => {
  it('has three levels on every path, so a valid value is always three codes', () => {
    expect(REGION_TREE).toHaveLength(34);
    let districts = 0;
    for (const province of REGION_TREE) {
      expect(province.children?.length, province.name).toBeGreaterThan(0);
      for (const city of province.children!) {
        expect(city.children?.length, city.name).toBeGreaterThan(0);
        for (const district of city.children!) {
          expect(district.children).toBeUndefined();
          expect(regionExists([province.code, city.code, district.code])).toBe(true);
          districts += 1;
        }
      }
    }
    expect(districts).toBe(Object.keys(areaList.county_list).length);
  });

  it('gives a municipality its city-districts level: Beijing and Shanghai are province → 市辖区 code → district', () => {
    expect(regionNames(HAIDIAN)).toEqual(['北京市', '北京市', '海淀区']);
    expect(regionNames(['310000', '310100', '310104'])).toEqual(['上海市', '上海市', '徐汇区']);
    expect(regionNames(['500000', '500200', '500229'])).toEqual(['重庆市', '县', '城口县']);
    // Two levels, as a municipality is sometimes written, are not enough.
    expect(checkRegionValue(['110000', '110108'])).toEqual({ code: 'regionIncomplete' });
    expect(checkRegionValue(['110000', '110108', '110108'])).toEqual({ code: 'regionUnknown' });
  });

  it('fills the levels a place lacks: county-level units under the province, cities without counties', () => {
    expect(regionNames(['460000', '469000', '469024'])).toEqual(['海南省', '省直辖县', '临高县']);
    expect(regionNames(['420000', '429000', '429004'])).toEqual(['湖北省', '省直辖县', '仙桃市']);
    expect(regionNames(['650000', '659000', '659001'])).toEqual([
      '新疆维吾尔自治区',
      '自治区直辖县级行政区划',
      '石河子市',
    ]);
    expect(regionNames(['440000', '441900', '441901'])).toEqual(['广东省', '东莞市', '中堂镇']);
    expect(regionNames(['810000', '810100', '810101'])).toEqual(['香港特别行政区', '香港岛', '中西区']);
  });

  it('has an English name for every code (run scripts/region-names.ts after upgrading @vant/area-data)', async () => {
    const english = await loadRegionNamesEn();
    const missing = [...REGION_PARENTS.keys()].filter((code) => !english[code]?.trim());
    expect(missing).toEqual([]);
    expect(Object.keys(english).sort()).toEqual([...REGION_PARENTS.keys()].sort());
    expect(regionNames(HAIDIAN, english)).toEqual(['Beijing', 'Beijing', 'Haidian District']);
    expect(regionNames(['610000', '610100', '610113'], english)).toEqual(['Shaanxi', "Xi'an", 'Yanta District']);
    expect(regionNames(['220000', '222400', '222401'], english)).toEqual([
      'Jilin',
      'Yanbian Korean Autonomous Prefecture',
      'Yanji City',
    ]);
  });

  it('keeps the parents of a value only: the rule never reads inherited properties', () => {
    expect(REGION_PARENTS.get('110000')).toBeNull();
    expect(REGION_PARENTS.get('110100')).toBe('110000');
    expect(REGION_PARENTS.get('110108')).toBe('110100');
    expect(REGION_PARENTS.size).toBe(
      34 + Object.keys(areaList.city_list).length + Object.keys(areaList.county_list).length,
    );
  });
});
