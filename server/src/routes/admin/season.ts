/**
 * The console's entry season (issue 32 §1), for the owner ('season'): the items × channels of a race with their
 * state under the one rule and the switches (the CLI's entry-open / entry-close, with --item and --channel), and
 * the invitation and direct-pass codes: issue, import (a preview first, every bad row by line, nothing written
 * while there is one), list with use, revoke, and download as .xlsx or .csv. The same services as the CLI; each
 * change and each download is in the audit log.
 */
import type { FastifyInstance } from 'fastify';
import {
  CONSOLE_CODES_PER_ISSUE_MAX,
  type CodesImportAnswer,
  type CodesIssueAnswer,
  type SeasonSwitchRequest,
} from '#contract/season';
import { fail, ok } from '../../lib/envelope.ts';
import { maskName } from '../../lib/race-center.ts';
import {
  CODE_NOTE_MAX,
  CODE_USES_MAX,
  expiry,
  importNamedCodes,
  issueCodes,
} from '../../services/organiser/invitation-codes.ts';
import { findItem, raceContext } from '../../services/organiser/race-items.ts';
import {
  codesFilterOf,
  codesPage,
  exportCodes,
  revokeCode,
  seasonOverview,
  type CodesQuery,
} from '../../services/organiser/season.ts';
import { setEntrySwitch } from '../../services/organiser/sign-up-switch.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

/** The largest code file the console takes (CSV text in JSON): 100,000 named rows fit well under it. */
export const CODES_FILE_MAX_CHARS = 16 * 1024 * 1024;

