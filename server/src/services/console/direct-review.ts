/**
 * The console's direct-pass review (issue 32 §1; contract/console-review.ts): a race's queue of applications
 * (submitted ones first, the longest waiting first), one application with every value by the race's published
 * direct form (certificate and phone numbers masked; the whole ones a separate read, recorded in the audit log
 * as the entry page's are) and the documents its runner uploaded, each read only through the console
 * (routes/admin/review.ts: staff only, never cached). Approving and rejecting are reviewApplication, the CLI's.
 */
import type {
  DirectClaimShown,
  DirectDocument,
  DirectQueueAnswer,
  DirectQueueItem,
  DirectReviewDetail,
  DirectReviewValue,
} from '#contract/console-review';
import type { FormField, RegistrationForm } from '#contract/registration-form';
import { DIRECT_FORM_CHANNEL, type DirectStatus } from '#contract/registration-screens';
import { splitUploadValue } from '#contract/upload-value';
import { extensionOf } from '#contract/rules';
import type { DirectApplicationRecord } from '../../db/direct-applications-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { uploadKey, type FileStore } from '../../lib/file-store.ts';
import { formatDuration, maskName } from '../../lib/race-center.ts';
import { UPLOAD_SUBDIR } from '../../lib/upload-files.ts';
import { storedNameOf } from '../../lib/upload-value.ts';
import { directApplicationForReview, directApplicationsOf, maskValues } from '../registration/direct-applications.ts';
import { resultOfClaim } from '../registration/own-results.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

/** The documents of an application: every upload its values name (upload fields, an outside result's certificate). */
function documentNames(form: RegistrationForm | undefined, values: Record<string, unknown>) {
  const fields = new Map<string, FormField>(form?.fields.map((f) => [f.key, f]) ?? []);
  const found: { field: string; storedName: string }[] = [];
  const add = (field: string, url: unknown) => {
    if (typeof url !== 'string') return;
    for (const one of splitUploadValue(url)) {
      const storedName = storedNameOf(one);
      if (storedName !== null && !found.some((d) => d.storedName === storedName)) found.push({ field, storedName });
    }
  };
  for (const [key, value] of Object.entries(values)) {
    const type = fields.get(key)?.type;
    if (type === 'image' || type === 'file' || (form === undefined && typeof value === 'string')) add(key, value);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const claim = value as Record<string, unknown>;
      if (claim.source === 'outside') add(key, claim.certificateImage);
    }
  }
  return found;
}

const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp']);
const documentKind = (name: string): DirectDocument['kind'] => {
  const extension = extensionOf(name);
  return IMAGE_EXTENSIONS.has(extension) ? 'image' : extension === 'pdf' ? 'pdf' : 'file';
};

/** The console's address of a document (routes/admin/review.ts). */
export const documentPath = (prefix: string, raceId: string, id: number, storedName: string) =>
  `${prefix}/races/${encodeURIComponent(raceId)}/review/${id}/files/${encodeURIComponent(storedName)}`;

const queueItem = (record: DirectApplicationRecord, form: RegistrationForm | undefined): DirectQueueItem => ({
  id: record.id,
  status: record.status,
  name: maskName(record.name),
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
  ...(record.submittedAt === null ? {} : { submittedAt: record.submittedAt }),
  ...(record.reviewedAt === null ? {} : { reviewedAt: record.reviewedAt }),
  documents: documentNames(form, record.values).length,
});

/** The race's queue: submitted first, the longest waiting first; then the others, the latest changed first. */
export async function reviewQueue(
  repos: Repositories,
  raceId: string,
  status?: DirectStatus,
): Promise<DirectQueueAnswer | undefined> {
  const all = await directApplicationsOf(repos, raceId);
  if (!all) return undefined;
  const form = await directFormOf(repos, raceId);
  const counts: Record<DirectStatus, number> = { 0: 0, 1: 0, 2: 0, 3: 0 };
  for (const a of all.applications) counts[a.status] += 1;
  const order = (a: DirectApplicationRecord, b: DirectApplicationRecord) => {
    if ((a.status === 1) !== (b.status === 1)) return a.status === 1 ? -1 : 1;
    if (a.status === 1) return (a.submittedAt ?? 0) - (b.submittedAt ?? 0) || a.id - b.id;
    return b.updatedAt - a.updatedAt || b.id - a.id;
  };
  const items = all.applications
    .filter((a) => status === undefined || a.status === status)
    .sort(order)
    .map((a) => queueItem(a, form));
  return { items, counts };
}

/** The race's published direct form (what names the values), or undefined. */
const directFormOf = async (repos: Repositories, raceId: string) =>
  (await repos.registrationForms.latest(raceId, DIRECT_FORM_CHANNEL))?.form;

