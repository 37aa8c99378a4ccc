/**
 * /post and /upload (issue 13 §4), both need login (registered behind the runner's session,
 * plugins/sessions.ts): the race-pack mailing choice (mailingGet, mailingSave) and the documents a runner hands
 * in (documentsGet, documentsSave). The rules: services/registration/pack-and-documents.ts.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { MAILING_METHODS, type DocumentsSaveRequest, type MailingSaveRequest } from '#contract/registration-screens';
import { fail, ok } from '../../lib/envelope.ts';
import {
  documentsAnswer,
  mailingAnswer,
  saveDocuments,
  saveMailingChoice,
  type ChoiceOutcome,
} from '../../services/registration/pack-and-documents.ts';
import { raceIdQuery, raceIdSchema, refuseFields } from './screen-common.ts';

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

const answer = <T>(outcome: ChoiceOutcome<T>) => {
  if (outcome.ok) return ok(outcome.value);
  return 'fields' in outcome ? refuseFields(outcome.fields) : fail(outcome.status, outcome.code, outcome.params);
};

export default async function packAndDocumentRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.mailingGet,
    { schema: { querystring: raceIdQuery } },
    async (request) => {
      const found = await mailingAnswer(app.repos, request.query.raceId, request.runner.id, app.config.now());
      return found ? ok(found) : fail(404, 'raceNotFound');
    },
  );

  app.post<{ Body: MailingSaveRequest }>(API_PATHS.mailingSave, { schema: { body: mailingBody } }, async (request) =>
    answer(await saveMailingChoice(app.repos, request.runner.id, request.body, app.config.now())),
  );

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.documentsGet,
    { schema: { querystring: raceIdQuery } },
    async (request) => {
      const found = await documentsAnswer(app.repos, request.query.raceId, request.runner.id, app.config.now());
      return found ? ok(found) : fail(404, 'raceNotFound');
    },
  );

  app.post<{ Body: DocumentsSaveRequest }>(
    API_PATHS.documentsSave,
    { schema: { body: documentsBody } },
    async (request) =>
      answer(
        await saveDocuments({ repos: app.repos, files: app.files }, request.runner.id, request.body, app.config.now()),
      ),
  );
}
