/**
 * The console's mailing and letters pages (issue 32), for staff with `pickup` (owner, service), per race:
 * - the runners who chose race-pack mailing (counts, a page filtered by the parcel's state; phones masked unless
 *   the member has entries.personal), the list as .xlsx / .csv (in the audit log: it holds addresses), and the
 *   tracking-number import: a preview first (every bad row by its line, nothing written), then the import (the
 *   good rows written, runners messaged; in the audit log), as the CLI's mailing-export / mailing-import do;
 * - who has and has not signed the race's current commitment letter (filter by standing and item) and its
 *   export, as letters-status / letters-export.
 * Registered inside the console's session scope (routes/admin/index.ts), which checks the CSRF header of every
 * changing call. The same service functions as the CLI (services/after-entry/mailing.ts, letter.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RaceInfo } from '#contract/site-config/race-types';
import { roleCan } from '#contract/staff';
import { fail, ok } from '../../lib/envelope.ts';
import { exportLetters, lettersPage, type LettersQuery } from '../../services/after-entry/letter.ts';
import {
  checkTracking,
  exportMailing,
  importTracking,
  mailingPage,
  type MailingQuery,
} from '../../services/after-entry/mailing.ts';
import { isExportFormat } from '../../services/console/table-file.ts';
import { raceById } from '../../services/races.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

/** The largest tracking file the console takes: tens of thousands of rows. */
export const TRACKING_FILE_MAX_CHARS = 2 * 1024 * 1024;

const raceParams = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const pageProperty = { type: 'integer', minimum: 1, maximum: 100_000 } as const;
const mailingQuery = {
  type: 'object',
  properties: { state: { type: 'string', maxLength: 16 }, page: pageProperty },
} as const;
const lettersQuery = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 64 },
    standing: { type: 'string', maxLength: 16 },
    item: { type: 'string', maxLength: 64 },
    page: pageProperty,
  },
} as const;
const exportQuery = (properties: object) =>
  ({ type: 'object', properties: { format: { type: 'string', maxLength: 8 }, ...properties } }) as const;
const trackingBody = {
  type: 'object',
  required: ['content'],
  properties: {
    /** The CSV file's text (the page reads it as UTF-8). */
    content: { type: 'string', maxLength: TRACKING_FILE_MAX_CHARS },
    fileName: { type: 'string', maxLength: 200 },
  },
} as const;

type RaceRequest = { Params: { raceId: string } };

const download = (
  reply: FastifyReply,
  made: { fileName: string; contentType: string; bytes: string | Buffer; rows: number },
) =>
  reply
    .header('content-type', made.contentType)
    .header('content-disposition', `attachment; filename="${made.fileName}"`)
    .header('x-export-rows', String(made.rows))
    .send(made.bytes);

export function mailingRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, actor } = helpers;
  const now = () => app.config.now();
  const base = `${prefix}/races/:raceId`;

  /** The race when the member may use the page for it; else the refusal to answer. */
  const raceFor = async (request: FastifyRequest<RaceRequest>): Promise<RaceInfo | ReturnType<typeof fail>> => {
    const { raceId } = request.params;
    const no = helpers.refused(request, 'pickup', raceId);
    if (no) return no;
    return (await raceById(app.repos, raceId)) ?? fail(404, 'raceNotFound');
  };
  const isRace = (found: RaceInfo | ReturnType<typeof fail>): found is RaceInfo => 'raceId' in found;
  const wholePhones = (request: FastifyRequest) => roleCan(request.staff.staff.role, 'entries.personal');

  scope.get<RaceRequest & { Querystring: MailingQuery }>(
    `${base}/mailing`,
    { schema: { params: raceParams, querystring: mailingQuery } },
    async (request) => {
      const race = await raceFor(request);
      if (!isRace(race)) return race;
      const listed = await mailingPage(app.repos, race, request.query, wholePhones(request));
      return listed.ok ? ok(listed.answer) : fail(400, 'staffBadQuery', { field: listed.field });
    },
  );

  scope.get<RaceRequest & { Querystring: { format?: string } }>(
    `${base}/mailing/export`,
    { schema: { params: raceParams, querystring: exportQuery({}) } },
    async (request, reply) => {
      const race = await raceFor(request);
      if (!isRace(race)) return race;
      const format = request.query.format ?? 'xlsx';
      if (!isExportFormat(format)) return fail(400, 'staffBadQuery', { field: 'format' });
      const made = await exportMailing(
        app.repos,
        race,
        { format, wholePhones: wholePhones(request) },
        actor(request),
        now(),
      );
      return download(reply, made);
    },
  );

  // The tracking file: checked and shown first (nothing written), then imported.
  scope.post<RaceRequest & { Body: { content: string } }>(
    `${base}/mailing/tracking/preview`,
    { schema: { params: raceParams, body: trackingBody }, bodyLimit: TRACKING_FILE_MAX_CHARS * 4 + 4096 },
    async (request) => {
      const race = await raceFor(request);
      if (!isRace(race)) return race;
      const checked = await checkTracking(app.repos, race, request.body.content);
      if (!checked.ok) return fail(400, 'mailingFileUnreadable', { problem: checked.fileProblem });
      return ok({ rows: checked.rows.map(({ userId: _userId, ...row }) => row), problems: checked.problems });
    },
  );

  scope.post<RaceRequest & { Body: { content: string } }>(
    `${base}/mailing/tracking/import`,
    { schema: { params: raceParams, body: trackingBody }, bodyLimit: TRACKING_FILE_MAX_CHARS * 4 + 4096 },
    async (request) => {
      const race = await raceFor(request);
      if (!isRace(race)) return race;
      const outcome = await importTracking(app.repos, race, request.body.content, actor(request), now());
      if (outcome.fileProblem !== undefined)
        return fail(400, 'mailingFileUnreadable', { problem: outcome.fileProblem });
      return ok({ shipped: outcome.shipped, unchanged: outcome.unchanged, problems: outcome.problems });
    },
  );

  scope.get<RaceRequest & { Querystring: LettersQuery }>(
    `${base}/letters`,
    { schema: { params: raceParams, querystring: lettersQuery } },
    async (request) => {
      const race = await raceFor(request);
      if (!isRace(race)) return race;
      const listed = await lettersPage(app.repos, race, request.query, now());
      return listed.ok ? ok(listed.answer) : fail(400, 'staffBadQuery', { field: listed.field });
    },
  );

  scope.get<RaceRequest & { Querystring: LettersQuery & { format?: string } }>(
    `${base}/letters/export`,
    { schema: { params: raceParams, querystring: exportQuery(lettersQuery.properties) } },
    async (request, reply) => {
      const race = await raceFor(request);
      if (!isRace(race)) return race;
      const { format = 'xlsx', page: _page, ...query } = request.query;
      if (!isExportFormat(format)) return fail(400, 'staffBadQuery', { field: 'format' });
      const made = await exportLetters(app.repos, race, { format, query }, actor(request), now());
      return made.ok ? download(reply, made) : fail(400, 'staffBadQuery', { field: made.field });
    },
  );
}