/** A claimed result as the reviewer reads it. */
async function claimShown(repos: Repositories, value: Record<string, unknown>): Promise<DirectClaimShown | undefined> {
  if (value.source === 'own' && typeof value.resultId === 'string') {
    const row = await resultOfClaim(repos, value.resultId);
    return row
      ? { source: 'own', resultId: value.resultId, found: true, item: row.item, chipTime: formatDuration(row.chip_ms) }
      : { source: 'own', resultId: value.resultId, found: false };
  }
  if (value.source === 'outside') {
    return {
      source: 'outside',
      raceName: String(value.raceName ?? ''),
      raceDate: String(value.raceDate ?? ''),
      item: String(value.item ?? ''),
      chipTime: String(value.chipTime ?? ''),
    };
  }
  return undefined;
}

/** Application `id` of race `raceId` as found for review, or undefined (none, or another race's). */
async function applicationOfRace(repos: Repositories, raceId: string, id: number) {
  const found = await directApplicationForReview(repos, id);
  return found && found.record.raceId === raceId ? found : undefined;
}

/** One application as its reviewer reads it; undefined: no such application in the race. */
export async function reviewDetail(
  repos: Repositories,
  raceId: string,
  id: number,
  prefix: string,
): Promise<DirectReviewDetail | undefined> {
  const found = await applicationOfRace(repos, raceId, id);
  if (!found) return undefined;
  const { record, form } = found;
  const fields = new Map<string, FormField>(form?.fields.map((f) => [f.key, f]) ?? []);
  const masked = maskValues(form, record.values);
  const values: DirectReviewValue[] = [];
  for (const [key, value] of Object.entries(masked)) {
    const field = fields.get(key);
    const shown: DirectReviewValue = { key, text: '', ...(field ? { label: field.label } : {}) };
    if (field?.type === 'certificateNumber' || field?.type === 'phone') shown.personal = true;
    if (Array.isArray(value)) shown.text = value.map(String).join(', ');
    else if (value && typeof value === 'object') {
      const claim = await claimShown(repos, value as Record<string, unknown>);
      if (claim) shown.claim = claim;
      shown.text = claim ? '' : JSON.stringify(value);
    } else if (field?.type === 'image' || field?.type === 'file') {
      shown.text = String(splitUploadValue(String(value)).length);
    } else shown.text = String(value);
    values.push(shown);
  }
  const documents = documentNames(form, record.values).map(({ field, storedName }) => ({
    field,
    ...(fields.get(field) ? { label: fields.get(field)!.label } : {}),
    name: storedName,
    kind: documentKind(storedName),
    url: documentPath(prefix, raceId, id, storedName),
  }));
  return {
    id: record.id,
    raceId: record.raceId,
    status: record.status,
    name: maskName(record.name),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(record.submittedAt === null ? {} : { submittedAt: record.submittedAt }),
    ...(record.reviewedAt === null ? {} : { reviewedAt: record.reviewedAt }),
    ...(record.status === 3 && record.rejectReason !== null ? { rejectReason: record.rejectReason } : {}),
    values,
    documents,
  };
}

/**
 * The whole certificate and phone numbers of an application (permission entries.personal), the opening
 * recorded in the audit log (who, when, which application: never the numbers).
 */
export async function reviewPersonal(
  repos: Repositories,
  raceId: string,
  id: number,
  actor: AuditActor,
  now: number,
): Promise<Record<string, string> | undefined> {
  const found = await applicationOfRace(repos, raceId, id);
  if (!found) return undefined;
  const { record, form } = found;
  const whole: Record<string, string> = {};
  for (const field of form?.fields ?? []) {
    const value = record.values[field.key];
    if ((field.type === 'certificateNumber' || field.type === 'phone') && typeof value === 'string') {
      whole[field.key] = value;
    }
  }
  await appendAudit(repos, actor, { action: 'direct.personal', raceId, target: `direct-application ${id}` }, now);
  return whole;
}

/** What a stored file's first bytes say it is (only the kinds a reviewer is shown), or undefined. */
export function sniffedType(bytes: Buffer): string | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a')
    return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return undefined;
}

const EXPECTED_TYPE: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/**
 * A document of application `id` for its reviewer: only a file the application names and its runner uploaded.
 * Its type is what its bytes are when they match its name (an image or a PDF, shown inline), else it is a
 * download of unknown type (a renamed or disguised file is never shown as what its name says).
 */
export async function reviewDocument(
  deps: { repos: Repositories; files: FileStore },
  raceId: string,
  id: number,
  storedName: string,
): Promise<{ bytes: Buffer; contentType: string; inline: boolean; fileName: string } | undefined> {
  const found = await applicationOfRace(deps.repos, raceId, id);
  if (!found) return undefined;
  const { record, form } = found;
  if (!documentNames(form, record.values).some((d) => d.storedName === storedName)) return undefined;
  const upload = await deps.repos.uploads.findForUser(record.userId, storedName);
  if (!upload) return undefined;
  const bytes = await deps.files.get(uploadKey(`${UPLOAD_SUBDIR}/${storedName}`));
  if (bytes === undefined) return undefined;
  const sniffed = sniffedType(bytes);
  const matches = sniffed !== undefined && EXPECTED_TYPE[extensionOf(storedName)] === sniffed;
  return {
    bytes,
    contentType: matches ? sniffed : 'application/octet-stream',
    inline: matches,
    fileName: storedName,
  };
}
