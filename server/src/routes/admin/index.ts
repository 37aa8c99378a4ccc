/**
 * The organiser console's calls (issue 30), under /api/admin/. Staff sign in with e-mail, password and, for
 * owners and finance, a TOTP code (services/staff/sessions.ts); the session travels in an HttpOnly,
 * SameSite=Strict cookie limited to /api/admin/, and every changing call must also send the session's CSRF
 * token in the `x-csrf-token` header (no cookie-only authentication). Every answer is `no-store`. Each call
 * names the permission it needs (contract/staff.ts): the server refuses what a role may not do, the console
 * only hides it. A member limited to some races is refused the others. Until the one-time password is changed
 * (and, for owners and finance, the second factor set up) only those steps are allowed.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_API_PREFIX, CSRF_HEADER, roleCan, rolePermissions, type StaffPermission } from '#contract/staff';
import { fail, ok } from '../../lib/envelope.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { requireSession } from '../../plugins/sessions.ts';
import { formatCsv } from '../../lib/csv.ts';
import {
  auditActions,
  auditFilterOf,
  auditPage,
  exportAudit,
  verifyAuditChain,
  type AuditQuery,
} from '../../services/staff/audit.ts';
import { dashboardCache } from '../../services/console/dashboard.ts';
import { exportEntries, type EntryExportQuery } from '../../services/console/entry-export.ts';
import { listEntries } from '../../services/console/entry-search.ts';
import { entryDetail, entryPersonal } from '../../services/console/entry-detail.ts';
import {
  cancelEntry,
  editEntryAnswers,
  recordOfflinePayment,
  refundByOrganiser,
  setEntryBib,
  transferEntry,
  type EntryActionOutcome,
} from '../../services/console/entry-actions.ts';
import {
  changeOwnPassword,
  confirmSecondFactor,
  csrfFor,
  csrfMatches,
  currentStaff,
  ownSessions,
  proposeSecondFactor,
  revokeOtherSessions,
  revokeOwnSession,
  revokeStaffSessions,
  staffLogin,
  staffLogout,
  staffSessions,
  type CurrentStaff,
} from '../../services/staff/sessions.ts';
import {
  addStaff,
  changeStaff,
  listStaff,
  removeStaff,
  resetStaffPassword,
  staffView,
} from '../../services/staff/staff.ts';
import { consoleRaces } from '../../services/console/races.ts';
import { reconciliationRoutes } from './reconciliation.ts';
import { siteRoutes } from './site.ts';
import { formsRoutes } from './forms.ts';
import { reviewRoutes } from './review.ts';
import { importsRoutes } from './imports.ts';
import { refundsRoutes } from './refunds.ts';
import { seasonRoutes } from './season.ts';
import { ballotRoutes } from './ballot.ts';
import { mailingRoutes } from './mailing.ts';
import { messagesRoutes } from './messages.ts';
import { pickupRoutes } from './pickup.ts';
import { assetsRoutes } from './assets.ts';
import { racesRoutes } from './races.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

export const ADMIN_PREFIX = ADMIN_API_PREFIX;
export { CSRF_HEADER };
export const STAFF_COOKIE = 'race_site_staff';

/** The session cookie's value in a request, or ''. */
function sessionToken(request: FastifyRequest): string {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === STAFF_COOKIE) return value.join('=');
  }
  return '';
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number) {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  void reply.header(
    'set-cookie',
    `${STAFF_COOKIE}=${token}; Path=${ADMIN_PREFIX}/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`,
  );
}

const me = (current: CurrentStaff, token: string, now: number) => ({
  staff: staffView(current.staff, now),
  permissions: rolePermissions(current.staff.role),
  pending: current.pending,
  csrf: csrfFor(token),
});

const loginBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', maxLength: 254 },
    password: { type: 'string', maxLength: 256 },
    totp: { type: 'string', maxLength: 12 },
  },
} as const;
const passwordBody = {
  type: 'object',
  required: ['oldPassword', 'newPassword'],
  properties: { oldPassword: { type: 'string', maxLength: 256 }, newPassword: { type: 'string', maxLength: 256 } },
} as const;
const totpBody = {
  type: 'object',
  required: ['secret', 'code'],
  properties: {
    secret: { type: 'string', maxLength: 64 },
    code: { type: 'string', maxLength: 12 },
    // Replacing a second factor already set up: the member's password as well.
    password: { type: 'string', maxLength: 256 },
  },
} as const;
const racesList = { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 64 } } as const;
const staffAddBody = {
  type: 'object',
  required: ['email', 'role'],
  properties: {
    email: { type: 'string', maxLength: 254 },
    name: { type: 'string', maxLength: 60 },
    role: { type: 'string', maxLength: 20 },
    races: { anyOf: [{ type: 'null' }, racesList] },
  },
} as const;
const staffChangeBody = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 60 },
    role: { type: 'string', maxLength: 20 },
    races: { anyOf: [{ type: 'null' }, racesList] },
  },
} as const;
const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
} as const;
const raceParams = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

const entryParams = {
  type: 'object',
  required: ['raceId', 'entryNo'],
  properties: {
    raceId: { type: 'string', minLength: 1, maxLength: 64 },
    entryNo: { type: 'string', minLength: 1, maxLength: 32 },
  },
} as const;
/**
 * The bodies of the entry actions: loose on purpose (any text, any value), so that a missing or bad reason, amount
 * or bib is answered by the service's own clear message rather than a schema's.
 */
const actionBody = (properties: Record<string, object>) =>
  ({ type: 'object', properties: { reason: { type: 'string', maxLength: 4000 }, ...properties } }) as const;
const answersBody = actionBody({ values: { type: 'object', maxProperties: 200 } });
const offlineBody = actionBody({
  amountFen: {},
  method: { type: 'string', maxLength: 40 },
  reference: { type: 'string', maxLength: 200 },
});
const refundBody = actionBody({ amountFen: {} });
const bibBody = actionBody({ bib: { type: 'string', maxLength: 40 } });

/** An entry action's answer: its result, or its refusal (the form's refusals by field in data.fields). */
function actionAnswer<T>(outcome: EntryActionOutcome<T>) {
  if (outcome.ok) return ok(outcome.value);
  const refusal = fail(outcome.status, outcome.code, outcome.params);
  return outcome.fields ? { ...refusal, data: { fields: outcome.fields } } : refusal;
}
/**
 * A list's filters: text each, at most 100 characters (a repeated parameter is refused with 400, not turned
 * into a list the service does not expect).
 */
function textQuery<const N extends string>(names: readonly N[]) {
  const text = { type: 'string', maxLength: 100 } as const;
  return { type: 'object', properties: Object.fromEntries(names.map((name) => [name, text])) } as const;
}
const auditQuery = textQuery(['action', 'race', 'actor', 'from', 'to', 'before', 'limit', 'format']);
const entryListQuery = textQuery(['q', 'item', 'status', 'channel', 'page']);
const entryExportQuery = textQuery(['q', 'item', 'status', 'channel', 'format', 'lang']);

type StaffOutcome<T> = { ok: true; value: T } | { ok: false; refusal: Parameters<typeof fail>[1] };
const answer = <T>(outcome: StaffOutcome<T>) =>
  outcome.ok ? ok(outcome.value) : fail(outcome.refusal === 'staffNotFound' ? 404 : 400, outcome.refusal);

