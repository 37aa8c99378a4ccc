/**
 * Publishing a site-config document: validate it, store its exact bytes content-addressed in the file store
 * (lib/file-store.ts: site-configs/<md5>.json, with a brotli copy beside it) and record the publication.
 * The lookup answers `fileMd5` = MD5 of those bytes and `uri` = where they are served.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { API_PATHS } from '#contract/api';
import { ROUTE_COMPONENTS } from '#contract/page-names';
import { DOCUMENT_LIMITS, type ConfigProblem } from '#contract/site-config/document-limits';
import { checkSiteConfig, type SiteConfigReport } from '#contract/site-config/checks';
import { siteConfigBrotliKey, siteConfigKey, type FileStore } from '../lib/file-store.ts';
import { parseJsonText } from '../lib/json-text.ts';
import type { SiteConfigsRepository } from './site-configs-repository.ts';

export const MD5_PATTERN = /^[0-9a-f]{32}$/;

export const siteConfigUri = (md5: string) => `${API_PATHS.siteConfigFilesPrefix}${md5}.json`;

export class SiteConfigRejectedError extends Error {
  constructor(
    readonly problems: ConfigProblem[],
    source: string,
  ) {
    super(
      `${source} is not a valid site configuration:\n` + problems.map((p) => `  ${p.path}: ${p.message}`).join('\n'),
    );
    this.name = 'SiteConfigRejectedError';
  }
}

/**
 * The report of a document given as bytes: a size over the limit or a JSON syntax error (with line and
 * column), else the schema's problems, unknown page components and dataPaths that point at nothing
 * (errors), and unknown or misplaced keys (warnings). Never throws.
 */
export function inspectSiteConfigBytes(bytes: Buffer): SiteConfigReport {
  if (bytes.length > DOCUMENT_LIMITS.maxBytes) {
    const message = `the document is ${bytes.length} bytes; at most ${DOCUMENT_LIMITS.maxBytes} are allowed`;
    return { errors: [{ path: '$', message }], warnings: [] };
  }
  const parsed = parseJsonText(bytes.toString('utf8'));
  if (!parsed.ok) return { errors: [{ path: '$', message: parsed.message }], warnings: [] };
  return checkSiteConfig(parsed.value, { pageComponents: ROUTE_COMPONENTS });
}

/** Every error of a document given as bytes (see inspectSiteConfigBytes). */
export function checkSiteConfigBytes(bytes: Buffer): ConfigProblem[] {
  return inspectSiteConfigBytes(bytes).errors;
}

/** Drops a UTF-8 byte-order mark so that what is served is plain JSON. */
function withoutBom(bytes: Buffer): Buffer {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}

export interface PublishResult {
  domainName: string;
  md5: string;
  uri: string;
  publishedAt: number;
  /** Parts of the document the SPA ignores (published all the same). */
  warnings: ConfigProblem[];
}

interface StoreInput {
  siteConfigs: SiteConfigsRepository;
  files: FileStore;
  domainName: string;
  bytes: Buffer;
  now: number;
  /** The staff member who publishes (the console); absent for the command line and the seed. */
  publishedBy?: number | null;
}

/** Validates and publishes; throws SiteConfigRejectedError listing every problem with its JSON path. */
export async function publishSiteConfig(
  input: StoreInput & { /** Names the document in error messages (a file path). */ source?: string },
): Promise<PublishResult> {
  const bytes = withoutBom(input.bytes);
  const { errors, warnings } = inspectSiteConfigBytes(bytes);
  if (errors.length > 0) throw new SiteConfigRejectedError(errors, input.source ?? 'The document');
  return { ...(await storeSiteConfig({ ...input, bytes })), warnings };
}

/**
 * Stores and records a document WITHOUT checking it. Only for tests that play a document the checks
 * would refuse (one published before a check existed, or edited on disk), to show the SPA still copes.
 */
export async function storeSiteConfig(input: StoreInput): Promise<Omit<PublishResult, 'warnings'>> {
  const { md5, byteLength } = await putSiteConfigBytes(input.files, input.bytes);
  await input.siteConfigs.record({
    domainName: input.domainName,
    md5,
    byteLength,
    publishedAt: input.now,
    publishedBy: input.publishedBy ?? null,
  });
  return { domainName: input.domainName, md5, uri: siteConfigUri(md5), publishedAt: input.now };
}

/**
 * Puts a document's bytes (without a byte-order mark) and their brotli copy in the file store, unless they
 * are there already; records nothing. The seed puts its documents with this before its transaction.
 */
export async function putSiteConfigBytes(files: FileStore, raw: Buffer): Promise<{ md5: string; byteLength: number }> {
  const bytes = withoutBom(raw);
  const md5 = createHash('md5').update(bytes).digest('hex');
  await files.put(siteConfigKey(md5), bytes);
  // Compressed once here at brotli's best, for phones on race day (the server sends it to browsers that take br).
  if (!(await files.has(siteConfigBrotliKey(md5)))) {
    const compressed = brotliCompressSync(bytes, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    await files.put(siteConfigBrotliKey(md5), compressed);
  }
  return { md5, byteLength: bytes.length };
}
