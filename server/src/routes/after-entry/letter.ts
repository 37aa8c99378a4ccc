/**
 * The electronic commitment letter's calls (issue 15 §1; paths in contract/api.ts, shapes and rules in
 * contract/after-entry.ts and services/after-entry/letter.ts): letterGet (login) answers the race's letter and
 * the caller's entries that sign it; letterSign (login) appends a signature. Registered behind the runner's
 * session (plugins/sessions.ts): `request.runner` is the caller.
 */
import type { FastifyInstance } from 'fastify';
import type { LetterSignRequest } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { fail, ok } from '../../lib/envelope.ts';
import { letterAnswer, signLetter } from '../../services/after-entry/letter.ts';
import { raceById } from '../../services/races.ts';
import { raceIdQuery, raceIdSchema, refuseFields } from '../registration/screen-common.ts';

const cosignerSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 50 },
    relation: { type: 'string', maxLength: 40 },
    phone: { type: 'string', maxLength: 20 },
  },
} as const;

const signBody = {
  type: 'object',
  required: ['raceId', 'entryNo', 'versionHash', 'accepted', 'signerName'],
  properties: {
    raceId: raceIdSchema,
    entryNo: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[\\w-]+$' },
    versionHash: { type: 'string', maxLength: 64 },
    accepted: { type: 'array', maxItems: 40, items: { type: 'integer', minimum: 0, maximum: 100 } },
    signerName: { type: 'string', maxLength: 50 },
    guardian: cosignerSchema,
    relative: cosignerSchema,
  },
} as const;

export default async function letterRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.letterGet,
    { schema: { querystring: raceIdQuery } },
    async (request) => {
      const race = await raceById(app.repos, request.query.raceId);
      if (!race) return fail(404, 'raceNotFound');
      return ok(await letterAnswer(app.repos, race, request.runner.id, app.config.now()));
    },
  );

  app.post<{ Body: LetterSignRequest }>(API_PATHS.letterSign, { schema: { body: signBody } }, async (request) => {
    const outcome = await signLetter({ repos: app.repos, now: app.config.now }, request.runner.id, request.body, {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    });
    if (outcome.ok) return ok(outcome.entry);
    return outcome.kind === 'fields'
      ? refuseFields(outcome.fields)
      : fail(outcome.status, outcome.code, outcome.params);
  });
}
