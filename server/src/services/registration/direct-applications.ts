/**
 * Direct-pass qualification applications (issue 13 §4 /direct): the runner's application for a race, checked
 * against the race's published `direct` form with the same rules as the SPA (check-submission.ts), the
 * runner's own uploads and results, and the clothing sizes left. A draft (status 0) is checked only where it
 * is filled; a submission (status 1) whole, and then, under the race's lock, once more against the stock and
 * the certificate numbers already submitted, so parallel submissions never oversell a size nor submit one
 * certificate number twice. Submitted (1) and approved (2) applications are final; a rejected one (3) may be
 * corrected and submitted again. The organiser reviews with the CLI or the console (reviewApplication()).
 */
import {
  cleanSubmission,
  READ_ONLY_FIELD_TYPES,
  visibleFields,
  type FormField,
  type RegistrationForm,
  type SubmissionValues,
} from '#contract/registration-form';
import type { MessageCode, Refusal } from '#contract/messages';
import {
  DIRECT_FORM_CHANNEL,
  windowState,
  type DirectApplication,
  type DirectMineAnswer,
  type DirectStatus,
} from '#contract/registration-screens';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import { sizeKey, type DirectApplicationRecord } from '../../db/direct-applications-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { FileStore } from '../../lib/file-store.ts';
import { tellRunner } from '../entry/entry-messages.ts';
import { maskPersonalData } from '../../lib/accounts.ts';
import { maskCertNo, maskMobile, normalizeName } from '../../lib/race-center.ts';
import { checkRegistrationSubmission } from './check-submission.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { ownResults } from './own-results.ts';

export interface DirectDeps {
  repos: Repositories;
  files: FileStore;
  now: () => number;
}

/** A refusal of the whole call (its message code), or the refusals by field. */
export type DirectRefusal =
  { kind: 'call'; status: number; code: MessageCode } | { kind: 'fields'; fields: Record<string, Refusal> };

const callRefusal = (status: number, code: MessageCode): DirectRefusal => ({ kind: 'call', status, code });

/** The personal-number fields of a form and how each is masked. */
function personalMasks(form: RegistrationForm | undefined): Map<string, (value: string) => string> {
  const masks = new Map<string, (value: string) => string>();
  for (const field of form?.fields ?? []) {
    if (field.type === 'certificateNumber') masks.set(field.key, maskCertNo);
    if (field.type === 'phone') masks.set(field.key, maskMobile);
  }
  return masks;
}

/** The values as answered: certificate numbers and phones masked (without a form, anything that looks like one). */
export function maskValues(
  form: RegistrationForm | undefined,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const masks = personalMasks(form);
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      const mask = masks.get(key);
      if (mask && typeof value === 'string') return [key, mask(value)];
      return [key, form || typeof value !== 'string' ? value : maskPersonalData(value)];
    }),
  );
}

/**
 * The values a save means: a personal number sent back exactly as it was answered (masked) stands for the
 * stored one, so a runner who edits another field of a draft need not type their certificate number again.
 */
function unmaskEcho(form: RegistrationForm, sent: SubmissionValues, stored: Record<string, unknown>) {
  const values: Record<string, unknown> = { ...sent };
  for (const [key, mask] of personalMasks(form)) {
    const kept = stored[key];
    if (
      typeof kept === 'string' &&
      typeof values[key] === 'string' &&
      values[key] === mask(kept) &&
      values[key] !== kept
    ) {
      values[key] = kept;
    }
  }
  return values;
}

const firstOfType = (form: RegistrationForm, type: FormField['type']) => form.fields.find((f) => f.type === type);

/** The certificate number of the values (the form's first certificateNumber field), trimmed, or ''. */
function certificateOf(form: RegistrationForm, values: Record<string, unknown>): { key?: string; number: string } {
  const field = firstOfType(form, 'certificateNumber');
  const value = field ? values[field.key] : undefined;
  return { key: field?.key, number: typeof value === 'string' ? value.trim() : '' };
}

const nameOf = (values: Record<string, unknown>) => (typeof values.name === 'string' ? normalizeName(values.name) : '');

/** The clothing sizes chosen in the visible clothingSize fields: field key → size code. */
function chosenSizes(form: RegistrationForm, values: Record<string, unknown>): Record<string, string> {
  const sizes: Record<string, string> = {};
  for (const field of visibleFields(form, values)) {
    const value = values[field.key];
    if (field.type === 'clothingSize' && typeof value === 'string') sizes[field.key] = value;
  }
  return sizes;
}

/** The application as answered to its runner. */
export function applicationAnswer(
  record: DirectApplicationRecord,
  form: RegistrationForm | undefined,
): DirectApplication {
  return {
    id: record.id,
    status: record.status,
    values: maskValues(form, record.values),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(record.submittedAt === null ? {} : { submittedAt: record.submittedAt }),
    ...(record.reviewedAt === null ? {} : { reviewedAt: record.reviewedAt }),
    ...(record.status === 3 && record.rejectReason !== null ? { rejectReason: record.rejectReason } : {}),
  };
}

