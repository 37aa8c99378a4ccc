/**
 * race-center: registration, score, PB, history and photo lookups, certificate verification and the Excel
 * export of results. Queries travel in POST bodies (never certificate numbers in URLs); certificate and
 * phone numbers only ever leave masked. Answers keyed by a bib are public (cached 60 s); answers keyed by a
 * certificate number are `no-store`. Per-IP limits: 60 lookups a minute (RATE_LIMITS=off disables them).
 * The registration lookup answers by query type (spec §3): 1 the status only; 2, 3 and 5 the registration
 * info (participant and orders) of a runner who registered through that channel (third-party, web, app).
 */
import type { FastifyInstance, FastifyReply, FastifySchemaValidationError } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { RegistrationRow, ResultRow, SplitRow } from '../../db/race-center-repository.ts';
import { AnswerCache, encodeAnswer, sendAnswer } from '../../lib/answer-cache.ts';
import type { HotAnswer } from '../../lib/hot-path.ts';
import { certificateSecret } from '../../lib/secrets.ts';
import { envelopeSchema, fail, MESSAGES, ok } from '../../lib/envelope.ts';
import {
  ageOn,
  CHANNEL_KEYS,
  formatDuration,
  formatPace,
  ITEMS,
  maskName,
  normalizeBib,
  normalizeName,
  REGISTRATION_QUERY_TYPES,
  REGISTRATION_STATUS_KEYS,
  signCertificate,
  type RegistrationChannel,
  type RegistrationQueryType,
  verifySignature,
} from '../../lib/race-center.ts';
import { LIMITS } from '../../plugins/rate-limit.ts';

const PUBLIC = 'public, max-age=60';
const PRIVATE = 'no-store';
export const EXPORT_ROW_CAP = 50_000;

const str = (max: number) => ({ type: 'string', minLength: 1, maxLength: max }) as const;
const raceId = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[\\w.-]+$' } as const;
const personKeys = { name: str(50), certificateNumber: str(32) } as const;

type ScoreQuery = { raceId: string; bib?: string; name?: string; certificateNumber?: string };

/** A string the route schemas' `str(max)` takes: UTF-16 length bounds code points from above. */
const plainString = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length >= 1 && value.length <= max;
const RACE_ID = /^[\w.-]{1,64}$/;

/**
 * The hot path's shapes (lib/hot-path.ts): exactly `{ raceId, bib }` or `{ raceId, name, certificateNumber }`,
 * checked no looser than the route schemas, so the hot path only ever answers what the route would have
 * answered the same way. Anything else goes through the route.
 */
function plainBibQuery(body: unknown): { raceId: string; bib: string } | undefined {
  const fields = plainFields(body, 2);
  return fields && plainString(fields.bib, 20) ? { raceId: fields.raceId, bib: fields.bib } : undefined;
}

function plainPersonQuery(body: unknown): ScoreQuery | undefined {
  const fields = plainFields(body, 3);
  return fields && plainString(fields.name, 50) && plainString(fields.certificateNumber, 32)
    ? { raceId: fields.raceId, name: fields.name, certificateNumber: fields.certificateNumber }
    : undefined;
}

/** An object of exactly `count` fields, one of them a valid raceId. */
function plainFields(body: unknown, count: number): (Record<string, unknown> & { raceId: string }) | undefined {
  if (typeof body !== 'object' || body === null || Object.keys(body).length !== count) return undefined;
  const fields = body as Record<string, unknown>;
  return typeof fields.raceId === 'string' && RACE_ID.test(fields.raceId)
    ? (fields as Record<string, unknown> & { raceId: string })
    : undefined;
}

const resultSchema = {
  type: 'object',
  properties: {
    raceId: { type: 'string' },
    raceName: { type: 'string' },
    raceNameEn: { type: 'string' },
    raceDate: { type: 'string' },
    bib: { type: 'string' },
    name: { type: 'string' },
    gender: { type: 'integer' },
    item: { type: 'string' },
    itemName: { type: 'string' },
    itemNameEn: { type: 'string' },
    distanceKm: { type: 'number' },
    gunTime: { type: 'string' },
    chipTime: { type: 'string' },
    gunMs: { type: 'integer' },
    chipMs: { type: 'integer' },
    pace: { type: 'string' },
    splits: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          checkpoint: { type: 'string' },
          distanceKm: { type: 'number' },
          time: { type: 'string' },
          split: { type: 'string' },
          pace: { type: 'string' },
        },
      },
    },
    ranks: {
      type: 'object',
      properties: {
        overall: { type: 'integer' },
        gender: { type: 'integer' },
        ageGroup: { type: 'integer' },
        ageGroupLabel: { type: 'string' },
        finishers: { type: 'integer' },
      },
    },
    certificate: { type: 'object', properties: { id: { type: 'string' }, sig: { type: 'string' } } },
  },
} as const;

