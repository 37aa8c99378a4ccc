import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';

/** A country of the server's ISO list (spec §3 "Country item"). */
export interface CountryItem {
  id: number;
  twoCode: string;
  threeCode: string;
  numberCode: string;
  cnName: string;
  enName: string;
  dictCode: string;
  itemName: string;
  itemCode: string;
  /** 1-4 for mainland China, Hong Kong, Macao, Taiwan; 100 for the others. */
  itemSort: number;
}

let list: Promise<CountryItem[]> | undefined;

/** GET the country list once per page load (it never changes while the page is open); a failure is forgotten. */
export function getCountryList(): Promise<CountryItem[]> {
  list ??= apiRequest<CountryItem[]>({ method: 'GET', url: API_PATHS.countryList, silent: 'answers' }).then(
    (envelope) => [...envelope.data].sort((a, b) => a.itemSort - b.itemSort),
    (error: unknown) => {
      list = undefined;
      throw error;
    },
  );
  return list;
}
