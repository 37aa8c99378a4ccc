/**
 * /config: static configuration files of the demo event (spec §7) — the cloud config index and the
 * translation files. They are plain JSON, not envelopes; errors are envelopes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_PATHS } from '#contract/api';
import type { MessageCode, MessageParams } from '#contract/messages';
import { HttpError } from '../../lib/envelope.ts';

/** The cloud config index in the seed directory. */
export const CLOUD_CONFIG_FILE = 'cloud-config.json';
export const I18N_DIR = 'i18n';
const TRANSLATION_NAME = /^[\w.-]+\.json$/;
const SHORT_CACHE = 'public, max-age=60';

async function sendJsonFile(
  reply: FastifyReply,
  file: string,
  notFound: { code: MessageCode; params?: MessageParams },
) {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR') throw new HttpError(404, notFound.code, notFound.params);
    throw error;
  }
  return reply.header('cache-control', SHORT_CACHE).type('application/json; charset=utf-8').send(bytes);
}

export default async function configRoutes(app: FastifyInstance) {
  // The `t` (timestamp) query the SPA adds to defeat caches is accepted and ignored.
  const cloudConfig = async (_request: unknown, reply: FastifyReply) =>
    sendJsonFile(reply, path.join(app.config.seedDir, CLOUD_CONFIG_FILE), { code: 'cloudConfigMissing' });
  app.get(API_PATHS.cloudConfigIndex, cloudConfig);
  app.get(`${API_PATHS.cloudConfigIndex}index.json`, cloudConfig);

  app.get<{ Params: { name: string } }>(`${API_PATHS.translationsPrefix}:name`, async (request, reply) => {
    const { name } = request.params;
    if (!TRANSLATION_NAME.test(name)) {
      throw new HttpError(400, 'badTranslationName');
    }
    return sendJsonFile(reply, path.join(app.config.seedDir, I18N_DIR, name), {
      code: 'translationMissing',
      params: { name },
    });
  });
}
