/**
 * /post and /upload (issue 13 §4), both need login: the race-pack mailing choice (mailingGet, mailingSave:
 * mail needs a name, a mainland mobile, a region down to the district and an address; refused when the race
 * offers no mailing or after its deadline, or once the parcel was shipped; the phone stored encrypted, answered
 * masked; with the parcel's state, issue 15 §5) and the documents a
 * runner hands in (documentsGet, documentsSave: the upload value checked against the race's limits and the
 * runner's own uploads, lib/upload-value.ts). Settings: race.json `packMailing`, `documentUpload`.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { Refusal } from '#contract/messages';
import { checkRegionValue } from '#contract/region-data';
import {
  deadlineState,
  MAILING_METHODS,
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
import type { MailingRecord } from '../../db/runner-choices-repository.ts';
import { fail, ok } from '../../lib/envelope.ts';
import { maskMobile, normalizeName } from '../../lib/race-center.ts';
import { parcelView } from '../../services/after-entry/mailing.ts';
import { pickupBookingsOf, slotText } from '../../services/after-entry/pickup.ts';
import { checkUploadValue } from '../../lib/upload-value.ts';
import { loggedInUser, raceIdQuery, raceIdSchema, refuseFields } from './screen-common.ts';

const mailingBody = {
  type: 'object',
  required: ['raceId', 'method'],
  properties: {
    raceId: raceIdSchema,
    method: { type: 'string', enum: [...MAILING_METHODS] },
    name: { type: 'string', maxLength: 50 },
    phone: { type: 'string', maxLength: 20 },
    region: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 12 } },
    address: { type: 'string', maxLength: 200 },
  },
} as const;

const documentsBody = {
  type: 'object',
  required: ['raceId', 'files'],
  properties: { raceId: raceIdSchema, files: { type: 'string', maxLength: 20_000 } },
} as const;

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

export default async function packAndDocumentRoutes(app: FastifyInstance) {
  const { repos } = app;

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.mailingGet,
    { schema: { querystring: raceIdQuery } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const race = await repos.races.findById(request.query.raceId);
      if (!race) return fail(404, 'raceNotFound');
      const choice = await repos.runnerChoices.mailing(race.raceId, user.id);
      const parcel = choice ? parcelView(choice) : undefined;
      const pickupBookings = await pickupBookingsOf(repos, race, user.id);
      const answer: MailingAnswer = {
        settings: mailingSettings(race, app.config.now()),
        ...(choice ? { choice: choiceAnswer(choice) } : {}),
        ...(parcel ? { parcel } : {}),
        ...(pickupBookings.length ? { pickupBookings } : {}),
      };
      return ok(answer);
    },
  );

  app.post<{ Body: MailingSaveRequest }>(
    API_PATHS.mailingSave,
    { schema: { body: mailingBody } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const body = request.body;
      const race = await repos.races.findById(body.raceId);
      if (!race) return fail(404, 'raceNotFound');
      const now = app.config.now();
      const state = mailingSettings(race, now).state;
      if (state !== 'open') return fail(400, state === 'closed' ? 'mailingClosed' : 'mailingEnded');
      // A shipped parcel's address is what the courier has: no change after that (issue 15 §5).
      const stored = await repos.runnerChoices.mailing(race.raceId, user.id);
      if (stored?.shipment) return fail(400, 'parcelShipped');
      const record: MailingRecord = {
        raceId: race.raceId,
        userId: user.id,
        method: body.method,
        name: '',
        phone: '',
        region: [],
        address: '',
        updatedAt: now,
      };
      if (body.method === 'mail') {
        // Mailed OR collected: a runner with a pick-up booking cancels it first (/my/pickup).
        const [booked] = await pickupBookingsOf(repos, race, user.id);
        if (booked)
          return fail(409, 'mailingPickupBooked', { slot: booked.slot ? slotText(booked.slot) : booked.slotId });
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
        if (Object.keys(refusals).length > 0) return refuseFields(refusals);
        Object.assign(record, { name, phone, region: body.region, address });
      }
      // Shipped meanwhile (the organiser's import): the save changes nothing.
      if (!(await repos.runnerChoices.saveMailing(record))) return fail(400, 'parcelShipped');
      return ok(choiceAnswer(record));
    },
  );

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.documentsGet,
    { schema: { querystring: raceIdQuery } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const race = await repos.races.findById(request.query.raceId);
      if (!race) return fail(404, 'raceNotFound');
      const saved = await repos.runnerChoices.documents(race.raceId, user.id);
      const answer: DocumentsAnswer = {
        settings: documentSettings(race, app.config.now()),
        files: saved?.files ?? '',
        ...(saved ? { updatedAt: saved.updatedAt } : {}),
      };
      return ok(answer);
    },
  );

  app.post<{ Body: DocumentsSaveRequest }>(
    API_PATHS.documentsSave,
    { schema: { body: documentsBody } },
    async (request, reply) => {
      const user = await loggedInUser(app, request, reply);
      if (!user) return fail(401, 'loginExpired');
      const race = await repos.races.findById(request.body.raceId);
      if (!race) return fail(404, 'raceNotFound');
      const now = app.config.now();
      const settings = documentSettings(race, now);
      if (settings.state !== 'open') {
        return fail(400, settings.state === 'closed' ? 'documentsClosed' : 'documentsEnded');
      }
      const refusal = await checkUploadValue(
        request.body.files,
        { kind: 'file', maxSize: settings.maxSize, maxCount: settings.maxCount },
        { userId: user.id, uploads: repos.uploads, files: app.files },
      );
      if (refusal) return refuseFields({ files: refusal });
      const files = joinUploadValue(splitUploadValue(request.body.files));
      await repos.runnerChoices.saveDocuments(race.raceId, user.id, files, now);
      return ok({ files, updatedAt: now });
    },
  );
}
