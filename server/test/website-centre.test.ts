import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { validateSiteConfig } from '#contract/site-config/schema';
import { MESSAGES } from '#contract/messages';
import { buildTestApp, FIXTURE_RACE_ID, removeTempDirs } from './helpers.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp();
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const lookup = (domainName?: string) =>
  app.inject({
    method: 'GET',
    url: API_PATHS.siteConfigLookup,
    query: domainName === undefined ? {} : { domainName },
  });

describe('site config lookup', () => {
  it('answers the published document of the domain with its md5 and uri', async () => {
    const res = await lookup('localhost');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.msg).toBe('success');
    expect(body.data.domainName).toBe('localhost');
    expect(body.data.fileMd5).toMatch(/^[0-9a-f]{32}$/);
    expect(body.data.uri).toBe(`${API_PATHS.siteConfigFilesPrefix}${body.data.fileMd5}.json`);
  });

  it('serves at the uri exactly the bytes whose MD5 is fileMd5, as a valid site config', async () => {
    const { data } = (await lookup('localhost')).json();
    const doc = await app.inject({ method: 'GET', url: data.uri });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.headers['cache-control']).toContain('immutable');
    expect(createHash('md5').update(doc.rawPayload).digest('hex')).toBe(data.fileMd5);
    const parsed = doc.json();
    expect(parsed.code).toBeUndefined(); // the document itself, not an envelope
    expect(validateSiteConfig(parsed)).toEqual([]);
    expect(parsed.websiteTitle).toBe('2025 测试马拉松');
  });

  it('answers 304 when the browser already has the document', async () => {
    const { data } = (await lookup('localhost')).json();
    const res = await app.inject({ method: 'GET', url: data.uri, headers: { 'if-none-match': `"${data.fileMd5}"` } });
    expect(res.statusCode).toBe(304);
  });

  it('gives each bound domain its own document', async () => {
    const a = (await lookup('localhost')).json().data;
    const b = (await lookup('www.fixture-race.example')).json().data;
    expect(b.fileMd5).not.toBe(a.fileMd5);
  });

  it('normalises the host name (case, port, trailing dot)', async () => {
    const res = (await lookup('LocalHost:3000')).json();
    expect(res.code).toBe(0);
    expect(res.data.domainName).toBe('localhost');
  });

  it('answers the unbound-race message for a domain without a site config', async () => {
    const res = await lookup('unknown.example');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 404, msg: '未绑定赛事...', data: null, msgCode: 'unboundRace' });
  });

  it('says a bound domain has no published document, rather than that no race is bound', async () => {
    await app.repos.bindings.bind('unpublished.example', FIXTURE_RACE_ID, Date.now());
    try {
      const res = (await lookup('unpublished.example')).json();
      expect(res).toEqual({ code: 404, msg: MESSAGES.unpublishedConfig, data: null, msgCode: 'unpublishedConfig' });
      expect(res.msg).not.toBe(MESSAGES.unboundRace);
    } finally {
      await app.repos.bindings.unbind('unpublished.example');
    }
  });

  it('answers a 400 envelope when domainName is missing, empty or not a host name', async () => {
    for (const value of [undefined, '', 'not a host', 'a/b', 'x'.repeat(300)]) {
      const res = await lookup(value);
      expect(res.statusCode, String(value)).toBe(400);
      const body = res.json();
      expect(body.code).toBe(400);
      expect(body.data).toBeNull();
      expect(body.msg.length).toBeGreaterThan(0);
    }
  });

  it('answers a 404 envelope for an unknown or malformed document name', async () => {
    for (const name of ['0123456789abcdef0123456789abcdef.json', 'nothing.json', '..%2Frace-site.db']) {
      const res = await app.inject({ method: 'GET', url: `${API_PATHS.siteConfigFilesPrefix}${name}` });
      expect(res.statusCode, name).toBe(404);
      expect(res.json()).toMatchObject({ code: 404, data: null });
    }
  });
});

describe('race by domain', () => {
  const byDomain = (domainName: string) =>
    app.inject({ method: 'GET', url: API_PATHS.raceByDomain, query: { domainName } });

  it('answers the race bound to the domain', async () => {
    const res = await byDomain('localhost');
    expect(res.json()).toEqual({ code: 0, msg: 'success', data: { raceId: FIXTURE_RACE_ID, domainName: 'localhost' } });
  });

  it('answers data null when no race is bound; 127.0.0.1 is never bound', async () => {
    for (const domainName of ['127.0.0.1', '::1', '[::1]', 'unbound.example']) {
      const res = await byDomain(domainName);
      expect(res.statusCode).toBe(200);
      expect(res.json(), domainName).toEqual({ code: 0, msg: 'success', data: null });
    }
  });

  it('answers a 400 envelope without domainName', async () => {
    const res = await app.inject({ method: 'GET', url: API_PATHS.raceByDomain });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, data: null });
    expect(res.json().msg).toContain('domainName');
  });
});

describe('race base info', () => {
  const baseInfo = (payload: unknown, contentType = 'application/json') =>
    app.inject({
      method: 'POST',
      url: API_PATHS.raceBaseInfo,
      headers: { 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('answers the race information, imgDetail included', async () => {
    const res = await baseInfo({ raceId: FIXTURE_RACE_ID });
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({
      raceId: FIXTURE_RACE_ID,
      raceName: '2025 测试马拉松',
      raceNameEn: '2025 Fixture Marathon',
      imgDetail: '/files/demo/poster.png,/files/demo/route.svg',
      startTime: '2025-11-02 07:30:00',
      raceStatus: 1,
    });
  });

  it('answers a non-zero code with a message for an unknown race', async () => {
    const res = await baseInfo({ raceId: 'no-such-race' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 404, msg: 'Race not found', data: null, msgCode: 'raceNotFound' });
  });

  it('answers 400 envelopes for a body without raceId, an empty body or broken JSON — never a 500', async () => {
    const cases: [unknown, string?][] = [
      [{}],
      [{ raceId: '' }],
      [''],
      ['{"raceId": '],
      ['[1,2]'],
      ['null'],
      ['raceId=x', 'text/plain'],
    ];
    for (const [payload, type] of cases) {
      const res = await baseInfo(payload, type);
      expect(res.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, JSON.stringify(payload)).toBeLessThan(500);
      const body = res.json();
      expect(body.code).toBe(res.statusCode);
      expect(body.data).toBeNull();
      expect(typeof body.msg).toBe('string');
    }
  });

  it('refuses prototype-poisoning bodies with a 400 envelope', async () => {
    const res = await baseInfo('{"raceId":"x","__proto__":{"polluted":true}}');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
  });
});
