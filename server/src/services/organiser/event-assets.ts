/**
 * The event's own assets (logo, carousel slides, route map, copyright images, documents to download): kept in
 * the file store (lib/file-store.ts: a shared folder or the database, so every instance on either engine serves
 * them) under uploads/assets/<raceId>/<name>, and served at /files/assets/<raceId>/<name>. A site configuration
 * names an asset by its path on the file host, `assets/<raceId>/<name>` (docs/site-config.md).
 *
 * One service for the CLI (asset-add, asset-list, asset-replace, asset-remove) and the console's asset library
 * (routes/admin/assets.ts, issue 33 §1): add (type, content, size and an image's readable dimensions checked),
 * list with what uses each asset, replace (the same name, new bytes of its type; an image used in a slot with
 * an exact size must keep it) and remove (refused while anything uses it, naming where). Every change is in the
 * audit log as asset.add, asset.replace, asset.remove, whoever made it.
 */
import { createHash } from 'node:crypto';
import {
  ASSET_FILE_TYPES,
  ASSET_NAME_PATTERN,
  assetFileProblem,
  assetPath,
  assetUrl,
  describeAssetUse,
  isAssetImageType,
  siteSlotSize,
  type AssetInfo,
  type AssetUpload,
  type AssetUse,
} from '#contract/assets';
import type { ConsoleMessageCode } from '#contract/console-messages';
import { imageDimensions } from '#contract/image-dimensions';
import { checkImageSize, extensionOf, type ImageSize } from '#contract/rules';
import type { Repositories } from '../../db/repositories.ts';
import { siteConfigKey, uploadKey, type FileStore } from '../../lib/file-store.ts';
import { magicMatches } from '../../lib/upload-files.ts';
import { appendAudit, auditPage, type AuditActor } from '../staff/audit.ts';

export {
  ASSET_FILE_TYPES,
  ASSET_IMAGE_TYPES,
  ASSET_LIMITS,
  ASSET_NAME_PATTERN,
  assetName,
  assetPath,
} from '#contract/assets';
export type { AssetInfo, AssetUse };

/** A refusal: the CLI's English line (`problem`) and the console's message code with its parameters. */
export interface AssetRefusal {
  ok: false;
  status: number;
  code: ConsoleMessageCode;
  params?: Record<string, string | number>;
  problem: string;
}

const refuse = (
  status: number,
  code: ConsoleMessageCode,
  problem: string,
  params?: Record<string, string | number>,
): AssetRefusal => ({ ok: false, status, code, problem, ...(params ? { params } : {}) });

const folderKey = (raceId: string) => uploadKey(`assets/${raceId}/`);
const keyOf = (raceId: string, name: string) => `${folderKey(raceId)}${name}`;

/** Why these bytes cannot be an asset of this name (name, type, content, size and dimension checks), or undefined. */
export function assetRefusal(name: string, bytes: Buffer): AssetRefusal | undefined {
  const type = extensionOf(name);
  const image = isAssetImageType(type);
  const problem = assetFileProblem(name, bytes.length);
  if (problem) {
    const { code, params } = problem;
    const line =
      code === 'assetNameInvalid'
        ? `"${name}" is not an asset name (a-z, 0-9, "-", "_", "."; at most 100)`
        : code === 'assetTypeInvalid'
          ? `${name}: the type must be one of ${ASSET_FILE_TYPES.join(', ')}`
          : code === 'assetEmpty'
            ? `${name}: the file is empty`
            : `${name}: ${bytes.length} bytes, more than the ${params.limit} MB an ${image ? 'image' : 'document'} may have`;
    return refuse(code === 'assetTooBig' ? 413 : 400, code, line, params);
  }
  const notOfType = refuse(400, 'assetContentMismatch', `${name}: the content is not a .${type} file`, { name, type });
  if (type === 'svg') return /<svg[\s>]/i.test(bytes.subarray(0, 4096).toString('utf8')) ? undefined : notOfType;
  if (!magicMatches(type, bytes.subarray(0, 16))) return notOfType;
  if (image && imageDimensions(bytes) === null) {
    return refuse(400, 'assetImageUnreadable', `${name}: the image's width and height cannot be read`, { name });
  }
  return undefined;
}

/** The CLI's wording of the same checks (kept for callers that want only the line). */
export const assetProblem = (name: string, bytes: Buffer) => assetRefusal(name, bytes)?.problem;