/** A duration rounded to whole seconds, as formatDuration shows it. */
const wholeSeconds = (ms: number) => Math.round(ms / 1000) * 1000;

interface RaceFacts {
  raceName: string;
  raceNameEn: string;
  raceDate: string;
}

export default async function raceCenterRoutes(
  app: FastifyInstance,
  options: { env?: Record<string, string | undefined> },
) {
  const repo = app.repos.raceCenter;
  const secret = certificateSecret(app.config.dataDir, options.env ?? process.env);

  // Race names for the answers; races change rarely (the CLI), so a short-lived memo is enough.
  const raceCache = new Map<string, { at: number; facts: RaceFacts | undefined }>();
  const raceFacts = (id: string): RaceFacts | undefined => {
    const now = Date.now();
    const hit = raceCache.get(id);
    if (hit && now - hit.at < 60_000) return hit.facts;
    const race = app.repos.races.findById(id) as
      ({ raceName: string; raceNameEn?: string; startTime?: string } & Record<string, unknown>) | undefined;
    const facts = race
      ? { raceName: race.raceName, raceNameEn: race.raceNameEn ?? '', raceDate: (race.startTime ?? '').slice(0, 10) }
      : undefined;
    if (raceCache.size > 1000) raceCache.clear();
    raceCache.set(id, { at: now, facts });
    return facts;
  };

  const toResult = (row: ResultRow) => {
    const def = ITEMS[row.item];
    const race = raceFacts(row.race_id);
    const splits = (JSON.parse(row.splits_json) as SplitRow[]).map((s, i, all) => {
      const prev = i > 0 ? all[i - 1] : undefined;
      return {
        checkpoint: s.checkpoint,
        distanceKm: s.distanceKm,
        time: formatDuration(s.chipMs),
        // This segment's own time, from the shown (whole-second) cumulative times, so the splits add up.
        split: formatDuration(wholeSeconds(s.chipMs) - wholeSeconds(prev?.chipMs ?? 0)),
        pace: formatPace(s.chipMs - (prev?.chipMs ?? 0), s.distanceKm - (prev?.distanceKm ?? 0)),
      };
    });
    const facts = { raceId: row.race_id, bib: row.bib, name: row.name, item: row.item, chipMs: row.chip_ms };
    return {
      raceId: row.race_id,
      raceName: race?.raceName ?? row.race_id,
      raceNameEn: race?.raceNameEn ?? '',
      raceDate: race?.raceDate ?? '',
      bib: row.bib,
      name: row.name,
      gender: row.gender,
      item: row.item,
      itemName: def?.name ?? row.item,
      itemNameEn: def?.nameEn ?? row.item,
      distanceKm: def?.distanceKm ?? 0,
      gunTime: formatDuration(row.gun_ms),
      chipTime: formatDuration(row.chip_ms),
      gunMs: row.gun_ms,
      chipMs: row.chip_ms,
      pace: formatPace(row.chip_ms, def?.distanceKm ?? 0),
      splits,
      ranks: {
        overall: row.rank_overall,
        gender: row.rank_gender,
        ageGroup: row.rank_age_group,
        ageGroupLabel: row.age_group,
        finishers: row.finishers,
      },
      certificate: { id: `${row.race_id}:${row.bib}`, sig: signCertificate(secret, facts) },
    };
  };

  /** What every answer of the registration lookup says: race, status, item, bib and the channel. */
  const registrationFacts = (row: RegistrationRow) => {
    const race = raceFacts(row.race_id);
    const def = ITEMS[row.item];
    return {
      raceId: row.race_id,
      raceName: race?.raceName ?? row.race_id,
      raceNameEn: race?.raceNameEn ?? '',
      status: row.status,
      statusKey: REGISTRATION_STATUS_KEYS[row.status] ?? 'submitted',
      item: row.item,
      itemName: def?.name ?? row.item,
      itemNameEn: def?.nameEn ?? row.item,
      bib: row.bib ?? '',
      channel: row.channel,
      channelKey: CHANNEL_KEYS[row.channel as RegistrationChannel] ?? 'web',
      channelName: row.channel_name ?? '',
      channelNameEn: row.channel_name_en ?? '',
    };
  };

  /** Query type 1: the status, without the orders or the participant's other fields. */
  const toRegistrationStatus = (row: RegistrationRow) => ({
    queryType: 1,
    ...registrationFacts(row),
    participant: { name: maskName(row.name) },
  });

  /** Query types 2, 3, 5: the registration info, personal numbers masked. */
  const toRegistrationInfo = (row: RegistrationRow, queryType: RegistrationQueryType) => {
    const race = raceFacts(row.race_id);
    const age = ageOn(row.birthday, race?.raceDate || row.birthday);
    return {
      queryType,
      ...registrationFacts(row),
      participant: {
        name: row.name,
        gender: row.gender,
        certificateType: row.cert_type,
        certificateNumber: row.cert_masked,
        phone: row.phone_masked,
        emergencyName: row.emergency_name,
        emergencyPhone: row.emergency_phone_masked,
        birthday: row.birthday,
        age,
        adult: age >= 18,
      },
      orders: JSON.parse(row.orders_json) as unknown[],
    };
  };

  const byResultOrder = (a: ReturnType<typeof toResult>, b: ReturnType<typeof toResult>) =>
    b.raceDate.localeCompare(a.raceDate) || a.item.localeCompare(b.item);

  const lookup = { onRequest: app.rateLimit(LIMITS.lookup) };
  // Answers keyed by a bib are the same for everyone: serialized (and compressed) once per minute.
  const publicAnswers = new AnswerCache({ now: app.config.now });
  // Routes that send their answers through sendAnswer (encoded once per cached answer), past the compress plugin.
  const encodedLookup = { ...lookup, compress: false, decompress: false } as const;
  const privateAnswer = (reply: FastifyReply) => reply.header('cache-control', PRIVATE);

  app.post<{ Body: { raceId: string; name: string; certificateNumber: string; queryType: RegistrationQueryType } }>(
    API_PATHS.searchRegistration,
    {
      ...lookup,
      schema: {
        body: {
          type: 'object',
          required: ['raceId', 'name', 'certificateNumber'],
          properties: {
            raceId,
            ...personKeys,
            queryType: { type: 'integer', enum: [...REGISTRATION_QUERY_TYPES], default: 1 },
          },
        },
      },
      // One message that names the allowed query types, whatever was wrong with the one given.
      schemaErrorFormatter: (errors: FastifySchemaValidationError[], dataVar: string) =>
        new Error(
          errors.some((e) => e.instancePath === '/queryType')
            ? MESSAGES.badQueryType
            : errors.map((e) => `${dataVar}${e.instancePath} ${e.message ?? ''}`.trim()).join(', '),
        ),
    },
    async (request, reply) => {
      privateAnswer(reply);
      const { raceId: id, name, certificateNumber, queryType } = request.body;
      const row = repo.registration(id, repo.certHash(certificateNumber), normalizeName(name));
      if (!row) return fail(404, MESSAGES.registrationMissing);
      if (queryType === 1) return ok(toRegistrationStatus(row));
      // The info of one channel answers only for a registration made through it.
      if (row.channel !== queryType) return fail(404, MESSAGES.registrationMissing);
      return ok(toRegistrationInfo(row, queryType));
    },
  );

  /** A score lookup by bib (public, cached) or by name + certificate number (private); undefined: no key. */
  const scoreAnswer = (query: ScoreQuery): HotAnswer | undefined => {
    const { raceId: id, bib, name, certificateNumber } = query;
    if (bib !== undefined) {
      const b = normalizeBib(bib);
      const answer = publicAnswers.remember(`score\n${id}\n${b}`, () => {
        const row = repo.resultByBib(id, b);
        return row ? ok([toResult(row)]) : fail(404, MESSAGES.scoreMissing);
      });
      return { answer, cacheControl: PUBLIC };
    }
    if (name === undefined || certificateNumber === undefined) return undefined;
    const rows = repo.resultsByCert(repo.certHash(certificateNumber), normalizeName(name), id);
    const found = rows.length > 0 ? ok(rows.map(toResult)) : fail(404, MESSAGES.scoreMissing);
    return { answer: encodeAnswer(found), cacheControl: PRIVATE };
  };

  app.post<{ Body: ScoreQuery }>(
    API_PATHS.searchScore,
    {
      ...encodedLookup,
      schema: {
        body: { type: 'object', required: ['raceId'], properties: { raceId, bib: str(20), ...personKeys } },
      },
    },
    async (request, reply) => {
      const found = scoreAnswer(request.body);
      if (found === undefined)
        return reply.code(400).header('cache-control', PRIVATE).send(fail(400, MESSAGES.lookupNeedsKey));
      return sendAnswer(request, reply, found.answer, found.cacheControl);
    },
  );
  app.hotPath.post(API_PATHS.searchScore, {
    accept: (body) => plainBibQuery(body) ?? plainPersonQuery(body),
    answer: scoreAnswer,
    limit: app.rateLimitCounter(LIMITS.lookup),
  });

  app.post<{ Body: { name: string; certificateNumber: string } }>(
    API_PATHS.searchPb,
    {
      ...lookup,
      schema: { body: { type: 'object', required: ['name', 'certificateNumber'], properties: personKeys } },
    },
    async (request, reply) => {
      privateAnswer(reply);
      const rows = repo.resultsByCert(repo.certHash(request.body.certificateNumber), normalizeName(request.body.name));
      const best = new Map<string, ResultRow>();
      for (const row of rows) {
        const seen = best.get(row.item);
        if (!seen || row.chip_ms < seen.chip_ms) best.set(row.item, row);
      }
      if (best.size === 0) return fail(404, MESSAGES.scoreMissing);
      const order = Object.keys(ITEMS);
      const data = [...best.values()]
        .sort((a, b) => order.indexOf(a.item) - order.indexOf(b.item))
        .map((row) => {
          const r = toResult(row);
          return {
            item: r.item,
            itemName: r.itemName,
            itemNameEn: r.itemNameEn,
            chipTime: r.chipTime,
            chipMs: r.chipMs,
            pace: r.pace,
            raceId: r.raceId,
            raceName: r.raceName,
            raceNameEn: r.raceNameEn,
            raceDate: r.raceDate,
            bib: r.bib,
          };
        });
      return ok(data);
    },
  );

  app.post<{ Body: { name: string; certificateNumber: string; raceIds?: string[] } }>(
    API_PATHS.searchHistory,
    {
      ...lookup,
      schema: {
        body: {
          type: 'object',
          required: ['name', 'certificateNumber'],
          properties: { ...personKeys, raceIds: { type: 'array', maxItems: 50, items: raceId } },
        },
        response: { 200: envelopeSchema({ type: 'array', items: resultSchema }) },
      },
    },
    async (request, reply) => {
      privateAnswer(reply);
      const only = request.body.raceIds && request.body.raceIds.length > 0 ? new Set(request.body.raceIds) : null;
      const rows = repo
        .resultsByCert(repo.certHash(request.body.certificateNumber), normalizeName(request.body.name))
        .filter((row) => only === null || only.has(row.race_id));
      if (rows.length === 0) return fail(404, MESSAGES.scoreMissing);
      return ok(rows.map(toResult).sort(byResultOrder));
    },
  );

  /** The photos of a bib: public, cached. */
  const photosAnswer = ({ raceId: id, bib }: { raceId: string; bib: string }): HotAnswer => {
    const b = normalizeBib(bib);
    const answer = publicAnswers.remember(`photos\n${id}\n${b}`, () =>
      ok(repo.photos(id, b).map((p) => ({ url: p.url, takenAt: p.taken_at }))),
    );
    return { answer, cacheControl: PUBLIC };
  };

  app.post<{ Body: { raceId: string; bib: string } }>(
    API_PATHS.searchPhotos,
    {
      ...encodedLookup,
      schema: { body: { type: 'object', required: ['raceId', 'bib'], properties: { raceId, bib: str(20) } } },
    },
    async (request, reply) => {
      const found = photosAnswer(request.body);
      return sendAnswer(request, reply, found.answer, found.cacheControl);
    },
  );
  app.hotPath.post(API_PATHS.searchPhotos, {
    accept: plainBibQuery,
    answer: photosAnswer,
    limit: app.rateLimitCounter(LIMITS.lookup),
  });

  /**
   * The races of the organiser of `raceId` (same organizationId; the race itself when it has none) that have
   * results, latest first: the score page offers them, so a visitor of next year's site still finds last
   * year's result. Public, cached like the bib lookups.
   */
  const racesWithResultsAnswer = (id: string) =>
    publicAnswers.remember(`races-with-results\n${id}`, () => {
      const race = app.repos.races.findById(id);
      if (!race) return fail(404, MESSAGES.raceNotFound);
      const counts = repo.resultCountsByRace();
      const races = race.organizationId
        ? app.repos.races.list().filter((r) => r.organizationId === race.organizationId)
        : [race];
      return ok(
        races
          .filter((r) => counts.has(r.raceId))
          .map((r) => ({
            raceId: r.raceId,
            raceName: r.raceName,
            raceNameEn: r.raceNameEn ?? '',
            raceDate: (r.startTime ?? '').slice(0, 10),
            results: counts.get(r.raceId) ?? 0,
          }))
          .sort((a, b) => b.raceDate.localeCompare(a.raceDate) || a.raceId.localeCompare(b.raceId)),
      );
    });

  app.get<{ Querystring: { raceId: string } }>(
    API_PATHS.racesWithResults,
    {
      ...encodedLookup,
      schema: { querystring: { type: 'object', required: ['raceId'], properties: { raceId } } },
    },
    async (request, reply) => sendAnswer(request, reply, racesWithResultsAnswer(request.query.raceId), PUBLIC),
  );

  app.get<{ Querystring: { id: string; sig: string } }>(
    API_PATHS.certificateVerify,
    {
      onRequest: app.rateLimit(LIMITS.certificate),
      schema: {
        querystring: {
          type: 'object',
          required: ['id', 'sig'],
          properties: { id: { type: 'string', minLength: 3, maxLength: 90 }, sig: { type: 'string', maxLength: 100 } },
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', PUBLIC);
      const { id, sig } = request.query;
      const at = id.indexOf(':');
      const row = at > 0 ? repo.resultByBib(id.slice(0, at), normalizeBib(id.slice(at + 1))) : undefined;
      const facts = row && { raceId: row.race_id, bib: row.bib, name: row.name, item: row.item, chipMs: row.chip_ms };
      if (!row || !facts || !verifySignature(secret, facts, sig)) {
        return { code: 0, msg: MESSAGES.certificateInvalid, data: { valid: false } };
      }
      const r = toResult(row);
      return ok({
        valid: true,
        facts: {
          raceId: r.raceId,
          raceName: r.raceName,
          raceNameEn: r.raceNameEn,
          raceDate: r.raceDate,
          name: r.name,
          bib: r.bib,
          item: r.item,
          itemName: r.itemName,
          itemNameEn: r.itemNameEn,
          gunTime: r.gunTime,
          chipTime: r.chipTime,
          ranks: r.ranks,
        },
      });
    },
  );

  app.post<{ Body: { raceId: string; item?: string } }>(
    API_PATHS.exportScores,
    {
      onRequest: app.rateLimit(LIMITS.export),
      schema: {
        body: {
          type: 'object',
          required: ['raceId'],
          properties: { raceId, item: { type: 'string', enum: Object.keys(ITEMS) } },
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', PRIVATE);
      const rows = repo.resultsForExport(request.body.raceId, request.body.item, EXPORT_ROW_CAP);
      if (rows.length === 0) return fail(404, MESSAGES.noData);
      const name = `scores-${request.body.raceId}${request.body.item ? `-${request.body.item}` : ''}.xls`;
      return reply
        .header('content-type', 'application/vnd.ms-excel; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(spreadsheetXml(raceFacts(request.body.raceId)?.raceName ?? request.body.raceId, rows));
    },
  );
}

const xmlEscape = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

/** SpreadsheetML 2003: opens in Excel, WPS and LibreOffice without a library. No personal numbers. */
export function spreadsheetXml(title: string, rows: ResultRow[]): string {
  const head = [
    '项目',
    '号码',
    '姓名',
    '性别',
    '枪声成绩',
    '净成绩',
    '配速',
    '总排名',
    '性别排名',
    '年龄组',
    '年龄组排名',
  ];
  const cell = (v: string | number) =>
    typeof v === 'number'
      ? `<Cell><Data ss:Type="Number">${v}</Data></Cell>`
      : `<Cell><Data ss:Type="String">${xmlEscape(v)}</Data></Cell>`;
  const lines = rows.map((r) => {
    const def = ITEMS[r.item];
    return `<Row>${[
      def?.name ?? r.item,
      r.bib,
      r.name,
      r.gender === 2 ? '女' : r.gender === 1 ? '男' : '',
      formatDuration(r.gun_ms),
      formatDuration(r.chip_ms),
      formatPace(r.chip_ms, def?.distanceKm ?? 0),
      r.rank_overall,
      r.rank_gender,
      r.age_group,
      r.rank_age_group,
    ]
      .map(cell)
      .join('')}</Row>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<?mso-application progid="Excel.Sheet"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
<Worksheet ss:Name="${xmlEscape(title.slice(0, 31))}"><Table>
<Row>${head.map(cell).join('')}</Row>
${lines.join('\n')}
</Table></Worksheet></Workbook>
`;
}
