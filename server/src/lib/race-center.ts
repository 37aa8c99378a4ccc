/**
 * Rules of the race centre (registration, score, PB, history and photo lookups): event items, certificate
 * number hashing and masking, time and pace formatting, registration statuses, certificate signatures.
 * Certificate and phone numbers are never stored in clear: a SHA-256 of the normalised number for lookups
 * plus the masked form for answers.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { normalizeName } from '#contract/rules';

export interface ItemDef {
  code: string;
  name: string;
  nameEn: string;
  distanceKm: number;
}

export const ITEMS: Record<string, ItemDef> = {
  M: { code: 'M', name: '马拉松', nameEn: 'Marathon', distanceKm: 42.195 },
  H: { code: 'H', name: '半程马拉松', nameEn: 'Half Marathon', distanceKm: 21.0975 },
  '10K': { code: '10K', name: '10公里', nameEn: '10 km', distanceKm: 10 },
};
export const ITEM_CODES = Object.keys(ITEMS);

/** What a race's items are for its results: code → names and distance (0 when the race does not say). */
export type ItemCatalog = ReadonlyMap<string, ItemDef>;

/**
 * The items of a race (race.json `entry.items`: any code, 5 km, 30 km, trail…, with their names and
 * `distanceKm`; M, H and 10K know their distance), or the standard M, H and 10K when the race has no
 * sign-up items (an older race.json, a race whose results alone are kept).
 */
export function itemCatalog(race: { entry?: { items?: readonly ItemSettingsLike[] } } | undefined): ItemCatalog {
  const items = race?.entry?.items ?? [];
  if (items.length === 0) return new Map(Object.entries(ITEMS));
  return new Map(
    items.map((item) => [
      item.code,
      {
        code: item.code,
        name: item.name.zh,
        nameEn: item.name.en,
        distanceKm: item.distanceKm ?? ITEMS[item.code]?.distanceKm ?? 0,
      },
    ]),
  );
}
interface ItemSettingsLike {
  code: string;
  name: { zh: string; en: string };
  distanceKm?: number;
}

/** The catalogue's item for `text` (item codes compare without case), or undefined. */
export function catalogItem(catalog: ItemCatalog, text: string): ItemDef | undefined {
  const exact = catalog.get(text);
  if (exact) return exact;
  const upper = text.toUpperCase();
  for (const [code, item] of catalog) if (code.toUpperCase() === upper) return item;
  return undefined;
}

/** Checkpoints of an item: every 5 km, plus HALF on the marathon (the finish is the chip time itself). */
export function checkpointsFor(item: string): { checkpoint: string; distanceKm: number }[] {
  const def = ITEMS[item];
  if (!def) return [];
  const points: { checkpoint: string; distanceKm: number }[] = [];
  for (let km = 5; km < def.distanceKm; km += 5) {
    if (item === 'M' && km === 25) points.push({ checkpoint: 'HALF', distanceKm: 21.0975 });
    points.push({ checkpoint: `${km}K`, distanceKm: km });
  }
  return points;
}

/** The contract's enumerations the lookups use (spec §3, §4). */
export {
  CHANNEL_KEYS,
  REGISTRATION_CHANNELS,
  REGISTRATION_QUERY_TYPES,
  REGISTRATION_STATUS_KEYS,
  type RegistrationChannel,
  type RegistrationQueryType,
} from '#contract/enums';

export const normalizeCertNo = (raw: string) => raw.trim().toUpperCase();
/** The name as kept and compared: the contract's (ends trimmed, inner runs of spaces one space). */
export { normalizeName };
export const normalizeBib = (raw: string) => raw.trim().toUpperCase();

/** The unkeyed digest of a certificate number: what the database kept before migration 6. */
export function certDigest(certNo: string): string {
  return createHash('sha256')
    .update(`cert:${normalizeCertNo(certNo)}`)
    .digest('hex');
}

