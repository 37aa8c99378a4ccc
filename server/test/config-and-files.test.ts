import { uploadKey } from '../src/lib/file-store.ts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, translationsPath } from '#contract/api';
import { buildTestApp, removeTempDirs } from './helpers.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp();
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('cloud config index', () => {
  it('serves the seed index as plain JSON with a short cache, ignoring the t query', async () => {
    for (const url of [
      API_PATHS.cloudConfigIndex,
      `${API_PATHS.cloudConfigIndex}?t=1718500000000`,
      '/config/cz/index.json',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.json()).toEqual({
        cloudType: 'aliyun',
        fileHost: '/files/',
        imageHost: '/files/',
        updatedAt: '2025-06-16',
      });
    }
  });
});

describe('translations', () => {
  it('serves a translation file as a plain key → { en, zh } map', async () => {
    const res = await get(`${translationsPath('common.json')}?t=1`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ 'common.ok': { en: 'OK', zh: '确定' } });
  });

  it('answers a 400 envelope for a name that is not a plain .json file name', async () => {
    for (const name of ['common.txt', 'common', '..%2F..%2Frace.json', 'a%20b.json', '%2Fetc%2Fpasswd']) {
      const res = await get(`${API_PATHS.translationsPrefix}${name}`);
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toMatchObject({ code: 400, data: null });
    }
  });

  it('answers a 404 envelope for a missing translation file', async () => {
    const res = await get(translationsPath('missing.json'));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 404,
      msg: 'No translation file named missing.json',
      data: null,
      msgCode: 'translationMissing',
      msgParams: { name: 'missing.json' },
    });
  });
});

describe('files', () => {
  it('serves demo images with their content type, a long cache and nosniff', async () => {
    const cases: [string, string][] = [
      ['logo.svg', 'image/svg+xml'],
      ['poster.png', 'image/png'],
      ['photo.webp', 'image/webp'],
      ['photo.jpg', 'image/jpeg'],
    ];
    for (const [name, type] of cases) {
      const res = await get(`${API_PATHS.filesPrefix}demo/${name}`);
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-type']).toContain(type);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toMatch(/max-age=\d{7,}/);
    }
  });

  it('serves uploaded files from the file store', async () => {
    await app.files.put(uploadKey('2025/a.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    const res = await get(`${API_PATHS.filesPrefix}2025/a.png`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
  });

  it('answers 404 envelopes for missing files, dot files and paths outside the roots', async () => {
    await app.files.put(uploadKey('.secret'), Buffer.from('x'));
    for (const url of [
      '/files/demo/missing.png',
      '/files/missing.png',
      '/files/.secret',
      '/files/../race-site.db',
      '/files/%2e%2e/race-site.db',
      '/files/2025/',
    ]) {
      const res = await get(url);
      expect([403, 404], url).toContain(res.statusCode);
      expect(res.json()).toMatchObject({ code: res.statusCode, data: null });
    }
  });
});
