/**
 * The race-pack mailing choice and the documents a runner hands in (issue 13 §4 /post and /upload; issue 15
 * §5 the parcel): what each answers and the rules of a save. Mail needs a name, a mainland mobile, a region
 * down to the district and an address; refused when the race offers no mailing or after its deadline, or once
 * the parcel was shipped; the phone stored encrypted, answered masked. Documents: the upload value checked
 * against the race's limits and the runner's own uploads (lib/upload-value.ts). Settings: race.json
 * `packMailing`, `documentUpload`. The routes: routes/registration/pack-and-documents.ts.
 */
import type { MessageCode, Refusal } from '#contract/messages';
import { checkRegionValue } from '#contract/region-data';
import {
  deadlineState,
  type DocumentsAnswer,
  type DocumentsSaveRequest,
  type MailingAnswer,
  type MailingChoice,
  type MailingSaveRequest,
} from '#contract/registration-screens';
import { checkName, checkPhone, checkRequiredText } from '#contract/rules';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import { joinUploadValue, splitUploadValue } from '#contract/upload-value';
import type { Repositories } from '../../db/repositories.ts';
import type { MailingRecord } from '../../db/runner-choices-repository.ts';
import type { FileStore } from '../../lib/file-store.ts';
import { maskMobile, normalizeName } from '../../lib/race-center.ts';
import { checkUploadValue } from '../../lib/upload-value.ts';
import { parcelView } from '../after-entry/mailing.ts';
import { pickupBookingsOf, slotText } from '../after-entry/pickup.ts';

/** A save's outcome: its answer, a refusal (envelope code and message) or field refusals. */
export type ChoiceOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; code: MessageCode; params?: Record<string, string> }
  | { ok: false; fields: Record<string, Refusal> };

const refuse = (status: number, code: MessageCode, params?: Record<string, string>) => ({
  ok: false as const,
  status,
  code,
  ...(params ? { params } : {}),
});

const NO_TEXT = { zh: '', en: '' };

function mailingSettings(race: RaceInfo, now: number): MailingAnswer['settings'] {
  const settings = race.packMailing;
  return {
    enabled: settings?.enabled ?? false,
    deadline: settings?.deadline ?? '',
    notice: settings?.notice ?? NO_TEXT,
    state: deadlineState(settings, now, raceTimeZone(race)),
  };
}

function documentSettings(race: RaceInfo, now: number): DocumentsAnswer['settings'] {
  const settings = race.documentUpload;
  return {
    enabled: settings?.enabled ?? false,
    ...(settings?.deadline === undefined ? {} : { deadline: settings.deadline }),
    maxSize: settings?.maxSize ?? { size: 0, unit: 'MB' },
    maxCount: settings?.maxCount ?? 0,
    note: settings?.note ?? NO_TEXT,
    state: deadlineState(settings, now, raceTimeZone(race)),
  };
}

const choiceAnswer = (record: MailingRecord): MailingChoice => ({
  method: record.method,
  name: record.name,
  phone: record.phone === '' ? '' : maskMobile(record.phone),
  region: record.region as MailingChoice['region'],
  address: record.address,
  updatedAt: record.updatedAt,
});

/** The race's mailing settings and the runner's choice (with its parcel); undefined when there is no race. */
export async function mailingAnswer(
  repos: Repositories,
  raceId: string,
  userId: number,
  now: number,
): Promise<MailingAnswer | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  const choice = await repos.runnerChoices.mailing(race.raceId, userId);
  const parcel = choice ? parcelView(choice) : undefined;
  const pickupBookings = await pickupBookingsOf(repos, race, userId);
  return {
    settings: mailingSettings(race, now),
    ...(choice ? { choice: choiceAnswer(choice) } : {}),
    ...(parcel ? { parcel } : {}),
    ...(pickupBookings.length ? { pickupBookings } : {}),
  };
}

