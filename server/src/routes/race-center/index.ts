/**
 * race-center: registration, score, PB, history and photo lookups, certificate verification and the Excel
 * export of results. Queries travel in POST bodies (never certificate numbers in URLs); certificate and
 * phone numbers only ever leave masked. Answers keyed by a bib are public (cached 60 s); answers keyed by a
 * certificate number are `no-store`. Per-IP limits: 60 lookups a minute (RATE_LIMITS=off disables them).
 * The registration lookup answers by query type (spec §3): 1 the status only; 2, 3 and 5 the registration
 * info (participant and orders) of a runner who registered through that channel (third-party, web, app).
 *
 * These routes parse the request and answer; the rules are services/race-center/race-center-service.ts's,
 * the hot path's shape checks hot-path-shapes.ts's, the schemas schemas.ts's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { API_PATHS } from '#contract/api';
import { AnswerCache, encodeAnswer, sendAnswer, type EncodedAnswer } from '../../lib/answer-cache.ts';
import type { HotAnswer } from '../../lib/hot-path.ts';
import { messageText } from '#contract/messages';
import type { ExportLanguage } from '#contract/score-export';
import { envelopeSchema, fail, HttpError, ok } from '../../lib/envelope.ts';
import { normalizeBib, type RegistrationQueryType } from '../../lib/race-center.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';
import { watchDataVersions } from '../../services/race-center/data-versions.ts';
import { raceCenterServiceOn } from '../../services/race-center/race-center-service.ts';
import {
  lookupRefusal,
  plainBibQuery,
  plainBibText,
  plainPersonQuery,
  type BibQuery,
  type ScoreQuery,
} from './hot-path-shapes.ts';
import {
  certificateQuery,
  exportBody,
  historyBody,
  personBody,
  photosBody,
  raceIdQuery,
  registrationBody,
  resultSchema,
  scoreBody,
} from './schemas.ts';

const PUBLIC = 'public, max-age=60';
/**
 * The longest a cached public answer is kept: a backstop for a change made to the database by hand. Every
 * change the server or the CLI makes raises the race's data version, and drops the cache sooner.
 */
const PUBLIC_ANSWER_TTL_MS = 15 * 60_000;

const PRIVATE = 'no-store';

/** A public cached answer as the hot path sends it: at once on a cache hit, a promise on a miss. */
const publicHotAnswer = (answer: EncodedAnswer | Promise<EncodedAnswer>): HotAnswer | Promise<HotAnswer> =>
  answer instanceof Promise
    ? answer.then((made) => ({ answer: made, cacheControl: PUBLIC }))
    : { answer, cacheControl: PUBLIC };

/**
 * The contract's rules on a lookup body's bib and name (hot-path-shapes.ts `lookupRefusal`): a refusal is a
 * business rejection (HTTP 200, envelope code 400 and the rule's message code), as the user-center answers.
 */
async function refuseByRules(request: FastifyRequest, reply: FastifyReply) {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return;
  const refusal = lookupRefusal(body);
  if (refusal) return reply.header('cache-control', PRIVATE).send(fail(400, refusal.code, refusal.params));
}

