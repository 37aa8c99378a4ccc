import { useSiteStore } from '@/stores/site-store';

/** Default race-app business type (spec §9). */
export const DEFAULT_RACE_APP_BUSINESS_TYPE = 1;

/** What every send-code call carries besides the slider fields: business type and cloud type. */
export function useCodeContext() {
  const raceAppBusinessType = useSiteStore((s) => s.config?.raceAppBusinessType ?? DEFAULT_RACE_APP_BUSINESS_TYPE);
  const cloudType = useSiteStore((s) => s.cloudType);
  return { raceAppBusinessType, cloudType };
}
