/**
 * The event's own assets (logo, carousel slides, route map, copyright images, documents to download): kept in
 * the file store (lib/file-store.ts: a shared folder or the database, so every instance on either engine serves
 * them) under uploads/assets/<raceId>/<name>, and served at /files/assets/<raceId>/<name>. A site configuration
 * names an asset by its path on the file host, `assets/<raceId>/<name>` (docs/site-config.md).
 *
 * The CLI's asset-add, asset-list and asset-remove use this; the console's asset library (issue 33 §1) is meant
 * to: add (with the type and size checks, and the dimensions of an image), list with what uses each asset,
 * and remove only what no published site configuration uses.
 */
import { createHash } from 'node:crypto';
import { imageDimensions } from '#contract/image-dimensions';
import { extensionOf, type ImageSize } from '#contract/rules';
import type { Repositories } from '../../db/repositories.ts';
import { siteConfigKey, uploadKey, type FileStore } from '../../lib/file-store.ts';
import { magicMatches } from '../../lib/upload-files.ts';

/** What an asset may be: images (shown on the site) and documents (downloaded). */
export const ASSET_IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg'] as const;
export const ASSET_FILE_TYPES = [...ASSET_IMAGE_TYPES, 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'zip'] as const;
/** The largest image (a carousel slide in good quality) and the largest document. */
export const ASSET_LIMITS = { imageBytes: 5 * 1024 * 1024, fileBytes: 20 * 1024 * 1024 } as const;
/** An asset's name: lower-case letters, digits, '-', '_' and '.', with a known type's extension. */
export const ASSET_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;

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

const folderKey = (raceId: string) => uploadKey(`assets/${raceId}/`);
export const assetPath = (raceId: string, name: string) => `assets/${raceId}/${name}`;

/** The asset name for a file name: lower-cased, every other character a '-'. */
export function assetName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '');
}

/** Why these bytes cannot be an asset of this name (type, content and size checks), or undefined. */
export function assetProblem(name: string, bytes: Buffer): string | undefined {
  if (!ASSET_NAME_PATTERN.test(name)) return `"${name}" is not an asset name (a-z, 0-9, "-", "_", "."; at most 100)`;
  const type = extensionOf(name);
  if (!(ASSET_FILE_TYPES as readonly string[]).includes(type)) {
    return `${name}: the type must be one of ${ASSET_FILE_TYPES.join(', ')}`;
  }
  const image = (ASSET_IMAGE_TYPES as readonly string[]).includes(type);
  if (bytes.length === 0) return `${name}: the file is empty`;
  const limit = image ? ASSET_LIMITS.imageBytes : ASSET_LIMITS.fileBytes;
  if (bytes.length > limit)
    return `${name}: ${bytes.length} bytes, more than the ${limit / 1024 / 1024} MB an ${image ? 'image' : 'document'} may have`;
  if (type === 'svg') {
    const text = bytes.subarray(0, 4096).toString('utf8');
    if (!/<svg[\s>]/i.test(text)) return `${name}: not an SVG image`;
    return undefined;
  }
  if (!magicMatches(type, bytes.subarray(0, 16))) return `${name}: the content is not a .${type} file`;
  if (image && imageDimensions(bytes) === null) return `${name}: the image's width and height cannot be read`;
  return undefined;
}

function info(raceId: string, name: string, bytes: Buffer): AssetInfo {
  const type = extensionOf(name);
  return {
    name,
    path: assetPath(raceId, name),
    url: `/files/${assetPath(raceId, name)}`,
    bytes: bytes.length,
    type,
    size: type === 'svg' ? null : imageDimensions(bytes),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

type Refused = { ok: false; problem: string };
const noRace = (raceId: string): Refused => ({
  ok: false,
  problem: `No race "${raceId}". Add it first with: site add-race <race.json>`,
});

/** Adds an asset to the race's library; a name already there is refused (remove it first, or another name). */
export async function addAsset(
  repos: Repositories,
  files: FileStore,
  input: { raceId: string; name: string; bytes: Buffer },
): Promise<{ ok: true; asset: AssetInfo } | Refused> {
  if (!(await repos.races.findById(input.raceId))) return noRace(input.raceId);
  const problem = assetProblem(input.name, input.bytes);
  if (problem) return { ok: false, problem };
  const key = `${folderKey(input.raceId)}${input.name}`;
  if (await files.has(key)) {
    return {
      ok: false,
      problem: `${input.raceId} already has an asset ${input.name}; remove it first (asset-remove) or choose another --name`,
    };
  }
  await files.put(key, input.bytes);
  return { ok: true, asset: info(input.raceId, input.name, input.bytes) };
}

/** The domains bound to the race whose published site configuration names each of `paths`. */
async function usedBy(repos: Repositories, files: FileStore, raceId: string): Promise<Map<string, string[]>> {
  const documents: { domain: string; text: string }[] = [];
  for (const binding of await repos.bindings.list()) {
    if (binding.raceId !== raceId) continue;
    const published = await repos.siteConfigs.latestForDomain(binding.domainName);
    const bytes = published ? await files.get(siteConfigKey(published.md5)) : undefined;
    if (bytes) documents.push({ domain: binding.domainName, text: bytes.toString('utf8') });
  }
  const uses = new Map<string, string[]>();
  const prefix = `assets/${raceId}/`;
  for (const { domain, text } of documents) {
    for (let at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
      const name = /^[a-z0-9._-]+/.exec(text.slice(at + prefix.length))?.[0];
      if (name && !(uses.get(name) ?? []).includes(domain)) uses.set(name, [...(uses.get(name) ?? []), domain]);
    }
  }
  return uses;
}

/** The race's assets, by name, with the domains whose published site configuration uses each. */
export async function listAssets(
  repos: Repositories,
  files: FileStore,
  raceId: string,
): Promise<{ ok: true; assets: (AssetInfo & { usedBy: string[] })[] } | Refused> {
  if (!(await repos.races.findById(raceId))) return noRace(raceId);
  const uses = await usedBy(repos, files, raceId);
  const assets: (AssetInfo & { usedBy: string[] })[] = [];
  const folder = folderKey(raceId);
  for (const key of await files.list(folder)) {
    const name = key.slice(folder.length);
    const bytes = await files.get(key);
    if (bytes) assets.push({ ...info(raceId, name, bytes), usedBy: uses.get(name) ?? [] });
  }
  return { ok: true, assets };
}

/** Removes an asset, refused while a published site configuration of the race uses it. */
export async function removeAsset(
  repos: Repositories,
  files: FileStore,
  input: { raceId: string; name: string },
): Promise<{ ok: true } | Refused> {
  if (!(await repos.races.findById(input.raceId))) return noRace(input.raceId);
  const key = `${folderKey(input.raceId)}${input.name}`;
  if (!ASSET_NAME_PATTERN.test(input.name) || !(await files.has(key))) {
    return {
      ok: false,
      problem: `${input.raceId} has no asset ${input.name} (list them with: site asset-list ${input.raceId})`,
    };
  }
  const domains = (await usedBy(repos, files, input.raceId)).get(input.name) ?? [];
  if (domains.length > 0) {
    return {
      ok: false,
      problem: `${assetPath(input.raceId, input.name)} is used by the published site configuration of ${domains.join(', ')}; publish one without it first`,
    };
  }
  await files.remove(key);
  return { ok: true };
}
