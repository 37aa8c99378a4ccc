/**
 * Saved participants (issue 15 §3; contract/api.ts participantList, participantSave, participantDelete; types
 * in contract/after-entry.ts), all logged in and private (no-store; behind the runner's session,
 * plugins/sessions.ts):
 * - GET participantList → SavedParticipant[] (numbers masked, age and adult as of today).
 * - POST participantSave (ParticipantSaveRequest) → SavedParticipant; field refusals as FieldRefusals.
 * - POST participantDelete ({ id }) → null.
 * An id that is not the caller's answers participantMissing (404). Rules: services/after-entry/participants.ts.
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { ParticipantDeleteRequest } from '#contract/after-entry';
import { fail, ok } from '../../lib/envelope.ts';
import { createParticipants } from '../../services/after-entry/participants.ts';
import { refuseFields } from '../registration/screen-common.ts';

const idSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** Bounds only: every value is checked by the contract's rules, which answer their own messages. */
const saveBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: idSchema,
    name: { type: 'string', maxLength: 100 },
    gender: {},
    certificateType: {},
    certificateNumber: { type: 'string', maxLength: 32 },
    phone: { type: 'string', maxLength: 32 },
    emergencyName: { type: 'string', maxLength: 100 },
    emergencyPhone: { type: 'string', maxLength: 32 },
    birthday: { type: 'string', maxLength: 10 },
  },
} as const;

const deleteBody = { type: 'object', required: ['id'], properties: { id: idSchema } } as const;

export default async function participantRoutes(app: FastifyInstance) {
  const participants = createParticipants({ repos: app.repos, now: app.config.now });

  app.get(API_PATHS.participantList, async (request) => ok(await participants.list(request.runner.id)));

  app.post<{ Body: Record<string, unknown> }>(
    API_PATHS.participantSave,
    { schema: { body: saveBody } },
    async (request) => {
      const saved = await participants.save(request.runner.id, request.body);
      if (saved.ok) return ok(saved.participant);
      const { refusal } = saved;
      return refusal.kind === 'fields'
        ? refuseFields(refusal.fields)
        : fail(refusal.status, refusal.code, refusal.params);
    },
  );

  app.post<{ Body: ParticipantDeleteRequest }>(
    API_PATHS.participantDelete,
    { schema: { body: deleteBody } },
    async (request) => {
      return (await participants.remove(request.runner.id, request.body.id))
        ? ok(null)
        : fail(404, 'participantMissing');
    },
  );
}
