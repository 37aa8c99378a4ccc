/**
 * The province-city-district tree from @vant/area-data (MIT; the county-level divisions as of its 2.1.0
 * release, which has 和安县/和康县 of December 2024), with the English (pinyin) names of every code in
 * region-names-en.json, generated from it by scripts/region-names.ts.
 *
 * The server imports this module directly. The SPA imports it ONLY with a dynamic `import()` (the region
 * picker), so the data is a chunk of its own that only the pages with a picker load; the English names are
 * a second chunk, loaded only in English.
 */
import { areaList } from '@vant/area-data';
import { checkRegion, isRegionCodes, type RegionCodes, type RegionParents } from '#contract/region';
import type { Refusal } from '#contract/messages';

/** A province, city or district: its code, its Chinese name and, above the third level, its children. */
export interface RegionNode {
  code: string;
  name: string;
  children?: RegionNode[];
}

/** Code → English name, for every code of the tree. */
export type RegionNames = Readonly<Record<string, string>>;

const prefix = (code: string, digits: number) => code.slice(0, digits);

interface City {
  code: string;
  name: string;
  children: RegionNode[];
}
interface Province {
  code: string;
  name: string;
  children: City[];
}

function buildTree(): { tree: Province[]; parents: Map<string, string | null> } {
  const provinces = new Map<string, Province>();
  const cities = new Map<string, City>();
  for (const [code, name] of Object.entries(areaList.province_list)) {
    provinces.set(prefix(code, 2), { code, name, children: [] });
  }
  for (const [code, name] of Object.entries(areaList.city_list)) {
    const city: City = { code, name, children: [] };
    cities.set(prefix(code, 4), city);
    provinces.get(prefix(code, 2))?.children.push(city);
  }
  for (const [code, name] of Object.entries(areaList.county_list)) {
    cities.get(prefix(code, 4))?.children.push({ code, name });
  }
  // Only complete paths: a province or city with nothing under it (none in 2.1.0) could never be chosen
  // down to the third level, so it is left out, and so are its codes.
  const tree = [...provinces.values()]
    .map((province) => ({ ...province, children: province.children.filter((city) => city.children.length > 0) }))
    .filter((province) => province.children.length > 0);
  const parents = new Map<string, string | null>();
  for (const province of tree) {
    parents.set(province.code, null);
    for (const city of province.children) {
      parents.set(city.code, province.code);
      for (const district of city.children) parents.set(district.code, city.code);
    }
  }
  return { tree, parents };
}

const built = buildTree();

/** Provinces in code order, each with its cities, each with its districts (always three levels). */
export const REGION_TREE: readonly RegionNode[] = built.tree;

/** The parent of every code of the tree (null for a province). */
export const REGION_PARENTS: RegionParents = built.parents;

/** Whether a value is three codes of the tree, each under the one before it (the server's check). */
export const regionExists = (codes: unknown): codes is RegionCodes => isRegionCodes(codes, REGION_PARENTS);

/** The region rule (contract/region.ts checkRegion) over this data. */
export const checkRegionValue = (value: unknown): Refusal | null => checkRegion(value, REGION_PARENTS);

/** The English names, a chunk of their own in the SPA. */
export async function loadRegionNamesEn(): Promise<RegionNames> {
  const module = await import('./region-names-en.json', { with: { type: 'json' } });
  return module.default;
}

const chineseNames = new Map<string, string>();
for (const province of REGION_TREE) {
  chineseNames.set(province.code, province.name);
  for (const city of province.children ?? []) {
    chineseNames.set(city.code, city.name);
    for (const district of city.children ?? []) chineseNames.set(district.code, district.name);
  }
}

/** The names of a stored value's codes (English when `english` names are given), or null when it is not one. */
export function regionNames(codes: unknown, english?: RegionNames): string[] | null {
  if (!regionExists(codes)) return null;
  return codes.map((code) => english?.[code] ?? chineseNames.get(code)!);
}