export default async function raceCenterRoutes(app: FastifyInstance) {
  const service = raceCenterServiceOn(app.repos, { certificateSecret: app.secrets.cert, now: app.config.now });

  const lookup = { onRequest: app.rateLimit(LIMITS.lookup), preHandler: refuseByRules };
  // Answers keyed by a bib are the same for everyone: serialized (and compressed) once, and kept until the
  // data behind them changes (watchDataVersions) or, at the latest, PUBLIC_ANSWER_TTL_MS.
  const publicAnswers = new AnswerCache({ now: app.config.now, ttlMs: PUBLIC_ANSWER_TTL_MS, maxEntries: 100_000 });
  const stopWatching = await watchDataVersions(app.repos, app.config.dataVersionPollMs, () => publicAnswers.clear());
  app.addHook('onClose', async () => stopWatching());
  // Routes that send their answers through sendAnswer (encoded once per cached answer), past the compress plugin.
  const encodedLookup = { ...lookup, compress: false, decompress: false } as const;
  const privateAnswer = (reply: FastifyReply) => reply.header('cache-control', PRIVATE);

  app.post<{ Body: { raceId: string; name: string; certificateNumber: string; queryType: RegistrationQueryType } }>(
    API_PATHS.searchRegistration,
    {
      ...lookup,
      schema: { body: registrationBody },
      // One message that names the allowed query types, whatever was wrong with the one given.
      schemaErrorFormatter: (errors: FastifySchemaValidationError[], dataVar: string) =>
        errors.some((e) => e.instancePath === '/queryType')
          ? new HttpError(400, 'badQueryType')
          : new Error(errors.map((e) => `${dataVar}${e.instancePath} ${e.message ?? ''}`.trim()).join(', ')),
    },
    async (request, reply) => {
      privateAnswer(reply);
      const { raceId, queryType, ...person } = request.body;
      const found = await service.registration(raceId, person, queryType);
      return found ? ok(found) : fail(404, 'registrationMissing');
    },
  );

  /** A score lookup by bib (public, cached) or by name + certificate number (private); undefined: no key. */
  const scoreAnswer = (query: ScoreQuery): HotAnswer | undefined | Promise<HotAnswer> => {
    const { raceId, bib, name, certificateNumber } = query;
    if (bib !== undefined) {
      const answer = publicAnswers.remember(`score\n${raceId}\n${normalizeBib(bib)}`, async () => {
        const found = await service.scoreByBib(raceId, bib);
        return found ? ok(found) : fail(404, 'scoreMissing');
      });
      return publicHotAnswer(answer);
    }
    if (name === undefined || certificateNumber === undefined) return undefined;
    return service.scoreOf(raceId, { name, certificateNumber }).then((found) => ({
      answer: encodeAnswer(found.length > 0 ? ok(found) : fail(404, 'scoreMissing')),
      cacheControl: PRIVATE,
    }));
  };

  app.post<{ Body: ScoreQuery }>(
    API_PATHS.searchScore,
    { ...encodedLookup, schema: { body: scoreBody } },
    async (request, reply) => {
      const found = await scoreAnswer(request.body);
      if (found === undefined)
        return reply.code(400).header('cache-control', PRIVATE).send(fail(400, 'lookupNeedsKey'));
      return sendAnswer(request, reply, found.answer, found.cacheControl);
    },
  );
  app.hotPath.post(API_PATHS.searchScore, {
    accept: (body) => plainBibQuery(body) ?? plainPersonQuery(body),
    acceptText: plainBibText,
    answer: scoreAnswer,
    limit: app.rateLimitCounter(LIMITS.lookup),
    kept: { cache: publicAnswers, cacheControl: PUBLIC },
  });

  app.post<{ Body: { name: string; certificateNumber: string } }>(
    API_PATHS.searchPb,
    { ...lookup, schema: { body: personBody } },
    async (request, reply) => {
      privateAnswer(reply);
      const best = await service.personalBests(request.body);
      return best.length > 0 ? ok(best) : fail(404, 'scoreMissing');
    },
  );

  app.post<{ Body: { name: string; certificateNumber: string; raceIds?: string[] } }>(
    API_PATHS.searchHistory,
    {
      ...lookup,
      schema: { body: historyBody, response: { 200: envelopeSchema({ type: 'array', items: resultSchema }) } },
    },
    async (request, reply) => {
      privateAnswer(reply);
      const { raceIds, ...person } = request.body;
      const results = await service.history(person, raceIds);
      return results.length > 0 ? ok(results) : fail(404, 'scoreMissing');
    },
  );

  /** The photos of a bib: public, cached. */
  const photosAnswer = ({ raceId, bib }: BibQuery): HotAnswer | Promise<HotAnswer> => {
    const answer = publicAnswers.remember(`photos\n${raceId}\n${normalizeBib(bib)}`, async () =>
      ok(await service.photos(raceId, bib)),
    );
    return publicHotAnswer(answer);
  };

  app.post<{ Body: BibQuery }>(
    API_PATHS.searchPhotos,
    { ...encodedLookup, schema: { body: photosBody } },
    async (request, reply) => {
      const found = await photosAnswer(request.body);
      return sendAnswer(request, reply, found.answer, found.cacheControl);
    },
  );
  app.hotPath.post(API_PATHS.searchPhotos, {
    accept: plainBibQuery,
    acceptText: plainBibText,
    answer: photosAnswer,
    limit: app.rateLimitCounter(LIMITS.lookup),
    kept: { cache: publicAnswers, cacheControl: PUBLIC },
  });

  /** The organiser's races with results (service.racesWithResults): public, cached like the bib lookups. */
  const racesWithResultsAnswer = (raceId: string) =>
    publicAnswers.remember(`races-with-results\n${raceId}`, async () => {
      const races = await service.racesWithResults(raceId);
      return races ? ok(races) : fail(404, 'raceNotFound');
    });

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.racesWithResults,
    { ...encodedLookup, schema: { querystring: raceIdQuery } },
    async (request, reply) => sendAnswer(request, reply, await racesWithResultsAnswer(request.query.raceId), PUBLIC),
  );

  app.get<{ Querystring: { id: string; sig: string } }>(
    API_PATHS.certificateVerify,
    { onRequest: app.rateLimit(LIMITS.certificate), schema: { querystring: certificateQuery } },
    async (request, reply) => {
      reply.header('cache-control', PUBLIC);
      const facts = await service.verifyCertificate(request.query.id, request.query.sig);
      if (!facts)
        return {
          code: 0,
          msg: messageText('certificateInvalid'),
          msgCode: 'certificateInvalid',
          data: { valid: false },
        };
      return ok({ valid: true, facts });
    },
  );

  app.post<{ Body: { raceId: string; item?: string; language?: ExportLanguage } }>(
    API_PATHS.exportScores,
    { onRequest: app.rateLimit(LIMITS.export), schema: { body: exportBody } },
    async (request, reply) => {
      reply.header('cache-control', PRIVATE);
      const { raceId, item, language } = request.body;
      const sheet = await service.scoreSheet(raceId, item, language);
      if (sheet === undefined) return fail(404, 'noData');
      const name = `scores-${raceId}${item ? `-${item}` : ''}.xls`;
      return reply
        .header('content-type', 'application/vnd.ms-excel; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(sheet);
    },
  );
}
