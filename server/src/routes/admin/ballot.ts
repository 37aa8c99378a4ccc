/**
 * The console's ballot and bib calls (issue 32), for staff with 'season' (owners): a race's ballot items with
 * their rounds, the server's re-run of each revealed draw and the wait list; commit, draw and reveal; a race's
 * bibs per item, a series' preview and its assignment. Each action is the CLI's own service (ballot-commit,
 * ballot-draw, ballot-reveal: services/entry/ballot.ts; bibs-assign: services/entry/bibs.ts), with the same
 * refusals (message codes, zh and en) and the same audit records (ballot.commit, ballot.draw, ballot.reveal,
 * bibs.assign). Registered inside the console's session scope (routes/admin/index.ts), which checks the CSRF
 * header of every changing call.
 */
import type { FastifyInstance } from 'fastify';
import { BEACON_MAX } from '#contract/console-ballot';
import { ITEM_CODE_PATTERN } from '#contract/entry';
import { fail, ok } from '../../lib/envelope.ts';
import { ballotView, bibsView, raceItemState } from '../../services/console/ballot.ts';
import { commitBallot, drawRound, revealBallot, type BallotOutcome } from '../../services/entry/ballot.ts';
import {
  assignBibs,
  BIB_SERIES,
  previewBibs,
  seriesProblem,
  type BibSeries,
  type BibsRefusal,
} from '../../services/entry/bibs.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

const raceParams = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const itemParams = {
  type: 'object',
  required: ['raceId', 'itemCode'],
  properties: {
    raceId: { type: 'string', minLength: 1, maxLength: 64 },
    itemCode: { type: 'string', pattern: ITEM_CODE_PATTERN.source },
  },
} as const;
/** Beacon texts are checked by hand (ballotBeaconInvalid); the schema only keeps the body small. */
const beaconText = { type: 'string', maxLength: BEACON_MAX * 4 } as const;
const roundProperty = { type: 'integer', minimum: 1, maximum: 999 } as const;
const commitBody = { type: 'object', properties: { beacon: beaconText } } as const;
const drawBody = { type: 'object', properties: { round: roundProperty, beaconValue: beaconText } } as const;
const revealBody = { type: 'object', properties: { round: roundProperty } } as const;
const seriesBody = {
  type: 'object',
  required: ['prefix', 'from', 'width'],
  properties: {
    prefix: { type: 'string', maxLength: 40 },
    from: { type: 'number' },
    width: { type: 'number' },
  },
} as const;

type ItemParams = { raceId: string; itemCode: string };
type SeriesBody = { prefix: string; from: number; width: number };

const answer = <T>(outcome: BallotOutcome<T>) =>
  outcome.ok ? ok(outcome.value) : fail(409, outcome.code, outcome.params);

/** A beacon text as given (undefined: none), or false when it is blank or too long. */
function beaconOf(value: string | undefined): string | undefined | false {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return value === '' ? undefined : false;
  return text.length > BEACON_MAX ? false : text;
}

const bibsRefusal = (refusal: BibsRefusal, width: number) => {
  switch (refusal.reason) {
    case 'otherItem':
      return fail(409, 'bibsOtherItem', { bib: refusal.bib, item: refusal.itemCode });
    case 'tooWide':
      return fail(409, 'bibsTooWide', { bib: refusal.bib, width });
    case 'conflict':
      return fail(409, 'bibsConflict');
  }
};