function info(raceId: string, name: string, bytes: Buffer): AssetInfo {
  const type = extensionOf(name);
  return {
    name,
    path: assetPath(raceId, name),
    url: assetUrl(raceId, name),
    bytes: bytes.length,
    type,
    size: type === 'svg' || !isAssetImageType(type) ? null : imageDimensions(bytes),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

const noRace = (raceId: string) =>
  refuse(404, 'assetRaceNotFound', `No race "${raceId}". Add it first with: site add-race <race.json>`, {
    raceId,
  });
const noAsset = (raceId: string, name: string) =>
  refuse(404, 'assetNotFound', `${raceId} has no asset ${name} (list them with: site asset-list ${raceId})`, {
    name: name.slice(0, 120),
  });

/** A document that may name assets: a published site configuration, a site draft, a form, the race. */
export interface AssetDocument {
  where: AssetUse['where'];
  of: string;
  document: unknown;
}

/** A JSON text's value, or the text itself when it does not parse (its uses are still found in it). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Every document of the race that may name its assets: the domains' published configurations and drafts, the
 * published registration forms, the race information. */
async function documentsOf(repos: Repositories, files: FileStore, raceId: string): Promise<AssetDocument[]> {
  const documents: AssetDocument[] = [];
  for (const binding of await repos.bindings.list()) {
    if (binding.raceId !== raceId) continue;
    const published = await repos.siteConfigs.latestForDomain(binding.domainName);
    const bytes = published ? await files.get(siteConfigKey(published.md5)) : undefined;
    if (bytes) documents.push({ where: 'site', of: binding.domainName, document: parsed(bytes.toString('utf8')) });
    // The domain's draft (the site page's, services/website/site-drafts.ts): kept as typed, even unparsable.
    const draft = await repos.siteDrafts.find(binding.domainName);
    if (draft) documents.push({ where: 'siteDraft', of: binding.domainName, document: parsed(draft.text) });
  }
  for (const form of await repos.registrationForms.listLatest()) {
    if (form.raceId !== raceId) continue;
    const latest = await repos.registrationForms.latest(raceId, form.channel);
    if (latest) documents.push({ where: 'form', of: form.channel, document: latest.form });
  }
  const race = await repos.races.findById(raceId);
  if (race) documents.push({ where: 'race', of: raceId, document: race });
  return documents;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each asset of the race named anywhere in `documents`, with every place (document and field) naming it. */
export function assetUses(raceId: string, documents: readonly AssetDocument[]): Map<string, AssetUse[]> {
  const pattern = new RegExp(`(?:^|[^a-z0-9._-])assets/${escapeRegExp(raceId)}/([a-z0-9][a-z0-9._-]*)`, 'g');
  const uses = new Map<string, AssetUse[]>();
  const note = (name: string, use: AssetUse) => {
    const clean = name.replace(/\.+$/, '');
    const list = uses.get(clean) ?? [];
    if (!list.some((u) => u.where === use.where && u.of === use.of && u.field === use.field)) list.push(use);
    uses.set(clean, list);
  };
  const walk = (value: unknown, field: string, where: AssetUse['where'], of: string) => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(pattern)) note(match[1]!, { where, of, field: field || '(document)' });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${field}[${index}]`, where, of));
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) walk(item, field ? `${field}.${key}` : key, where, of);
    }
  };
  for (const { where, of, document } of documents) walk(document, '', where, of);
  return uses;
}

async function usesOf(repos: Repositories, files: FileStore, raceId: string) {
  return assetUses(raceId, await documentsOf(repos, files, raceId));
}

/** The uses in words for the CLI: "the published site configuration of localhost (logo)". */
function usesInWords(uses: readonly AssetUse[]): string {
  return uses
    .map((use) =>
      use.where === 'site'
        ? `the published site configuration of ${use.of} (${use.field})`
        : use.where === 'siteDraft'
          ? `the site draft of ${use.of} (${use.field})`
          : use.where === 'form'
            ? `the registration form of channel ${use.of} (${use.field})`
            : `the race information of ${use.of} (${use.field})`,
    )
    .join(', ');
}

export interface AssetChange {
  raceId: string;
  name: string;
  bytes: Buffer;
  actor: AuditActor;
  now: number;
}

const auditInfo = (asset: AssetInfo) => ({
  bytes: asset.bytes,
  sha256: asset.sha256,
  ...(asset.size ? { width: asset.size.width, height: asset.size.height } : {}),
});

/** Adds an asset to the race's library; a name already there is refused (replace it, or another name). */
export async function addAsset(
  repos: Repositories,
  files: FileStore,
  input: AssetChange,
): Promise<{ ok: true; asset: AssetInfo } | AssetRefusal> {
  if (!(await repos.races.findById(input.raceId))) return noRace(input.raceId);
  const refusal = assetRefusal(input.name, input.bytes);
  if (refusal) return refusal;
  const key = keyOf(input.raceId, input.name);
  if (await files.has(key)) {
    return refuse(
      409,
      'assetNameTaken',
      `${input.raceId} already has an asset ${input.name}; replace it (asset-replace), or choose another --name`,
      { name: input.name },
    );
  }
  await files.put(key, input.bytes);
  const asset = info(input.raceId, input.name, input.bytes);
  await appendAudit(
    repos,
    input.actor,
    { action: 'asset.add', raceId: input.raceId, target: asset.path, after: auditInfo(asset) },
    input.now,
  );
  return { ok: true, asset };
}

/**
 * Replaces an asset's bytes under the same name (so every document naming it shows the new one): the new bytes
 * pass the same checks, and an image used in a slot with an exact size must have that size.
 */
export async function replaceAsset(
  repos: Repositories,
  files: FileStore,
  input: AssetChange,
): Promise<{ ok: true; asset: AssetInfo } | AssetRefusal> {
  if (!(await repos.races.findById(input.raceId))) return noRace(input.raceId);
  const key = keyOf(input.raceId, input.name);
  const old = ASSET_NAME_PATTERN.test(input.name) ? await files.get(key) : undefined;
  if (!old) return noAsset(input.raceId, input.name);
  const refusal = assetRefusal(input.name, input.bytes);
  if (refusal) return refusal;
  const asset = info(input.raceId, input.name, input.bytes);
  for (const use of (await usesOf(repos, files, input.raceId)).get(input.name) ?? []) {
    const required = use.where === 'site' || use.where === 'siteDraft' ? siteSlotSize(use.field) : undefined;
    if (!required) continue;
    const actual: ImageSize = asset.size ?? { width: 0, height: 0 };
    if (checkImageSize(actual, required)) {
      return refuse(
        400,
        'assetSlotSize',
        `${input.name} is used by ${usesInWords([use])}, which needs ${required.width}×${required.height} px; this image is ${actual.width}×${actual.height} px`,
        {
          where: describeAssetUse(use),
          width: required.width,
          height: required.height,
          actualWidth: actual.width,
          actualHeight: actual.height,
        },
      );
    }
  }
  const before = info(input.raceId, input.name, old);
  await files.replace(key, input.bytes);
  await appendAudit(
    repos,
    input.actor,
    {
      action: 'asset.replace',
      raceId: input.raceId,
      target: asset.path,
      before: auditInfo(before),
      after: auditInfo(asset),
    },
    input.now,
  );
  return { ok: true, asset };
}

/** When each asset path of the race got its current bytes and by whom: its latest asset.add or asset.replace. */
async function uploadsOf(repos: Repositories, raceId: string): Promise<Map<string, AssetUpload>> {
  const uploads = new Map<string, AssetUpload>();
  for (const action of ['asset.add', 'asset.replace']) {
    let beforeSeq: number | undefined;
    do {
      const page = await auditPage(repos, { action, raceId, limit: 200, ...(beforeSeq ? { beforeSeq } : {}) });
      for (const record of page.records) {
        const known = uploads.get(record.target);
        if (!known || known.at < record.at) uploads.set(record.target, { at: record.at, by: record.actorName });
      }
      beforeSeq = page.next ?? undefined;
    } while (beforeSeq !== undefined);
  }
  return uploads;
}

export type ListedAsset = AssetInfo & { usedBy: AssetUse[]; uploaded: AssetUpload | null };

/** The race's assets, by name, with every place that uses each and when and by whom it was uploaded. */
export async function listAssets(
  repos: Repositories,
  files: FileStore,
  raceId: string,
): Promise<{ ok: true; assets: ListedAsset[] } | AssetRefusal> {
  if (!(await repos.races.findById(raceId))) return noRace(raceId);
  const uses = await usesOf(repos, files, raceId);
  const uploads = await uploadsOf(repos, raceId);
  const assets: ListedAsset[] = [];
  const folder = folderKey(raceId);
  for (const key of await files.list(folder)) {
    const name = key.slice(folder.length);
    const bytes = await files.get(key);
    if (!bytes) continue;
    const asset = info(raceId, name, bytes);
    assets.push({ ...asset, usedBy: uses.get(name) ?? [], uploaded: uploads.get(asset.path) ?? null });
  }
  return { ok: true, assets };
}

/** Removes an asset, refused while anything of the race uses it (naming where). */
export async function removeAsset(
  repos: Repositories,
  files: FileStore,
  input: { raceId: string; name: string; actor: AuditActor; now: number },
): Promise<{ ok: true } | AssetRefusal> {
  if (!(await repos.races.findById(input.raceId))) return noRace(input.raceId);
  const key = keyOf(input.raceId, input.name);
  const bytes = ASSET_NAME_PATTERN.test(input.name) ? await files.get(key) : undefined;
  if (!bytes) return noAsset(input.raceId, input.name);
  const uses = (await usesOf(repos, files, input.raceId)).get(input.name) ?? [];
  if (uses.length > 0) {
    return refuse(
      409,
      'assetInUse',
      `${assetPath(input.raceId, input.name)} is used by ${usesInWords(uses)}; take it out of them first`,
      { name: input.name, where: uses.map(describeAssetUse).join('; ') },
    );
  }
  await files.remove(key);
  await appendAudit(
    repos,
    input.actor,
    {
      action: 'asset.remove',
      raceId: input.raceId,
      target: assetPath(input.raceId, input.name),
      before: auditInfo(info(input.raceId, input.name, bytes)),
    },
    input.now,
  );
  return { ok: true };
}