/**
 * What the database keeps of a certificate number: HMAC-SHA256 of its digest under the data folder's
 * `id-number-secret` (lib/secrets.ts). ID numbers follow a known pattern (region, birth date, sequence), few
 * enough to try them all against a plain hash; without the secret a copy of the database cannot be searched.
 * Keyed over the digest so that migration 6 could convert the hashes already stored.
 */
export function keyedCertHash(key: string, digest: string): string {
  return createHmac('sha256', key).update(digest).digest('hex');
}

/**
 * What the database keeps to find an entry by phone (the console's search): HMAC-SHA256 of its digits (a
 * mainland number without its +86) under the ID-number secret, as for certificate numbers: a phone number is
 * even easier to guess than an ID number, so a plain hash would give it away.
 */
export function keyedPhoneHash(key: string, phone: string): string {
  let digits = phone.replace(/\D/g, '');
  if (digits.length === 13 && digits.startsWith('861')) digits = digits.slice(2);
  return createHmac('sha256', key).update(`phone:${digits}`).digest('hex');
}

/** 320102199001011234 → 3201**********1234; short numbers keep 2 + 2 (or are fully masked). */
export function maskCertNo(raw: string): string {
  const s = normalizeCertNo(raw);
  const keep = s.length >= 12 ? 4 : s.length >= 6 ? 2 : 0;
  if (keep === 0) return '*'.repeat(s.length);
  return `${s.slice(0, keep)}${'*'.repeat(s.length - keep * 2)}${s.slice(-keep)}`;
}

/** 13800138000 → 138****8000. */
export function maskMobile(raw: string): string {
  const s = raw.trim();
  if (s.length < 7) return '*'.repeat(s.length);
  return `${s.slice(0, 3)}${'*'.repeat(s.length - 7)}${s.slice(-4)}`;
}

/** 张伟 → 张*, 欧阳娜娜 → 欧**娜, Li Na → L***a: the first and (from 3 characters) the last one stay. */
export function maskName(raw: string): string {
  const chars = [...normalizeName(raw)];
  if (chars.length <= 1) return chars.join('');
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}

/** 8_130_000 → '2:15:30' (H:MM:SS). */
export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Pace per km, 'M:SS'. */
export function formatPace(ms: number, km: number): string {
  if (km <= 0) return '';
  const perKm = Math.round(ms / km / 1000);
  return `${Math.floor(perKm / 60)}:${String(perKm % 60).padStart(2, '0')}`;
}

/** 'H:MM:SS' or 'MM:SS' → ms; null when not a time. */
export function parseDuration(text: string): number | null {
  const m = /^(?:(\d{1,2}):)?([0-5]?\d):([0-5]\d)(?:\.(\d{1,3}))?$/.exec(text.trim());
  if (!m) return null;
  const frac = m[4] ? Number(m[4].padEnd(3, '0')) : 0;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + frac;
}

/** Age in whole years on a date: the contract's one rule (the SPA and the sign-up checks use it too). */
export { ageOn } from '#contract/entry';

/** Age group label: 'M18-29', 'F40-44', 'M70+', 'U18'. */
export function ageGroupLabel(gender: number, age: number): string {
  const g = gender === 2 ? 'F' : 'M';
  if (age < 18) return `${g}U18`;
  if (age < 30) return `${g}18-29`;
  if (age >= 70) return `${g}70+`;
  const lo = age - (age % 5);
  return `${g}${lo}-${lo + 4}`;
}

/** The canonical string a certificate signature covers. */
export const certificateCanonical = (f: { raceId: string; bib: string; name: string; item: string; chipMs: number }) =>
  [f.raceId, f.bib, f.name, f.item, String(f.chipMs)].join('|');

export function signCertificate(secret: string, facts: Parameters<typeof certificateCanonical>[0]): string {
  return createHmac('sha256', secret).update(certificateCanonical(facts)).digest('base64url');
}

export function verifySignature(secret: string, facts: Parameters<typeof certificateCanonical>[0], sig: string) {
  const expected = Buffer.from(signCertificate(secret, facts));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