export default async function adminRoutes(app: FastifyInstance) {
  const now = () => app.config.now();
  // A race's figures, kept a moment for the other staff watching it (services/console/dashboard.ts).
  const raceFigures = dashboardCache();

  // Signing in: outside the session's scope.
  app.post<{ Body: { email: string; password: string; totp?: string } }>(
    `${ADMIN_PREFIX}/login`,
    { onRequest: app.rateLimit(LIMITS.login), schema: { body: loginBody } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const at = now();
      const outcome = await staffLogin(
        app.repos,
        { ...request.body, ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') },
        at,
      );
      if (!outcome.ok) {
        const until = outcome.lockedUntil === undefined ? undefined : new Date(outcome.lockedUntil).toISOString();
        return fail(outcome.refusal === 'staffLocked' ? 423 : 401, outcome.refusal, until ? { until } : undefined);
      }
      const { session } = outcome;
      setSessionCookie(request, reply, session.token, Math.floor((session.expiresAt - at) / 1000));
      const current = await currentStaff(app.repos, session.token, at);
      return current ? ok(me(current, session.token, at)) : fail(401, 'staffLoginExpired');
    },
  );

  // Everything else: behind the staff session, with the CSRF header on changing calls.
  await app.register(async (scope) => {
    requireSession(
      scope,
      'staff',
      async (request) => {
        const token = sessionToken(request);
        const current = token === '' ? undefined : await currentStaff(app.repos, token, now());
        return current;
      },
      () => fail(401, 'staffLoginExpired'),
    );
    // A changing call carries the session's CSRF token: a page on another site cannot.
    scope.addHook('preHandler', async (request, reply) => {
      if (request.method === 'GET' || request.staff === null) return undefined;
      const sent = request.headers[CSRF_HEADER];
      if (!csrfMatches(request.staff.session, typeof sent === 'string' ? sent : undefined)) {
        return reply.send(fail(403, 'staffCsrf'));
      }
      return undefined;
    });

    /** Refuses a call the member's role, race or pending first steps do not allow (undefined: allowed). */
    const refused = (request: FastifyRequest, permission: StaffPermission | 'self', raceId?: string) => {
      const { staff, pending } = request.staff;
      if (permission === 'self') return undefined;
      if (pending.length > 0) return fail(403, 'staffSetupPending');
      if (!roleCan(staff.role, permission)) return fail(403, 'staffForbidden');
      if (raceId !== undefined && staff.races !== null && !staff.races.includes(raceId)) {
        return fail(403, 'staffRaceForbidden');
      }
      return undefined;
    };
    const source = (request: FastifyRequest) => request.ip;
    const actor = (request: FastifyRequest) =>
      ({ kind: 'staff', staffId: request.staff.staff.id, source: source(request) }) as const;

    scope.get(`${ADMIN_PREFIX}/me`, async (request) => ok(me(request.staff, sessionToken(request), now())));

    /** What an area's routes file gets (routes/admin/scope.ts): register each area below with one line. */
    const helpers: ConsoleRouteHelpers = { prefix: ADMIN_PREFIX, refused, actor };
    reconciliationRoutes(scope, app, helpers);
    siteRoutes(scope, app, helpers);
    racesRoutes(scope, app, helpers);
    formsRoutes(scope, app, helpers);
    reviewRoutes(scope, app, helpers);
    importsRoutes(scope, app, helpers);
    refundsRoutes(scope, app, helpers);
    seasonRoutes(scope, app, helpers);
    ballotRoutes(scope, app, helpers);
    mailingRoutes(scope, app, helpers);
    messagesRoutes(scope, app, helpers);
    pickupRoutes(scope, app, helpers);
    assetsRoutes(scope, app, helpers);

    scope.post(`${ADMIN_PREFIX}/logout`, async (request, reply) => {
      await staffLogout(app.repos, request.staff, source(request), now());
      setSessionCookie(request, reply, '', 0);
      return ok(null);
    });

    scope.post<{ Body: { oldPassword: string; newPassword: string } }>(
      `${ADMIN_PREFIX}/password`,
      { schema: { body: passwordBody } },
      async (request) => {
        const outcome = await changeOwnPassword(
          app.repos,
          request.staff,
          { ...request.body, source: source(request) },
          now(),
        );
        return outcome.ok ? ok(null) : fail(400, outcome.refusal);
      },
    );

    scope.post(`${ADMIN_PREFIX}/totp/propose`, async (request) => ok(proposeSecondFactor(request.staff, 'race-site')));

    scope.post<{ Body: { secret: string; code: string } }>(
      `${ADMIN_PREFIX}/totp/confirm`,
      { schema: { body: totpBody } },
      async (request) => {
        const outcome = await confirmSecondFactor(
          app.repos,
          request.staff,
          { ...request.body, source: source(request) },
          now(),
        );
        return outcome.ok ? ok(null) : fail(400, outcome.refusal);
      },
    );

    // The member's own sessions: see where they are signed in, sign out the others.
    scope.get(`${ADMIN_PREFIX}/sessions`, async (request) => ok(await ownSessions(app.repos, request.staff, now())));

    scope.post(`${ADMIN_PREFIX}/sessions/revoke-others`, async (request) =>
      ok(await revokeOtherSessions(app.repos, request.staff, source(request), now())),
    );

    scope.post<{ Params: { id: number } }>(
      `${ADMIN_PREFIX}/sessions/:id/revoke`,
      { schema: { params: idParams } },
      async (request) => {
        const outcome = await revokeOwnSession(app.repos, request.staff, request.params.id, source(request), now());
        return outcome.ok ? ok(null) : fail(404, outcome.refusal);
      },
    );

    scope.get(`${ADMIN_PREFIX}/races`, async (request) => {
      const no = refused(request, 'figures');
      if (no && !roleCan(request.staff.staff.role, 'checkIn')) return no;
      return ok(await consoleRaces(app.repos, request.staff.staff.races));
    });

    scope.get<{ Params: { raceId: string } }>(
      `${ADMIN_PREFIX}/races/:raceId/dashboard`,
      { schema: { params: raceParams } },
      async (request) => {
        const no = refused(request, 'figures', request.params.raceId);
        if (no) return no;
        const figures = await raceFigures(app.repos, request.params.raceId, now());
        if (!figures) return fail(404, 'raceNotFound');
        // Money figures are for those who may see money.
        if (!roleCan(request.staff.staff.role, 'money')) return ok({ ...figures, money: null });
        return ok(figures);
      },
    );

    scope.get<{
      Params: { raceId: string };
      Querystring: { q?: string; item?: string; status?: string; channel?: string; page?: string };
    }>(
      `${ADMIN_PREFIX}/races/:raceId/entries`,
      { schema: { params: raceParams, querystring: entryListQuery } },
      async (request) => {
        const no = refused(request, 'entries.read', request.params.raceId);
        if (no) return no;
        const listed = await listEntries(app.repos, request.params.raceId, request.query);
        return listed.ok ? ok(listed) : fail(400, 'staffBadQuery', { field: listed.field });
      },
    );

    // The filtered list as a file (.xlsx or .csv): whole numbers and money by the role; recorded in the audit log.
    scope.get<{ Params: { raceId: string }; Querystring: EntryExportQuery }>(
      `${ADMIN_PREFIX}/races/:raceId/entries/export`,
      { schema: { params: raceParams, querystring: entryExportQuery } },
      async (request, reply) => {
        const no = refused(request, 'entries.read', request.params.raceId);
        if (no) return no;
        const made = await exportEntries(
          app.repos,
          request.params.raceId,
          request.query,
          { role: request.staff.staff.role, actor: actor(request) },
          now(),
        );
        if (!made.ok)
          return 'refusal' in made ? fail(404, made.refusal) : fail(400, 'staffBadQuery', { field: made.field });
        return reply
          .header('content-type', made.contentType)
          .header('content-disposition', `attachment; filename="${made.fileName}"`)
          .header('x-export-rows', String(made.rows))
          .send(Readable.from(made.body));
      },
    );

    // One entry (issue 30 §5): its page, its whole personal numbers (logged), and the organiser's actions.
    type EntryRequest = { Params: { raceId: string; entryNo: string } };
    const entryUrl = `${ADMIN_PREFIX}/races/:raceId/entries/:entryNo`;
    const actionDeps = () => ({ repos: app.repos, files: app.files, provider: app.payments, now });

    scope.get<EntryRequest>(entryUrl, { schema: { params: entryParams } }, async (request) => {
      const { raceId, entryNo } = request.params;
      const no = refused(request, 'entries.read', raceId);
      if (no) return no;
      const detail = await entryDetail(app.repos, raceId, entryNo);
      return detail ? ok(detail) : fail(404, 'entryNotFound');
    });

    scope.post<EntryRequest>(`${entryUrl}/personal`, { schema: { params: entryParams } }, async (request) => {
      const { raceId, entryNo } = request.params;
      const no = refused(request, 'entries.personal', raceId);
      if (no) return no;
      const whole = await entryPersonal(app.repos, raceId, entryNo, actor(request), now());
      return whole ? ok(whole) : fail(404, 'entryNotFound');
    });

    scope.post<EntryRequest & { Body: { values?: unknown; reason?: string } }>(
      `${entryUrl}/answers`,
      { schema: { params: entryParams, body: answersBody } },
      async (request) => {
        const { raceId, entryNo } = request.params;
        return (
          refused(request, 'entries.edit', raceId) ??
          actionAnswer(await editEntryAnswers(actionDeps(), raceId, entryNo, request.body ?? {}, actor(request)))
        );
      },
    );

    scope.post<EntryRequest & { Body: { values?: unknown; reason?: string } }>(
      `${entryUrl}/transfer`,
      { schema: { params: entryParams, body: answersBody } },
      async (request) => {
        const { raceId, entryNo } = request.params;
        return (
          refused(request, 'entries.edit', raceId) ??
          actionAnswer(await transferEntry(actionDeps(), raceId, entryNo, request.body ?? {}, actor(request)))
        );
      },
    );

    scope.post<EntryRequest & { Body: { reason?: string; refund?: unknown } }>(
      `${entryUrl}/cancel`,
      { schema: { params: entryParams, body: actionBody({ refund: {} }) } },
      async (request) => {
        const { raceId, entryNo } = request.params;
        // Refunding the paid entry with it is money's too.
        return (
          refused(request, 'entries.edit', raceId) ??
          (request.body?.refund === true ? refused(request, 'money', raceId) : undefined) ??
          actionAnswer(await cancelEntry(actionDeps(), raceId, entryNo, request.body ?? {}, actor(request)))
        );
      },
    );

    scope.post<EntryRequest & { Body: { amountFen?: unknown; method?: string; reference?: string; reason?: string } }>(
      `${entryUrl}/offline-payment`,
      { schema: { params: entryParams, body: offlineBody } },
      async (request) => {
        const { raceId, entryNo } = request.params;
        const body = request.body ?? {};
        return (
          refused(request, 'money', raceId) ??
          actionAnswer(
            await recordOfflinePayment(
              actionDeps(),
              raceId,
              entryNo,
              { amountFen: body.amountFen, method: body.method, reference: body.reference, reason: body.reason },
              actor(request),
            ),
          )
        );
      },
    );

    scope.post<EntryRequest & { Body: { amountFen?: unknown; reason?: string } }>(
      `${entryUrl}/refund`,
      { schema: { params: entryParams, body: refundBody } },
      async (request) => {
        const { raceId, entryNo } = request.params;
        return (
          refused(request, 'money', raceId) ??
          actionAnswer(await refundByOrganiser(actionDeps(), raceId, entryNo, request.body ?? {}, actor(request)))
        );
      },
    );

    scope.post<EntryRequest & { Body: { bib?: string; reason?: string } }>(
      `${entryUrl}/bib`,
      { schema: { params: entryParams, body: bibBody } },
      async (request) => {
        const { raceId, entryNo } = request.params;
        return (
          refused(request, 'entries.edit', raceId) ??
          actionAnswer(
            await setEntryBib(
              actionDeps(),
              raceId,
              entryNo,
              { bib: request.body?.bib, reason: request.body?.reason },
              actor(request),
            ),
          )
        );
      },
    );

    scope.get(
      `${ADMIN_PREFIX}/staff`,
      async (request) => refused(request, 'staff') ?? ok(await listStaff(app.repos, now())),
    );

    scope.post<{ Body: { email: string; name?: string; role: string; races?: string[] | null } }>(
      `${ADMIN_PREFIX}/staff`,
      { schema: { body: staffAddBody } },
      async (request) =>
        refused(request, 'staff') ?? answer(await addStaff(app.repos, request.body, actor(request), now())),
    );

    scope.post<{ Params: { id: number }; Body: { name?: string; role?: string; races?: string[] | null } }>(
      `${ADMIN_PREFIX}/staff/:id`,
      { schema: { params: idParams, body: staffChangeBody } },
      async (request) =>
        refused(request, 'staff') ??
        answer(await changeStaff(app.repos, request.params.id, request.body, actor(request), now())),
    );

    scope.post<{ Params: { id: number } }>(
      `${ADMIN_PREFIX}/staff/:id/remove`,
      { schema: { params: idParams } },
      async (request) =>
        refused(request, 'staff') ?? answer(await removeStaff(app.repos, request.params.id, actor(request), now())),
    );

    scope.get<{ Params: { id: number } }>(
      `${ADMIN_PREFIX}/staff/:id/sessions`,
      { schema: { params: idParams } },
      async (request) => refused(request, 'staff') ?? answer(await staffSessions(app.repos, request.params.id, now())),
    );

    scope.post<{ Params: { id: number } }>(
      `${ADMIN_PREFIX}/staff/:id/sessions/revoke`,
      { schema: { params: idParams } },
      async (request) =>
        refused(request, 'staff') ??
        answer(await revokeStaffSessions(app.repos, request.params.id, actor(request), now())),
    );

    scope.post<{ Params: { id: number }; Body: { resetSecondFactor?: boolean } }>(
      `${ADMIN_PREFIX}/staff/:id/password`,
      {
        schema: {
          params: idParams,
          body: { type: 'object', properties: { resetSecondFactor: { type: 'boolean' } } },
        },
      },
      async (request) =>
        refused(request, 'staff') ??
        answer(
          await resetStaffPassword(
            app.repos,
            request.params.id,
            { resetSecondFactor: request.body?.resetSecondFactor === true },
            actor(request),
            now(),
          ),
        ),
    );

    scope.get<{ Querystring: AuditQuery }>(
      `${ADMIN_PREFIX}/audit`,
      { schema: { querystring: auditQuery } },
      async (request) => {
        const no = refused(request, 'staff');
        if (no) return no;
        const parsed = auditFilterOf(request.query);
        if (!parsed.ok) return fail(400, 'staffBadQuery', { field: parsed.field });
        return ok(await auditPage(app.repos, parsed.filter));
      },
    );

    scope.get(
      `${ADMIN_PREFIX}/audit/actions`,
      async (request) => refused(request, 'staff') ?? ok(await auditActions(app.repos)),
    );

    // The whole filtered log as a CSV file (UTF-8 with a BOM, formulas neutralised); the export is recorded.
    scope.get<{ Querystring: AuditQuery & { format?: string } }>(
      `${ADMIN_PREFIX}/audit/export`,
      { schema: { querystring: auditQuery } },
      async (request, reply) => {
        const no = refused(request, 'staff');
        if (no) return no;
        const { format = 'csv', before: _before, limit: _limit, ...query } = request.query;
        if (format !== 'csv') return fail(400, 'staffBadQuery', { field: 'format' });
        const parsed = auditFilterOf(query);
        if (!parsed.ok) return fail(400, 'staffBadQuery', { field: parsed.field });
        const { limit: _size, ...filter } = parsed.filter;
        const at = now();
        const { table } = await exportAudit(app.repos, filter, actor(request), at);
        const day = new Date(at).toISOString().slice(0, 10).replaceAll('-', '');
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="audit-log-${day}.csv"`)
          .send(formatCsv(table));
      },
    );

    scope.get(
      `${ADMIN_PREFIX}/audit/verify`,
      async (request) => refused(request, 'staff') ?? ok(await verifyAuditChain(app.repos)),
    );
  });
}