export function createDirectApplications({ repos, files, now }: DirectDeps) {
  const formOf = async (raceId: string) => (await repos.registrationForms.latest(raceId, DIRECT_FORM_CHANNEL))?.form;
  const windowOf = (race: RaceInfo) => {
    const settings = race.directApplication;
    return {
      startTime: settings?.startTime ?? '',
      endTime: settings?.endTime ?? '',
      state: windowState(settings, now(), raceTimeZone(race)),
    };
  };

  /** The size stock check of the contract, with the pieces already taken in the race. */
  const sizeLeftFrom = (taken: Map<string, number>) => (fieldKey: string, size: { code: string; stock?: number }) =>
    size.stock === undefined ? undefined : size.stock - (taken.get(sizeKey(fieldKey, size.code)) ?? 0);

  return {
    /** What /direct shows: the window and the runner's application. Undefined: no such race. */
    async mine(raceId: string, userId: number): Promise<DirectMineAnswer | undefined> {
      const race = await repos.races.findById(raceId);
      if (!race) return undefined;
      const record = await repos.directApplications.findForUser(raceId, userId);
      return {
        window: windowOf(race),
        ...(record ? { application: applicationAnswer(record, await formOf(raceId)) } : {}),
        formChannel: DIRECT_FORM_CHANNEL,
      };
    },

    /** Sizes with a stock of a form's clothingSize field: pieces left (counted over submitted direct applications). */
    async sizesLeft(
      raceId: string,
      channel: string,
      fieldKey: string,
    ): Promise<Record<string, number> | 'noForm' | 'noField'> {
      const published = await repos.registrationForms.latest(raceId, channel);
      if (!published) return 'noForm';
      const field = published.form.fields.find((f) => f.key === fieldKey);
      if (field?.type !== 'clothingSize') return 'noField';
      // Only the direct channel takes stock in this issue; registrations will count for the others (#14).
      const taken =
        channel === DIRECT_FORM_CHANNEL ? await repos.directApplications.sizesTaken(raceId) : new Map<string, number>();
      const left = sizeLeftFrom(taken);
      const answer: Record<string, number> = {};
      for (const size of field.sizes) {
        const n = left(field.key, size);
        if (n !== undefined) answer[size.code] = Math.max(0, n);
      }
      return answer;
    },

    /** Saves the runner's draft (submit false) or submission (submit true). */
    async save(
      raceId: string,
      userId: number,
      sent: SubmissionValues,
      submit: boolean,
    ): Promise<{ ok: true; application: DirectApplication } | { ok: false; refusal: DirectRefusal }> {
      const refused = (refusal: DirectRefusal) => ({ ok: false as const, refusal });
      const race = await repos.races.findById(raceId);
      if (!race) return refused(callRefusal(404, 'raceNotFound'));
      const state = windowOf(race).state;
      if (state !== 'open') return refused(callRefusal(400, state === 'notYet' ? 'directNotOpen' : 'directEnded'));
      const form = await formOf(raceId);
      if (!form) return refused(callRefusal(404, 'registrationFormMissing'));
      const existing = await repos.directApplications.findForUser(raceId, userId);
      const locked = (status: DirectStatus | undefined) =>
        status === 1 ? callRefusal(400, 'directSubmitted') : status === 2 ? callRefusal(400, 'directApproved') : null;
      const lockedNow = locked(existing?.status);
      if (lockedNow) return refused(lockedNow);

      const values = unmaskEcho(form, sent, existing?.values ?? {});
      const certificate = certificateOf(form, values);
      const own = new Set(
        (await ownResults(repos, { name: nameOf(values), certificateNumber: certificate.number }, raceId)).map(
          (r) => r.resultId,
        ),
      );
      const ownResult = (id: string) => own.has(id);
      const checked = await checkRegistrationSubmission(form, values, {
        ownResult,
        sizeLeft: sizeLeftFrom(await repos.directApplications.sizesTaken(raceId)),
        uploads: { userId, uploads: repos.uploads, files },
      });
      let refusals = checked.ok ? {} : checked.refusals;
      if (!submit) {
        // A draft: only what is filled is checked (a value given to a read-only field is never filled in).
        const filled = new Set(Object.keys(cleanSubmission(form, values)));
        const readOnly = new Set(form.fields.filter((f) => READ_ONLY_FIELD_TYPES.includes(f.type)).map((f) => f.key));
        refusals = Object.fromEntries(
          Object.entries(refusals).filter(
            ([key]) => filled.has(key) || (readOnly.has(key) && values[key] !== undefined),
          ),
        );
      }
      if (Object.keys(refusals).length > 0) return refused({ kind: 'fields', fields: refusals });
      const kept = cleanSubmission(form, values);

      return repos.transaction(async (tx) => {
        await tx.db.lock(`direct-applications:${raceId}`);
        const current = await tx.directApplications.findForUser(raceId, userId);
        const lockedThen = locked(current?.status);
        if (lockedThen) return refused(lockedThen);
        let certHash = current?.status === 3 ? current.certHash : null;
        if (submit) {
          certHash = tx.raceCenter.certHash(certificate.number);
          const holder = await tx.directApplications.findByCert(raceId, certHash);
          if (holder && holder.userId !== userId) {
            return refused({
              kind: 'fields',
              fields: { [certificate.key ?? 'certificateNumber']: { code: 'directCertificateUsed' } },
            });
          }
          // The stock again, now that no other submission of this race can run: the contract's size rule.
          const again = await checkRegistrationSubmission(form, kept, {
            ownResult,
            sizeLeft: sizeLeftFrom(await tx.directApplications.sizesTaken(raceId)),
          });
          if (!again.ok) return refused({ kind: 'fields', fields: again.refusals });
        }
        const at = now();
        const id = await tx.directApplications.save({
          raceId,
          userId,
          status: submit ? 1 : current?.status === 3 ? 3 : 0,
          name: nameOf(kept),
          certHash,
          values: kept,
          sizes: chosenSizes(form, kept),
          submittedAt: submit ? at : (current?.submittedAt ?? null),
          now: at,
        });
        const saved = await tx.directApplications.findById(id);
        return { ok: true as const, application: applicationAnswer(saved!, form) };
      });
    },
  };
}

