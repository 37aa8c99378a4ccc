/**
 * The console's direct-pass review (issue 32 §1), for staff with 'review' in the race: the queue, one
 * application (the whole personal numbers a separate read for those who also have entries.personal, logged),
 * its uploaded documents (staff only: inside the console's session scope, never cached, type checked, never
 * run) and approving or rejecting, the CLI's direct-approve / direct-reject (reviewApplication): refused when it
 * is no longer awaiting review or changed since the reviewer read it.
 */
import type { FastifyInstance } from 'fastify';
import { DIRECT_REJECT_REASON_MAX } from '#contract/console-review';
import { isDirectStatus } from '#contract/registration-screens';
import { fail, ok } from '../../lib/envelope.ts';
import { reviewApplication } from '../../services/registration/direct-applications.ts';
import { reviewDetail, reviewDocument, reviewPersonal, reviewQueue } from '../../services/console/direct-review.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

const raceId = { type: 'string', minLength: 1, maxLength: 64 } as const;
const raceParams = { type: 'object', required: ['raceId'], properties: { raceId } } as const;
const idParams = {
  type: 'object',
  required: ['raceId', 'id'],
  properties: { raceId, id: { type: 'integer', minimum: 1, maximum: 2 ** 53 - 1 } },
} as const;
const fileParams = {
  type: 'object',
  required: ['raceId', 'id', 'name'],
  properties: { ...idParams.properties, name: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;
const queueQuery = { type: 'object', properties: { status: { type: 'string', maxLength: 2 } } } as const;
const decisionBody = {
  type: 'object',
  required: ['updatedAt'],
  properties: {
    /** The application's updatedAt as the reviewer read it: a change since refuses the decision. */
    updatedAt: { type: 'integer', minimum: 0 },
    reason: { type: 'string', maxLength: DIRECT_REJECT_REASON_MAX * 4 },
  },
} as const;

type IdRequest = { Params: { raceId: string; id: number } };

export function reviewRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, refused, actor } = helpers;
  const url = `${prefix}/races/:raceId/review`;
  const now = () => app.config.now();

  scope.get<{ Params: { raceId: string }; Querystring: { status?: string } }>(
    url,
    { schema: { params: raceParams, querystring: queueQuery } },
    async (request) => {
      const { raceId: race } = request.params;
      const no = refused(request, 'review', race);
      if (no) return no;
      const text = request.query.status;
      const status = text === undefined || text === '' ? undefined : Number(text);
      if (status !== undefined && !isDirectStatus(status)) return fail(400, 'staffBadQuery', { field: 'status' });
      const queue = await reviewQueue(app.repos, race, status);
      return queue ? ok(queue) : fail(404, 'raceNotFound');
    },
  );

  scope.get<IdRequest>(`${url}/:id`, { schema: { params: idParams } }, async (request, reply) => {
    const { raceId: race, id } = request.params;
    const no = refused(request, 'review', race);
    if (no) return no;
    void reply.header('cache-control', 'no-store');
    const detail = await reviewDetail(app.repos, race, id, prefix);
    return detail ? ok(detail) : fail(404, 'directApplicationNotFound');
  });

  scope.post<IdRequest>(`${url}/:id/personal`, { schema: { params: idParams } }, async (request, reply) => {
    const { raceId: race, id } = request.params;
    const no = refused(request, 'review', race) ?? refused(request, 'entries.personal', race);
    if (no) return no;
    void reply.header('cache-control', 'no-store');
    const whole = await reviewPersonal(app.repos, race, id, actor(request), now());
    return whole ? ok(whole) : fail(404, 'directApplicationNotFound');
  });

  // A document: to staff who review this race only; no cache keeps it, no browser runs or sniffs it.
  scope.get<{ Params: { raceId: string; id: number; name: string } }>(
    `${url}/:id/files/:name`,
    { schema: { params: fileParams } },
    async (request, reply) => {
      void reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache', 'x-content-type-options': 'nosniff' });
      const { raceId: race, id, name } = request.params;
      const no = refused(request, 'review', race);
      if (no) return reply.code(no.code).send(no);
      const file = await reviewDocument({ repos: app.repos, files: app.files }, race, id, name);
      if (!file) return reply.code(404).send(fail(404, 'directDocumentNotFound'));
      // The stored name is [\w.-]+ (lib/upload-value.ts): safe inside quotes as it is.
      return reply
        .headers({
          'content-type': file.contentType,
          'content-disposition': `${file.inline ? 'inline' : 'attachment'}; filename="${file.fileName}"`,
          'content-security-policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
          'cross-origin-resource-policy': 'same-origin',
        })
        .send(file.bytes);
    },
  );

  for (const [path, status] of [
    ['approve', 2],
    ['reject', 3],
  ] as const) {
    scope.post<IdRequest & { Body: { updatedAt: number; reason?: string } }>(
      `${url}/:id/${path}`,
      { schema: { params: idParams, body: decisionBody } },
      async (request) => {
        const { raceId: race, id } = request.params;
        const no = refused(request, 'review', race);
        if (no) return no;
        const reason = request.body.reason?.trim() ?? '';
        if (status === 3 && (reason === '' || reason.length > DIRECT_REJECT_REASON_MAX)) {
          return fail(400, 'directRejectReasonRequired', { max: DIRECT_REJECT_REASON_MAX });
        }
        if (!(await reviewDetail(app.repos, race, id, prefix))) return fail(404, 'directApplicationNotFound');
        const outcome = status === 2 ? ({ status: 2 } as const) : ({ status: 3, reason } as const);
        const reviewed = await reviewApplication(app.repos, id, outcome, now(), {
          actor: actor(request),
          expectedUpdatedAt: request.body.updatedAt,
        });
        if (reviewed.ok) return ok(await reviewDetail(app.repos, race, id, prefix));
        if (reviewed.reason === 'missing') return fail(404, 'directApplicationNotFound');
        if (reviewed.reason === 'changed') return fail(409, 'directReviewChanged');
        return fail(409, reviewed.status === 2 ? 'directReviewApprovedAlready' : 'directReviewNotAwaiting');
      },
    );
  }
}
