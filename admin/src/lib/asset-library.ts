/**
 * The race's asset library for the console (issue 33 §1): the list call, an upload (checked here first by
 * name, type and size, then by the server: content and dimensions), a replace, and how an asset is shown (its
 * thumbnail address, its size in words). Used by the AssetPicker and the Assets page.
 */
import { assetFileProblem, assetName, isImageAssetName, type AssetInfo, type AssetListing } from '#contract/assets';
import { imageDimensions } from '#contract/image-dimensions';
import { checkImageSize, type ImageSize } from '#contract/rules';
import { api, ConsoleApiError } from '../api/client';
import { consoleMessage } from '../messages';
import { useConsole } from '../store';
import { base64Of, bytesOf } from './file-base64';

export type ListedAsset = AssetListing['assets'][number];

export const assetsCall = (raceId: string) => `/races/${encodeURIComponent(raceId)}/assets`;

export const listRaceAssets = async (raceId: string) => (await api.get<AssetListing>(assetsCall(raceId))).assets;

/** A refusal made here, in the console's language, as the server would word it. */
function refusal(code: string, params: Record<string, string | number>): ConsoleApiError {
  return new ConsoleApiError(consoleMessage(useConsole.getState().language, code, params), 400, code);
}

/** An image's width and height read from the file itself (null: not an image, or an SVG). */
export async function dimensionsOf(file: Blob): Promise<ImageSize | null> {
  return imageDimensions(await bytesOf(file));
}

/**
 * Checks a chosen file (name, type, size; with `size`, an image of exactly that size) and adds it to the
 * library under its name; rejects with the reason in the console's language.
 */
export async function uploadAsset(raceId: string, file: File, size?: ImageSize): Promise<AssetInfo> {
  const name = assetName(file.name);
  const problem = assetFileProblem(name, file.size);
  if (problem) throw refusal(problem.code, { ...problem.params, name: file.name });
  if (size) {
    const actual = isImageAssetName(name) ? await dimensionsOf(file) : null;
    const mismatch = actual ? checkImageSize(actual, size) : null;
    if (!actual || mismatch) {
      throw refusal('imageSizeMismatch', {
        width: size.width,
        height: size.height,
        actualWidth: actual?.width ?? 0,
        actualHeight: actual?.height ?? 0,
      });
    }
  }
  return api.postFile<AssetInfo>(assetsCall(raceId), { content: await base64Of(file), fileName: file.name, name });
}

/** Replaces an asset's bytes under its name (a file of the same type). */
export async function replaceAsset(raceId: string, name: string, file: File): Promise<AssetInfo> {
  const problem = assetFileProblem(name, file.size);
  if (problem) throw refusal(problem.code, { ...problem.params, name: file.name });
  return api.postFile<AssetInfo>(`${assetsCall(raceId)}/${encodeURIComponent(name)}/replace`, {
    content: await base64Of(file),
  });
}

/** The address to show an asset at: its own, with its checksum so a replaced image is never an old copy. */
export const assetThumb = (asset: Pick<AssetInfo, 'url' | 'sha256'>) => `${asset.url}?v=${asset.sha256.slice(0, 12)}`;

/** Where a value (a path on the file host or an address) is shown from in the console. */
export function valueAddress(value: string): string {
  if (/^(https?:)?\/\//i.test(value) || value.startsWith('/')) return value;
  return `/files/${value}`;
}

/** A size in B, KB or MB. */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const dimensions = (size: ImageSize | null) => (size ? `${size.width} × ${size.height} px` : '—');