/** Saves the runner's mailing choice by the race's rules. */
export async function saveMailingChoice(
  repos: Repositories,
  userId: number,
  body: MailingSaveRequest,
  now: number,
): Promise<ChoiceOutcome<MailingChoice>> {
  const race = await repos.races.findById(body.raceId);
  if (!race) return refuse(404, 'raceNotFound');
  const state = mailingSettings(race, now).state;
  if (state !== 'open') return refuse(400, state === 'closed' ? 'mailingClosed' : 'mailingEnded');
  // A shipped parcel's address is what the courier has: no change after that (issue 15 §5).
  const stored = await repos.runnerChoices.mailing(race.raceId, userId);
  if (stored?.shipment) return refuse(400, 'parcelShipped');
  const record: MailingRecord = {
    raceId: race.raceId,
    userId,
    method: body.method,
    name: '',
    phone: '',
    region: [],
    address: '',
    updatedAt: now,
  };
  if (body.method === 'mail') {
    // Mailed OR collected: a runner with a pick-up booking cancels it first (/my/pickup).
    const [booked] = await pickupBookingsOf(repos, race, userId);
    if (booked)
      return refuse(409, 'mailingPickupBooked', { slot: booked.slot ? slotText(booked.slot) : booked.slotId });
    const name = normalizeName(body.name ?? '');
    let phone = body.phone?.trim() ?? '';
    // The masked phone sent back as it was answered stands for the stored one.
    if (stored?.phone && phone === maskMobile(stored.phone)) phone = stored.phone;
    const address = body.address?.trim() ?? '';
    const refusals: Record<string, Refusal> = {};
    const checks: [string, Refusal | null][] = [
      ['name', checkName(name)],
      ['phone', checkPhone(phone, { strict: true })],
      ['region', checkRegionValue(body.region)],
      ['address', checkRequiredText(address, { required: 'addressRequired', invalid: 'textInvalid' })],
    ];
    for (const [key, refusal] of checks) if (refusal) refusals[key] = refusal;
    if (Object.keys(refusals).length > 0) return { ok: false, fields: refusals };
    Object.assign(record, { name, phone, region: body.region, address });
  }
  // Shipped meanwhile (the organiser's import): the save changes nothing.
  if (!(await repos.runnerChoices.saveMailing(record))) return refuse(400, 'parcelShipped');
  return { ok: true, value: choiceAnswer(record) };
}

/** The race's document settings and the runner's saved files; undefined when there is no race. */
export async function documentsAnswer(
  repos: Repositories,
  raceId: string,
  userId: number,
  now: number,
): Promise<DocumentsAnswer | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  const saved = await repos.runnerChoices.documents(race.raceId, userId);
  return {
    settings: documentSettings(race, now),
    files: saved?.files ?? '',
    ...(saved ? { updatedAt: saved.updatedAt } : {}),
  };
}

/** Saves the documents a runner hands in, checked against the race's limits and the runner's own uploads. */
export async function saveDocuments(
  deps: { repos: Repositories; files: FileStore },
  userId: number,
  body: DocumentsSaveRequest,
  now: number,
): Promise<ChoiceOutcome<{ files: string; updatedAt: number }>> {
  const { repos } = deps;
  const race = await repos.races.findById(body.raceId);
  if (!race) return refuse(404, 'raceNotFound');
  const settings = documentSettings(race, now);
  if (settings.state !== 'open') {
    return refuse(400, settings.state === 'closed' ? 'documentsClosed' : 'documentsEnded');
  }
  const refusal = await checkUploadValue(
    body.files,
    { kind: 'file', maxSize: settings.maxSize, maxCount: settings.maxCount },
    { userId, uploads: repos.uploads, files: deps.files },
  );
  if (refusal) return { ok: false, fields: { files: refusal } };
  const files = joinUploadValue(splitUploadValue(body.files));
  await repos.runnerChoices.saveDocuments(race.raceId, userId, files, now);
  return { ok: true, value: { files, updatedAt: now } };
}
