/**
 * What the country picker's search matches (issue 28): both names, both ISO codes, and the everyday names the
 * spec's labels leave out. The spec names mainland China 中国大陆 / Chinese Mainland (and Hong Kong, Macao and
 * Taiwan "…, China"); a runner types "China" or 中国 and must find it, so its search also holds those words.
 * The labels stay the spec's.
 */
import type { CountryItem } from '../api/get-country-list';

/** Further words a country is found by, beside its names and codes. */
const ALSO_FOUND_BY: Record<string, readonly string[]> = {
  CN: ['China', '中国', "People's Republic of China", 'PRC', 'Mainland China'],
};

/** The lower-case text a typed search is looked for in. */
export function countrySearchText(country: Pick<CountryItem, 'twoCode' | 'threeCode' | 'cnName' | 'enName'>): string {
  const words = [country.cnName, country.enName, country.twoCode, country.threeCode];
  return [...words, ...(ALSO_FOUND_BY[country.twoCode] ?? [])].join(' ').toLowerCase();
}

/** Whether the typed text (trimmed, any case, spaces inside collapsed) is in the country's search text. */
export const countryMatches = (search: string, typed: string): boolean =>
  search.includes(typed.trim().replace(/\s+/g, ' ').toLowerCase());