export type DirectApplications = ReturnType<typeof createDirectApplications>;

/** Why a review was refused: no such application, not awaiting review (its status now), changed since read. */
export type ReviewRefusal =
  { reason: 'missing' } | { reason: 'notAwaiting'; status: DirectStatus } | { reason: 'changed' };

/**
 * The organiser's review of submitted application `id` (the CLI's direct-approve / direct-reject, the console's
 * review page), in one transaction with the runner's message when approved (entry-messages.ts, sent once per
 * application) and its audit record (direct.approve / direct.reject). Refused when it is not awaiting review
 * (status 1), or when `expectedUpdatedAt` is given and the application changed since (the reviewer read an
 * older one): then nothing is changed.
 */
export async function reviewApplication(
  repos: Repositories,
  id: number,
  outcome: { status: 2 } | { status: 3; reason: string },
  now: number,
  by: { actor: AuditActor; expectedUpdatedAt?: number },
): Promise<{ ok: true; record: DirectApplicationRecord } | ({ ok: false } & ReviewRefusal)> {
  const found = await repos.directApplications.findById(id);
  if (!found) return { ok: false, reason: 'missing' };
  return repos.transaction(async (tx) => {
    // The runner's own saves take this lock too: what is read here is what is reviewed.
    await tx.db.lock(`direct-applications:${found.raceId}`);
    const current = await tx.directApplications.findById(id);
    if (!current) return { ok: false as const, reason: 'missing' as const };
    if (current.status !== 1) return { ok: false as const, reason: 'notAwaiting' as const, status: current.status };
    if (by.expectedUpdatedAt !== undefined && current.updatedAt !== by.expectedUpdatedAt) {
      return { ok: false as const, reason: 'changed' as const };
    }
    if (!(await tx.directApplications.review(id, outcome, now))) {
      return { ok: false as const, reason: 'notAwaiting' as const, status: current.status };
    }
    const record = (await tx.directApplications.findById(id))!;
    if (outcome.status === 2) {
      const event = { kind: 'directApproved', name: record.name } as const;
      await tellRunner(tx, record.raceId, record.userId, `direct-approved:${id}`, event, now);
    }
    await appendAudit(
      tx,
      by.actor,
      {
        action: outcome.status === 2 ? 'direct.approve' : 'direct.reject',
        raceId: record.raceId,
        target: `direct-application ${id}`,
        before: { status: current.status },
        after: outcome.status === 2 ? { status: 2 } : { status: 3, reason: outcome.reason },
      },
      now,
    );
    return { ok: true as const, record };
  });
}

/** The organiser's list of a race's applications (the CLI's direct-list), with the race; undefined: no such race. */
export async function directApplicationsOf(
  repos: Repositories,
  raceId: string,
  status?: DirectStatus,
): Promise<{ race: RaceInfo; applications: DirectApplicationRecord[] } | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  return { race, applications: await repos.directApplications.list(raceId, status) };
}

/** Application `id`, or undefined. */
export const directApplicationById = (repos: Repositories, id: number): Promise<DirectApplicationRecord | undefined> =>
  repos.directApplications.findById(id);

/**
 * Application `id` as the organiser reviews it (the CLI's direct-show): with its race (undefined when it is
 * gone) and the race's published direct form, which names and masks its values.
 */
export async function directApplicationForReview(
  repos: Repositories,
  id: number,
): Promise<
  { record: DirectApplicationRecord; race: RaceInfo | undefined; form: RegistrationForm | undefined } | undefined
> {
  const record = await repos.directApplications.findById(id);
  if (!record) return undefined;
  const race = await repos.races.findById(record.raceId);
  const form = (await repos.registrationForms.latest(record.raceId, DIRECT_FORM_CHANNEL))?.form;
  return { record, race, form };
}
