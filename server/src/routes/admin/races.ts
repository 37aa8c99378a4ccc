/**
 * The console's races and race settings (issue 33 §3), for the owner ('race'): the organiser's races with their
 * domains and published sites, a new race from a few fields, a race's race.json read, checked and saved with the
 * same checks and refusals as `site add-race` (services/races.ts), and domains bound and unbound as `site bind`
 * and `site unbind` do (services/website/domains.ts). Each change is in the audit log (race.add, race.save,
 * domain.bind, domain.unbind), as the CLI writes it. A member limited to some races sees and changes only those,
 * and may not create a race (a race-wide act: an owner of every race does it).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DomainBindRequest, NewRaceRequest, OrganiserRaces, RaceSaveRequest } from '#contract/race-admin';
import { fail, ok } from '../../lib/envelope.ts';
import { toBindableDomain } from '../../lib/domain.ts';
import {
  checkRaceDocument,
  createRace,
  raceSettings,
  saveRaceDocument,
  type RaceSaveOutcome,
} from '../../services/races.ts';
import { bindDomain, organiserRaces, unbindDomain } from '../../services/website/domains.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

/** The largest race.json the console saves (a long commitment letter fits well under it). */
const RACE_DOCUMENT_MAX_PROPERTIES = 200;

const raceParams = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const localName = {
  type: 'object',
  required: ['zh', 'en'],
  properties: { zh: { type: 'string', maxLength: 400 }, en: { type: 'string', maxLength: 400 } },
} as const;
const newRaceBody = {
  type: 'object',
  required: ['raceId', 'raceName', 'startTime'],
  properties: {
    raceId: { type: 'string', maxLength: 200 },
    raceName: localName,
    startTime: { type: 'string', maxLength: 40 },
    endTime: { type: 'string', maxLength: 40 },
    timeZone: { type: 'string', maxLength: 80 },
    place: { type: 'string', maxLength: 800 },
  },
} as const;
const saveBody = {
  type: 'object',
  required: ['race'],
  properties: {
    race: { type: 'object', maxProperties: RACE_DOCUMENT_MAX_PROPERTIES },
    version: { type: 'integer', minimum: 0 },
  },
} as const;
const bindBody = {
  type: 'object',
  required: ['domain', 'raceId'],
  properties: {
    domain: { type: 'string', maxLength: 300 },
    raceId: { type: 'string', minLength: 1, maxLength: 64 },
    move: { type: 'boolean' },
  },
} as const;
const unbindBody = {
  type: 'object',
  required: ['domain'],
  properties: { domain: { type: 'string', maxLength: 300 } },
} as const;

/** A save's answer: the saved race and its new version, or the refusal (the document's problems in data). */
function saveAnswer(outcome: RaceSaveOutcome) {
  if (outcome.ok) return ok({ race: outcome.race, version: outcome.version, saved: outcome.saved });
  const { status, code, params, problems } = outcome.refusal;
  const refusal = fail(status, code, params);
  return problems ? { ...refusal, data: { problems } } : refusal;
}

export function racesRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, actor } = helpers;
  const now = () => app.config.now();
  /** The races the member is limited to (null: every race). */
  const allowed = (request: FastifyRequest) => request.staff.staff.races;
  type RaceRequest = { Params: { raceId: string } };

  scope.get(`${prefix}/organiser/races`, async (request) => {
    const no = helpers.refused(request, 'race');
    if (no) return no;
    const races = await organiserRaces(app.repos, allowed(request));
    return ok<OrganiserRaces>({ races, mayCreate: allowed(request) === null });
  });

  scope.post<{ Body: NewRaceRequest }>(
    `${prefix}/organiser/races`,
    { schema: { body: newRaceBody } },
    async (request) => {
      const no = helpers.refused(request, 'race');
      if (no) return no;
      // A member limited to some races cannot create one: the new race would be outside their list.
      if (allowed(request) !== null) return fail(403, 'raceCreateLimited');
      return saveAnswer(await createRace(app.repos, request.body, actor(request), now()));
    },
  );

  scope.get<RaceRequest>(`${prefix}/races/:raceId/settings`, { schema: { params: raceParams } }, async (request) => {
    const { raceId } = request.params;
    const no = helpers.refused(request, 'race', raceId);
    if (no) return no;
    const view = await raceSettings(app.repos, raceId);
    return view ? ok(view) : fail(404, 'raceNotFound');
  });

  // The document's problems as it is typed (nothing saved): the same checks as the save.
  scope.post<RaceRequest & { Body: RaceSaveRequest }>(
    `${prefix}/races/:raceId/settings/check`,
    { schema: { params: raceParams, body: saveBody } },
    async (request) => {
      const no = helpers.refused(request, 'race', request.params.raceId);
      if (no) return no;
      return ok({ problems: checkRaceDocument(request.body.race) });
    },
  );

  scope.post<RaceRequest & { Body: RaceSaveRequest }>(
    `${prefix}/races/:raceId/settings`,
    { schema: { params: raceParams, body: saveBody } },
    async (request) => {
      const { raceId } = request.params;
      const no = helpers.refused(request, 'race', raceId);
      if (no) return no;
      return saveAnswer(
        await saveRaceDocument(app.repos, {
          document: request.body.race,
          raceId,
          ...(request.body.version === undefined ? {} : { version: request.body.version }),
          actor: actor(request),
          now: now(),
        }),
      );
    },
  );

  scope.post<{ Body: DomainBindRequest }>(`${prefix}/domains/bind`, { schema: { body: bindBody } }, async (request) => {
    const { raceId, move = false } = request.body;
    const no = helpers.refused(request, 'race', raceId);
    if (no) return no;
    const domain = toBindableDomain(request.body.domain);
    if (domain === null) return fail(400, 'domainInvalid', { domain: request.body.domain.slice(0, 80) });
    const bound = await bindDomain(app.repos, domain, raceId, now(), {
      actor: actor(request),
      move,
      allowedRaces: allowed(request),
    });
    if (bound.ok) return ok({ domain, raceId, previousRaceId: bound.previousRaceId ?? null });
    if (bound.reason === 'noRace') return fail(404, 'raceNotFound');
    if (bound.reason === 'forbidden') return fail(403, 'staffRaceForbidden');
    return fail(409, 'domainBoundElsewhere', { domain, race: bound.raceId });
  });

  scope.post<{ Body: { domain: string } }>(
    `${prefix}/domains/unbind`,
    { schema: { body: unbindBody } },
    async (request) => {
      const no = helpers.refused(request, 'race');
      if (no) return no;
      const domain = toBindableDomain(request.body.domain);
      if (domain === null) return fail(400, 'domainInvalid', { domain: request.body.domain.slice(0, 80) });
      const outcome = await unbindDomain(app.repos, domain, now(), {
        actor: actor(request),
        allowedRaces: allowed(request),
      });
      if (outcome.ok) return ok({ domain, raceId: outcome.raceId });
      if (outcome.reason === 'forbidden') return fail(403, 'staffRaceForbidden');
      return fail(404, 'domainNotBound', { domain });
    },
  );
}
