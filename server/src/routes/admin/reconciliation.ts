/**
 * The console's reconciliation calls (issue 31 §3), for staff with payments.reconcile (finance, owner): the
 * runs and differences (filtered), run a provider's day now (its bill fetched), import a bill file, mark a
 * difference handled with a note. The bills span every race of the merchant, so a member limited to some races
 * is refused. Registered inside the console's session scope (routes/admin/index.ts), which checks the CSRF
 * header of every changing call; each run and handling is in the audit log (services/entry/reconciliation.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RECONCILIATION_NOTE_MAX } from '#contract/reconciliation';
import { fail, ok } from '../../lib/envelope.ts';
import type { ConsoleRouteHelpers } from './scope.ts';
import {
  handleDifference,
  reconcileFetched,
  reconcileFile,
  reconciliationView,
  type ReconciliationOutcome,
  type ReconciliationQuery,
} from '../../services/entry/reconciliation.ts';

/** The largest bill file the console takes (base64 in JSON): a busy race's day is well under it. */
export const BILL_FILE_MAX_BYTES = 8 * 1024 * 1024;

const providerProperty = { type: 'string', minLength: 1, maxLength: 32 } as const;
const dayProperty = { type: 'string', minLength: 1, maxLength: 10 } as const;
const listQuery = {
  type: 'object',
  properties: {
    provider: { type: 'string', maxLength: 32 },
    from: { type: 'string', maxLength: 10 },
    to: { type: 'string', maxLength: 10 },
    state: { type: 'string', maxLength: 10 },
    kind: { type: 'string', maxLength: 32 },
  },
} as const;
const runBody = {
  type: 'object',
  required: ['provider', 'day'],
  properties: { provider: providerProperty, day: dayProperty },
} as const;
const importBody = {
  type: 'object',
  required: ['provider', 'day', 'content'],
  properties: {
    provider: providerProperty,
    day: dayProperty,
    /** The file's bytes, base64. */
    content: { type: 'string', maxLength: Math.ceil((BILL_FILE_MAX_BYTES * 4) / 3) + 4 },
    fileName: { type: 'string', maxLength: 200 },
  },
} as const;
const handleBody = {
  type: 'object',
  required: ['note'],
  properties: { note: { type: 'string', maxLength: RECONCILIATION_NOTE_MAX * 2 } },
} as const;
const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
} as const;

const answer = <T>(outcome: ReconciliationOutcome<T>) =>
  outcome.ok ? ok(outcome.value) : fail(outcome.status, outcome.code, outcome.params);

export function reconciliationRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, actor } = helpers;
  // Every race's money: no member limited to some races.
  const refused = (request: FastifyRequest) =>
    helpers.refused(request, 'payments.reconcile') ??
    (request.staff.staff.races === null ? undefined : fail(403, 'staffRaceForbidden'));
  const deps = () => ({ repos: app.repos, providers: app.payments, now: () => app.config.now() });

  scope.get<{ Querystring: ReconciliationQuery }>(
    `${prefix}/reconciliation`,
    { schema: { querystring: listQuery } },
    async (request) => refused(request) ?? answer(await reconciliationView(deps(), request.query)),
  );

  scope.post<{ Body: { provider: string; day: string } }>(
    `${prefix}/reconciliation/run`,
    { schema: { body: runBody } },
    async (request) =>
      refused(request) ?? answer(await reconcileFetched(deps(), { ...request.body, actor: actor(request) })),
  );

  scope.post<{ Body: { provider: string; day: string; content: string } }>(
    `${prefix}/reconciliation/import`,
    { schema: { body: importBody }, bodyLimit: Math.ceil((BILL_FILE_MAX_BYTES * 4) / 3) + 4096 },
    async (request) => {
      const no = refused(request);
      if (no) return no;
      const { provider, day, content } = request.body;
      return answer(
        await reconcileFile(deps(), { provider, day, content: Buffer.from(content, 'base64'), actor: actor(request) }),
      );
    },
  );

  scope.post<{ Params: { id: number }; Body: { note: string } }>(
    `${prefix}/reconciliation/differences/:id/handle`,
    { schema: { params: idParams, body: handleBody } },
    async (request) =>
      refused(request) ??
      answer(
        await handleDifference(
          { repos: app.repos, now: () => app.config.now() },
          { id: request.params.id, note: request.body.note, actor: actor(request) },
        ),
      ),
  );
}
