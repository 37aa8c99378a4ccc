/**
 * The province-city-district value (spec §3 "Region value: array of three codes (province, city, district)",
 * §5 "Region picker accepts only all three levels"). The rule takes the data as an argument, so the SPA
 * imports it without the data (#contract/region-data, a lazily loaded chunk there) and the server passes the
 * data it imports directly.
 *
 * Codes are the six-digit GB/T 2260 codes of @vant/area-data. Its tree always has three levels: a
 * municipality's second level is its 市辖区 code shown with the city's name (北京市 110000 → 北京市 110100 →
 * 海淀区 110108; 重庆市 also has 县 500200), the county-level units that belong straight to a province
 * are grouped under 省直辖县 (海南 469000, 湖北 429000, 河南 419000) or 自治区直辖县级行政区划 (新疆 659000), and the
 * prefecture-level cities with no county level (东莞 441900, 中山 442000, 儋州 460400, 嘉峪关 620200) list
 * their towns and subdistricts as the third level. So every valid value is exactly three codes.
 */
import type { MessageCode, Refusal } from '#contract/messages';

/** Province, city and district code. */
export type RegionCodes = [province: string, city: string, district: string];

/** What the rule needs of the data: the parent of each code (null for a province). */
export type RegionParents = ReadonlyMap<string, string | null>;

const refuse = (code: MessageCode): Refusal => ({ code });

/** No choice made: undefined, null, an empty array or empty strings only. */
export function isRegionEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  return Array.isArray(value) && value.every((code) => code === undefined || code === null || code === '');
}

/** Exactly three codes where each one is a known code and the child of the one before it. */
export function isRegionCodes(value: unknown, parents: RegionParents): value is RegionCodes {
  if (!Array.isArray(value) || value.length !== 3) return false;
  if (!value.every((code) => typeof code === 'string')) return false;
  const [province, city, district] = value as RegionCodes;
  return parents.get(province) === null && parents.get(city) === province && parents.get(district) === city;
}

/**
 * The region rule: an empty value passes (whether the field is required is its own rule, as with the other
 * format rules of rules.ts); fewer or more than three codes, or anything that is not a list of codes, is
 * 'regionIncomplete'; three codes that are not a path of the data (an unknown code, a city of another
 * province) are 'regionUnknown'.
 */
export function checkRegion(value: unknown, parents: RegionParents): Refusal | null {
  if (isRegionEmpty(value)) return null;
  if (!Array.isArray(value) || value.length !== 3 || !value.every((code) => typeof code === 'string' && code !== '')) {
    return refuse('regionIncomplete');
  }
  return isRegionCodes(value, parents) ? null : refuse('regionUnknown');
}