export function ballotRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, refused, actor } = helpers;
  const now = () => app.config.now();

  scope.get<{ Params: { raceId: string } }>(
    `${prefix}/races/:raceId/ballot`,
    { schema: { params: raceParams } },
    async (request) => {
      const no = refused(request, 'season', request.params.raceId);
      if (no) return no;
      const view = await ballotView(app.repos, request.params.raceId, now());
      return view ? ok(view) : fail(404, 'raceNotFound');
    },
  );

  scope.post<{ Params: ItemParams; Body: { beacon?: string } }>(
    `${prefix}/races/:raceId/ballot/:itemCode/commit`,
    { schema: { params: itemParams, body: commitBody } },
    async (request) => {
      const { raceId, itemCode } = request.params;
      const no = refused(request, 'season', raceId);
      if (no) return no;
      const beacon = beaconOf(request.body?.beacon);
      if (beacon === false) return fail(400, 'ballotBeaconInvalid', { max: BEACON_MAX });
      return answer(await commitBallot(app.repos, { raceId, itemCode, beacon, now: now(), actor: actor(request) }));
    },
  );

  scope.post<{ Params: ItemParams; Body: { round?: number; beaconValue?: string } }>(
    `${prefix}/races/:raceId/ballot/:itemCode/draw`,
    { schema: { params: itemParams, body: drawBody } },
    async (request) => {
      const { raceId, itemCode } = request.params;
      const no = refused(request, 'season', raceId);
      if (no) return no;
      const beaconValue = beaconOf(request.body?.beaconValue);
      if (beaconValue === false) return fail(400, 'ballotBeaconInvalid', { max: BEACON_MAX });
      return answer(
        await drawRound(
          app.repos,
          { raceId, itemCode, round: request.body?.round, beaconValue, now: now(), actor: actor(request) },
          app.payments,
        ),
      );
    },
  );

  scope.post<{ Params: ItemParams; Body: { round?: number } }>(
    `${prefix}/races/:raceId/ballot/:itemCode/reveal`,
    { schema: { params: itemParams, body: revealBody } },
    async (request) => {
      const { raceId, itemCode } = request.params;
      const no = refused(request, 'season', raceId);
      if (no) return no;
      return answer(
        await revealBallot(app.repos, {
          raceId,
          itemCode,
          round: request.body?.round,
          now: now(),
          actor: actor(request),
        }),
      );
    },
  );

  scope.get<{ Params: { raceId: string } }>(
    `${prefix}/races/:raceId/bibs`,
    { schema: { params: raceParams } },
    async (request) => {
      const no = refused(request, 'season', request.params.raceId);
      if (no) return no;
      const view = await bibsView(app.repos, request.params.raceId);
      return view ? ok(view) : fail(404, 'raceNotFound');
    },
  );

  /** The series of a call, or its refusal (the item must be the race's; prefix, first number, width allowed). */
  async function seriesOf(params: ItemParams, body: SeriesBody) {
    const state = await raceItemState(app.repos, params.raceId, params.itemCode);
    if (state === 'noRace') return fail(404, 'raceNotFound');
    if (state === 'noItem') return fail(404, 'ballotNoItem', { item: params.itemCode });
    const series: BibSeries = {
      raceId: params.raceId,
      itemCode: params.itemCode,
      prefix: body.prefix.trim().toUpperCase(),
      from: body.from,
      width: body.width,
      now: now(),
    };
    switch (seriesProblem(series)) {
      case 'prefix':
        return fail(400, 'bibsPrefixInvalid', { max: 10 });
      case 'from':
        return fail(400, 'bibsFromInvalid', { min: BIB_SERIES.from.min, max: BIB_SERIES.from.max });
      case 'width':
        return fail(400, 'bibsWidthInvalid', { min: BIB_SERIES.width.min, max: BIB_SERIES.width.max });
      case null:
        return series;
    }
  }

  scope.post<{ Params: ItemParams; Body: SeriesBody }>(
    `${prefix}/races/:raceId/bibs/:itemCode/preview`,
    { schema: { params: itemParams, body: seriesBody } },
    async (request) => {
      const no = refused(request, 'season', request.params.raceId);
      if (no) return no;
      const series = await seriesOf(request.params, request.body);
      if ('code' in series) return series;
      const preview = await previewBibs(app.repos, series);
      if (!preview.ok) return bibsRefusal(preview, series.width);
      return ok({ count: preview.count, first: preview.first, last: preview.last });
    },
  );

  scope.post<{ Params: ItemParams; Body: SeriesBody }>(
    `${prefix}/races/:raceId/bibs/:itemCode/assign`,
    { schema: { params: itemParams, body: seriesBody } },
    async (request) => {
      const no = refused(request, 'season', request.params.raceId);
      if (no) return no;
      const series = await seriesOf(request.params, request.body);
      if ('code' in series) return series;
      const outcome = await assignBibs(app.repos, { ...series, actor: actor(request) });
      if (!outcome.ok) return bibsRefusal(outcome, series.width);
      if (outcome.given.length === 0) return fail(409, 'bibsNoneAwaiting');
      const { given } = outcome;
      return ok({ count: given.length, first: given[0]!.bib, last: given.at(-1)!.bib });
    },
  );
}
