import { API_PATHS } from '#contract/api';
import type { CountryItem } from '#contract/site-config/race-types';
import { apiRequest } from '@/lib/api-client';

export type { CountryItem };

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
