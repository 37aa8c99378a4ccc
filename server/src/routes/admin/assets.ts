/**
 * The console's asset library (issue 33 §1), for staff with 'site' in the race: the race's images and
 * documents with what uses each, add (the file base64 in JSON, as the imports page sends it), replace (same
 * name, new bytes) and remove (refused while used). The same service as the CLI's asset-add, asset-list,
 * asset-replace and asset-remove (services/organiser/event-assets.ts), which writes asset.add, asset.replace
 * and asset.remove to the audit log.
 */
import type { FastifyInstance } from 'fastify';
import { ASSET_LIMITS, assetName } from '#contract/assets';
import { fail, ok } from '../../lib/envelope.ts';
import {
  addAsset,
  listAssets,
  removeAsset,
  replaceAsset,
  type AssetRefusal,
} from '../../services/organiser/event-assets.ts';
import type { ConsoleRouteHelpers } from './scope.ts';

/** The base64 of the largest document, and a body a little bigger (its name beside it). */
const BASE64_MAX = Math.ceil((ASSET_LIMITS.fileBytes * 4) / 3) + 4;
const BODY_LIMIT = BASE64_MAX + 16 * 1024;

const raceId = { type: 'string', minLength: 1, maxLength: 64 } as const;
const raceParams = { type: 'object', required: ['raceId'], properties: { raceId } } as const;
const nameParams = {
  type: 'object',
  required: ['raceId', 'name'],
  properties: { raceId, name: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;
const content = { type: 'string', maxLength: BASE64_MAX } as const;
const addBody = {
  type: 'object',
  required: ['content'],
  properties: {
    /** The file's bytes, base64. */
    content,
    /** The chosen file's name: the asset's name unless `name` is given. */
    fileName: { type: 'string', maxLength: 300 },
    name: { type: 'string', maxLength: 200 },
  },
} as const;
const replaceBody = { type: 'object', required: ['content'], properties: { content } } as const;

const refusal = (outcome: AssetRefusal) => fail(outcome.status, outcome.code, outcome.params);

export function assetsRoutes(scope: FastifyInstance, app: FastifyInstance, helpers: ConsoleRouteHelpers) {
  const { prefix, refused, actor } = helpers;
  const url = `${prefix}/races/:raceId/assets`;
  const now = () => app.config.now();

  scope.get<{ Params: { raceId: string } }>(url, { schema: { params: raceParams } }, async (request) => {
    const no = refused(request, 'site', request.params.raceId);
    if (no) return no;
    const listed = await listAssets(app.repos, app.files, request.params.raceId);
    return listed.ok ? ok({ assets: listed.assets }) : refusal(listed);
  });

  scope.post<{ Params: { raceId: string }; Body: { content: string; fileName?: string; name?: string } }>(
    url,
    { schema: { params: raceParams, body: addBody }, bodyLimit: BODY_LIMIT },
    async (request) => {
      const no = refused(request, 'site', request.params.raceId);
      if (no) return no;
      const { content: base64, fileName, name } = request.body;
      const added = await addAsset(app.repos, app.files, {
        raceId: request.params.raceId,
        name: name?.trim() || assetName(fileName ?? ''),
        bytes: Buffer.from(base64, 'base64'),
        actor: actor(request),
        now: now(),
      });
      return added.ok ? ok(added.asset) : refusal(added);
    },
  );

  scope.post<{ Params: { raceId: string; name: string }; Body: { content: string } }>(
    `${url}/:name/replace`,
    { schema: { params: nameParams, body: replaceBody }, bodyLimit: BODY_LIMIT },
    async (request) => {
      const no = refused(request, 'site', request.params.raceId);
      if (no) return no;
      const replaced = await replaceAsset(app.repos, app.files, {
        raceId: request.params.raceId,
        name: request.params.name,
        bytes: Buffer.from(request.body.content, 'base64'),
        actor: actor(request),
        now: now(),
      });
      return replaced.ok ? ok(replaced.asset) : refusal(replaced);
    },
  );

  scope.post<{ Params: { raceId: string; name: string } }>(
    `${url}/:name/remove`,
    { schema: { params: nameParams } },
    async (request) => {
      const no = refused(request, 'site', request.params.raceId);
      if (no) return no;
      const removed = await removeAsset(app.repos, app.files, {
        raceId: request.params.raceId,
        name: request.params.name,
        actor: actor(request),
        now: now(),
      });
      return removed.ok ? ok({ name: request.params.name }) : refusal(removed);
    },
  );
}