const raceParams = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const codeParams = {
  type: 'object',
  required: ['raceId', 'code'],
  properties: {
    raceId: { type: 'string', minLength: 1, maxLength: 64 },
    code: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;
const switchBody = {
  type: 'object',
  required: ['open'],
  properties: {
    open: { type: 'boolean' },
    itemCode: { type: 'string', minLength: 1, maxLength: 64 },
    channel: { type: 'string', minLength: 1, maxLength: 32 },
  },
} as const;
const codesQuery = {
  type: 'object',
  properties: {
    item: { type: 'string', maxLength: 64 },
    state: { type: 'string', maxLength: 16 },
    batch: { type: 'string', maxLength: 20 },
    page: { type: 'string', maxLength: 9 },
    pageSize: { type: 'string', maxLength: 4 },
    format: { type: 'string', maxLength: 8 },
  },
} as const;
const issueBody = {
  type: 'object',
  required: ['itemCode', 'count'],
  properties: {
    itemCode: { type: 'string', minLength: 1, maxLength: 64 },
    count: { type: 'integer' },
    uses: { type: 'integer' },
    expires: { type: 'string', maxLength: 40 },
    note: { type: 'string', maxLength: CODE_NOTE_MAX * 4 },
  },
} as const;
const importBody = {
  type: 'object',
  required: ['text', 'write'],
  properties: {
    text: { type: 'string', maxLength: CODES_FILE_MAX_CHARS },
    fileName: { type: 'string', maxLength: 200 },
    write: { type: 'boolean' },
  },
} as const;

const whole = (text: string | undefined, fallback: number) =>
  text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : fallback;

export function seasonRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, actor } = helpers;
  const now = () => app.config.now();
  const base = `${prefix}/races/:raceId/season`;
  type RaceRequest = { Params: { raceId: string } };

  scope.get<RaceRequest>(base, { schema: { params: raceParams } }, async (request) => {
    const { raceId } = request.params;
    const no = helpers.refused(request, 'season', raceId);
    if (no) return no;
    const view = await seasonOverview(app.repos, raceId, now());
    return view ? ok(view) : fail(404, 'raceNotFound');
  });

  scope.post<RaceRequest & { Body: SeasonSwitchRequest }>(
    `${base}/switch`,
    { schema: { params: raceParams, body: switchBody } },
    async (request) => {
      const { raceId } = request.params;
      const no = helpers.refused(request, 'season', raceId);
      if (no) return no;
      const { open, itemCode, channel } = request.body;
      const outcome = await setEntrySwitch(app.repos, {
        raceId,
        open,
        ...(itemCode === undefined ? {} : { item: itemCode }),
        ...(channel === undefined ? {} : { channel }),
        actor: actor(request),
        now: now(),
      });
      if (!outcome.ok) {
        if (outcome.reason === 'noItem') return fail(400, 'seasonItemUnknown', { item: itemCode ?? '' });
        if (outcome.reason === 'noChannel') return fail(400, 'seasonChannelUnknown', { channel: channel ?? '' });
        return fail(404, 'raceNotFound');
      }
      const view = await seasonOverview(app.repos, raceId, now());
      return ok({ changed: outcome.changed, season: view });
    },
  );

  scope.get<RaceRequest & { Querystring: CodesQuery }>(
    `${base}/codes`,
    { schema: { params: raceParams, querystring: codesQuery } },
    async (request) => {
      const { raceId } = request.params;
      const no = helpers.refused(request, 'season', raceId);
      if (no) return no;
      const parsed = codesFilterOf(request.query);
      if (!parsed.ok) return fail(400, 'staffBadQuery', { field: parsed.field });
      const page = await codesPage(
        app.repos,
        raceId,
        parsed.filter,
        { page: whole(request.query.page, 1), pageSize: whole(request.query.pageSize, 20) },
        now(),
      );
      return page ? ok(page) : fail(404, 'raceNotFound');
    },
  );

  scope.get<RaceRequest & { Querystring: CodesQuery & { format?: string } }>(
    `${base}/codes/export`,
    { schema: { params: raceParams, querystring: codesQuery } },
    async (request, reply) => {
      const { raceId } = request.params;
      const no = helpers.refused(request, 'season', raceId);
      if (no) return no;
      const made = await exportCodes(app.repos, raceId, request.query, actor(request), now());
      if (!made.ok)
        return 'reason' in made ? fail(404, 'raceNotFound') : fail(400, 'staffBadQuery', { field: made.field });
      return reply
        .header('content-type', made.contentType)
        .header('content-disposition', `attachment; filename="${made.fileName}"`)
        .header('x-export-rows', String(made.rows))
        .send(made.body);
    },
  );

  scope.post<
    RaceRequest & { Body: { itemCode: string; count: number; uses?: number; expires?: string; note?: string } }
  >(`${base}/codes/issue`, { schema: { params: raceParams, body: issueBody } }, async (request) => {
    const { raceId } = request.params;
    const no = helpers.refused(request, 'season', raceId);
    if (no) return no;
    const { itemCode, count, uses = 1, note = '' } = request.body;
    const expires = request.body.expires?.trim() || undefined;
    if (!Number.isInteger(count) || count < 1 || count > CONSOLE_CODES_PER_ISSUE_MAX)
      return fail(400, 'seasonCountInvalid', { max: CONSOLE_CODES_PER_ISSUE_MAX });
    if (!Number.isInteger(uses) || uses < 1 || uses > CODE_USES_MAX)
      return fail(400, 'seasonUsesInvalid', { max: CODE_USES_MAX });
    if (note.trim().length > CODE_NOTE_MAX) return fail(400, 'seasonNoteTooLong', { max: CODE_NOTE_MAX });
    const context = await raceContext(app.repos, raceId);
    if (!context) return fail(404, 'raceNotFound');
    if (!findItem(context, itemCode)) return fail(400, 'seasonItemUnknown', { item: itemCode });
    if (expires !== undefined && 'problem' in expiry(expires, context.zone, now()))
      return fail(400, 'seasonExpiryInvalid');
    const at = now();
    let issued: Awaited<ReturnType<typeof issueCodes>>;
    try {
      issued = await issueCodes(app.repos, {
        raceId,
        item: itemCode,
        count,
        uses,
        ...(expires === undefined ? {} : { expires }),
        note,
        now: at,
        actor: actor(request),
      });
    } catch {
      // A code drawn meanwhile by another issue: the transaction kept nothing.
      return fail(409, 'seasonIssueRetry');
    }
    if (!issued.ok) return fail(409, 'seasonIssueRetry');
    const answer: CodesIssueAnswer = { itemCode: issued.itemCode, count: issued.codes.length, batch: at };
    return ok(answer);
  });

  scope.post<RaceRequest & { Body: { text: string; fileName?: string; write: boolean } }>(
    `${base}/codes/import`,
    { schema: { params: raceParams, body: importBody }, bodyLimit: CODES_FILE_MAX_CHARS * 2 + 4096 },
    async (request) => {
      const { raceId } = request.params;
      const no = helpers.refused(request, 'season', raceId);
      if (no) return no;
      const { text, write } = request.body;
      const source = (request.body.fileName ?? '').replace(/[^\w.\- ]/g, '').slice(0, 100) || 'console upload';
      let outcome: Awaited<ReturnType<typeof importNamedCodes>>;
      try {
        outcome = await importNamedCodes(app.repos, {
          raceId,
          text,
          source,
          now: now(),
          write,
          ...(write ? { actor: actor(request) } : {}),
        });
      } catch {
        return fail(409, 'seasonIssueRetry');
      }
      if (!outcome.ok) {
        if ('noRace' in outcome) return fail(404, 'raceNotFound');
        if (write) return fail(400, 'seasonImportInvalid', { count: outcome.problems.length });
        const preview: CodesImportAnswer = { written: false, problems: outcome.problems, imported: [], skipped: [] };
        return ok(preview);
      }
      const answer: CodesImportAnswer = {
        written: write,
        problems: [],
        imported: outcome.imported.map((row) => ({ ...row, name: maskName(row.name) })),
        skipped: outcome.skipped.map((row) => ({
          line: row.line,
          existing: row.existing,
          itemCode: row.itemCode,
          name: maskName(row.name),
        })),
      };
      return ok(answer);
    },
  );

  scope.post<{ Params: { raceId: string; code: string } }>(
    `${base}/codes/:code/revoke`,
    { schema: { params: codeParams } },
    async (request) => {
      const { raceId, code } = request.params;
      const no = helpers.refused(request, 'season', raceId);
      if (no) return no;
      const outcome = await revokeCode(app.repos, { raceId, code, actor: actor(request), now: now() });
      if (!outcome.ok) {
        return outcome.reason === 'noRace' ? fail(404, 'raceNotFound') : fail(404, 'seasonCodeMissing', { code });
      }
      return ok({ changed: outcome.changed });
    },
  );
}
