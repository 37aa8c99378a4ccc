import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';

/** The race this site is bound to: the app store's binding, else the race information loaded at start-up. */
export function useRaceId(): string {
  const raceId = useAppStore((s) => s.raceId);
  const race = useSiteStore((s) => s.race);
  return raceId ?? (race?.raceId != null ? String(race.raceId) : '');
}
