/**
 * The event's asset library (issue 33 §1), the rules both the console and the server need: what an asset may
 * be (types, sizes, names), what the console's asset calls answer, and the site's image slots with the exact
 * size a slot needs where the spec gives one, so the site's editors pass the same `size` to the AssetPicker
 * that the server checks when a used image is replaced.
 */
import type { ImageSize } from '#contract/rules';

/** What an asset may be: images (shown on the site) and documents (downloaded). */
export const ASSET_IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg'] as const;
export const ASSET_FILE_TYPES = [...ASSET_IMAGE_TYPES, 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'zip'] as const;
/** The largest image (a carousel slide in good quality) and the largest document. */
export const ASSET_LIMITS = { imageBytes: 5 * 1024 * 1024, fileBytes: 20 * 1024 * 1024 } as const;
/** An asset's name: lower-case letters, digits, '-', '_' and '.', with a known type's extension. */
export const ASSET_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/** The extension of a name, lower-cased ('' without one). */
const extension = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

export const isAssetImageType = (type: string) => (ASSET_IMAGE_TYPES as readonly string[]).includes(type);
export const isAssetFileType = (type: string) => (ASSET_FILE_TYPES as readonly string[]).includes(type);
export const isImageAssetName = (name: string) => isAssetImageType(extension(name));

/** The asset name for a file name: lower-cased, every other character a '-'. */
export function assetName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '');
}

/** A refusal of a file by its name and size alone (the console checks before sending; the server again). */
export interface AssetFileProblem {
  code: 'assetNameInvalid' | 'assetTypeInvalid' | 'assetEmpty' | 'assetTooBig';
  params: Record<string, string | number>;
}

/** Why a file of this name and size cannot be an asset (name, type, emptiness, size), or null. */
export function assetFileProblem(name: string, bytes: number): AssetFileProblem | null {
  if (!ASSET_NAME_PATTERN.test(name)) return { code: 'assetNameInvalid', params: { name: name.slice(0, 120) } };
  const type = extension(name);
  if (!isAssetFileType(type)) return { code: 'assetTypeInvalid', params: { name, types: ASSET_FILE_TYPES.join(', ') } };
  if (bytes === 0) return { code: 'assetEmpty', params: { name } };
  const limit = isAssetImageType(type) ? ASSET_LIMITS.imageBytes : ASSET_LIMITS.fileBytes;
  if (bytes > limit) return { code: 'assetTooBig', params: { name, limit: limit / 1024 / 1024 } };
  return null;
}

/** The path a site configuration names an asset by (on the file host) and its address on this server. */
export const assetPath = (raceId: string, name: string) => `assets/${raceId}/${name}`;
export const assetUrl = (raceId: string, name: string) => `/files/${assetPath(raceId, name)}`;

/** The asset a value names (`assets/<raceId>/<name>`, or with /files/ before it), or null. */
export function assetNameIn(raceId: string, value: string): string | null {
  const prefix = assetPath(raceId, '');
  const at = value.startsWith(prefix) ? 0 : value.startsWith(`/files/${prefix}`) ? 7 : -1;
  if (at < 0) return null;
  const name = value.slice(at + prefix.length);
  return ASSET_NAME_PATTERN.test(name) ? name : null;
}

/** Where an asset is used: a published site configuration or a site draft (of a domain), a form, the race. */
export interface AssetUse {
  where: 'site' | 'siteDraft' | 'form' | 'race';
  /** The domain (site, siteDraft), the form's channel (form), the race's id (race). */
  of: string;
  /** The field of the document that names it (e.g. `carouselList[0].surfacePlotUrl`, `imgDetail`). */
  field: string;
}

/** One asset as the console's asset calls answer it. */
export interface AssetInfo {
  name: string;
  /** Its path on the file host, for a site configuration: assets/<raceId>/<name>. */
  path: string;
  /** Its address on this server: /files/assets/<raceId>/<name>. */
  url: string;
  bytes: number;
  type: string;
  /** An image's width and height (an SVG: unknown). */
  size: ImageSize | null;
  sha256: string;
}

/** When the asset's current bytes were stored and by whom (from the audit log; null when it has no record). */
export interface AssetUpload {
  at: number;
  by: string;
}

export interface AssetListing {
  assets: (AssetInfo & { usedBy: AssetUse[]; uploaded: AssetUpload | null })[];
}

/** A use as one line, the same in both languages: `localhost · logo`, `form public · fields[2].hint`. */
export function describeAssetUse(use: AssetUse): string {
  const who =
    use.where === 'site'
      ? use.of
      : use.where === 'siteDraft'
        ? `${use.of} (draft)`
        : use.where === 'form'
          ? `form ${use.of}`
          : `race ${use.of}`;
  return `${who} · ${use.field}`;
}

/**
 * The site configuration's image slots (docs/site-config.md), by field path with `[]` for a list's items, and
 * the exact size of a slot where the spec fixes one. The spec (§5, "Image size") fixes exact sizes only for the
 * registration form's image fields (their `width` and `height`); it gives none for the site's slots, so none
 * has one here. A size set here is what the AssetPicker refuses other images for and what replacing a used
 * image must keep (services/organiser/event-assets.ts).
 */
export const SITE_IMAGE_SLOTS: Readonly<Record<string, { size?: ImageSize }>> = {
  logo: {},
  logoH5: {},
  copyright: {},
  copyrightEn: {},
  copyrightH5: {},
  appQrCode: {},
  'qrCodeList[].src': {},
  'bannerAdList[].surfacePlotUrl': {},
  'adListTop[].surfacePlotUrl': {},
  'adListBottom[].surfacePlotUrl': {},
  'carouselList[].surfacePlotUrl': {},
  'routeMap.image': {},
  'cooperativePartnerList[].children[].src': {},
};

/** A field path's slot key: list indexes dropped (`carouselList[2].surfacePlotUrl` → `carouselList[].surfacePlotUrl`). */
export const slotKey = (field: string) => field.replace(/\[\d+\]/g, '[]');

/** The exact size the site's slot at `field` needs, or undefined when any size will do. */
export const siteSlotSize = (field: string): ImageSize | undefined => SITE_IMAGE_SLOTS[slotKey(field)]?.size;
