/**
 * The console's results and photos imports (issue 32 §1), for staff with 'results' in the race: a preview of
 * a file (nothing written: the first rows as they will be written, every bad row by its line), the import
 * itself (the CLI's import-results / import-photos: nothing written when any row is bad; recorded in the audit
 * log) and the race's history of imports. The file comes base64 in JSON, as reconciliation's bill does.
 */
import type { FastifyInstance } from 'fastify';
import { IMPORT_FILE_MAX_BYTES, isConsoleImportKind, type ConsoleImportKind } from '#contract/console-imports';
import { fail, ok } from '../../lib/envelope.ts';
import { importHistory, importRaceExists, previewImport, runImportFile } from '../../services/console/imports.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

const BASE64_MAX = Math.ceil((IMPORT_FILE_MAX_BYTES * 4) / 3) + 4;
const raceId = { type: 'string', minLength: 1, maxLength: 64 } as const;
const raceParams = { type: 'object', required: ['raceId'], properties: { raceId } } as const;
const kindParams = {
  type: 'object',
  required: ['raceId', 'kind'],
  properties: { raceId, kind: { type: 'string', maxLength: 16 } },
} as const;
const fileBody = {
  type: 'object',
  required: ['content'],
  properties: {
    /** The file's bytes, base64. */
    content: { type: 'string', maxLength: BASE64_MAX },
    fileName: { type: 'string', maxLength: 200 },
  },
} as const;

type FileRequest = { Params: { raceId: string; kind: string }; Body: { content: string; fileName?: string } };

/** The file's text (UTF-8, a byte-order mark dropped), or undefined when it is not UTF-8 text. */
function fileText(content: string): string | undefined {
  const bytes = Buffer.from(content, 'base64');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** A file name as the audit log keeps it: its last part, plain characters only. */
const cleanName = (name: string | undefined) =>
  name === undefined
    ? undefined
    : name
        .split(/[\\/]/)
        .pop()!
        .replace(/[^\p{L}\p{N} ._()-]/gu, '_')
        .slice(0, 120);

export function importsRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, refused, actor } = helpers;
  const url = `${prefix}/races/:raceId/imports`;
  const now = () => app.config.now();
  const options = { schema: { params: kindParams, body: fileBody }, bodyLimit: BASE64_MAX + 4096 };

  /** The race and kind of a call, or its refusal. */
  const checked = async (request: { params: { raceId: string; kind: string } }) => {
    if (!isConsoleImportKind(request.params.kind)) return fail(404, 'staffBadQuery', { field: 'kind' });
    if (!(await importRaceExists(app.repos, request.params.raceId))) return fail(404, 'raceNotFound');
    return request.params.kind as ConsoleImportKind;
  };

  scope.get<{ Params: { raceId: string } }>(url, { schema: { params: raceParams } }, async (request) => {
    const no = refused(request, 'results', request.params.raceId);
    if (no) return no;
    if (!(await importRaceExists(app.repos, request.params.raceId))) return fail(404, 'raceNotFound');
    return ok(await importHistory(app.repos, request.params.raceId));
  });

  scope.post<FileRequest>(`${url}/:kind/preview`, options, async (request) => {
    const no = refused(request, 'results', request.params.raceId);
    if (no) return no;
    const kind = await checked(request);
    if (typeof kind !== 'string') return kind;
    const text = fileText(request.body.content);
    if (text === undefined) return fail(400, 'importFileUnreadable');
    return ok(await previewImport(app.repos, kind, request.params.raceId, text));
  });

  scope.post<FileRequest>(`${url}/:kind`, options, async (request, reply) => {
    const no = refused(request, 'results', request.params.raceId);
    if (no) return no;
    const kind = await checked(request);
    if (typeof kind !== 'string') return kind;
    const text = fileText(request.body.content);
    if (text === undefined) return fail(400, 'importFileUnreadable');
    const fileName = cleanName(request.body.fileName);
    const outcome = await runImportFile(app.repos, {
      kind,
      raceId: request.params.raceId,
      text,
      ...(fileName === undefined ? {} : { fileName }),
      actor: actor(request),
      now: now(),
    });
    if (!outcome.ok) {
      // The problems with the refusal, for the page to show by line (the envelope's data).
      void reply.code(400);
      return { ...fail(400, 'importBadRows'), data: { problems: outcome.problems } };
    }
    return ok(outcome.done);
  });
}
