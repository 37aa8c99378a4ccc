import { parseRaceTime } from '#contract/race-clock';
import { DEFAULT_RACE_TIME_ZONE } from '#contract/time-zone';

export interface RaceItem {
  name: string;
  nameEn?: string;
  distanceKm?: number;
  start: number | null;
  cutOff: number | null;
}

/** The race's items from itemTimeSetting (a JSON string; times in the race's zone); [] when it is missing or broken. */
export function parseRaceItems(setting: string | undefined, zone = DEFAULT_RACE_TIME_ZONE): RaceItem[] {
  if (!setting) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(setting);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry): RaceItem[] => {
    if (!entry || typeof entry !== 'object') return [];
    const item = entry as Record<string, unknown>;
    if (typeof item.itemName !== 'string' || !item.itemName.trim()) return [];
    const km = Number(item.distanceKm);
    return [
      {
        name: item.itemName,
        nameEn: typeof item.itemNameEn === 'string' ? item.itemNameEn : undefined,
        distanceKm: Number.isFinite(km) && km > 0 ? km : undefined,
        start: parseRaceTime(typeof item.startTime === 'string' ? item.startTime : undefined, zone),
        cutOff: parseRaceTime(typeof item.cutOffTime === 'string' ? item.cutOffTime : undefined, zone),
      },
    ];
  });
}
