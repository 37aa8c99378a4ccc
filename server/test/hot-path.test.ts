/**
 * The race-day hot path (lib/hot-path.ts) over real HTTP: hot lookups are answered before Fastify's lifecycle
 * with exactly what the Fastify route answers (compared with app.inject, which always runs the route), every
 * other request reaches the route once, and the lookup limit counts each request once either way.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { buildApp } from '../src/app.ts';
import { API_CSP, HSTS } from '../src/lib/security-headers.ts';
import { buildTestApp, FIXTURE_SEED, removeTempDirs, tempDir, testEnv } from './helpers.ts';
import { PAST_RACE_ID, seedRaceCenterFixture, ZHANG } from './race-center-fixture.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One POST over a real connection; `chunked` sends the body without a content-length. */
function post(
  app: FastifyInstance,
  url: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  chunked = false,
): Promise<Answer> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method: 'POST',
        headers: chunked
          ? { ...headers, 'transfer-encoding': 'chunked' }
          : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    if (chunked) req.write(body.slice(0, 5));
    req.end(chunked ? body.slice(5) : body);
  });
}

/** The same request through Fastify's route (inject never passes the HTTP server's listener). */
async function viaRoute(app: FastifyInstance, url: string, body: string, headers: Record<string, string>) {
  const res = await app.inject({ method: 'POST', url, payload: body, headers });
  return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
}

/** What a caller sees of an answer: status, the headers that describe the payload, and the payload. */
const seen = (answer: Answer | Awaited<ReturnType<typeof viaRoute>>) => ({
  status: answer.status,
  'cache-control': answer.headers['cache-control'],
  'content-type': answer.headers['content-type'],
  'content-encoding': answer.headers['content-encoding'],
  'content-length': String(answer.headers['content-length']),
  vary: answer.headers.vary,
  'retry-after': answer.headers['retry-after'],
  'x-content-type-options': answer.headers['x-content-type-options'],
  'x-frame-options': answer.headers['x-frame-options'],
  'referrer-policy': answer.headers['referrer-policy'],
  'permissions-policy': answer.headers['permissions-policy'],
  'content-security-policy': answer.headers['content-security-policy'],
  'strict-transport-security': answer.headers['strict-transport-security'],
  body: answer.body.toString('base64'),
});

async function listeningApp(env: Record<string, string>, logger?: 'info') {
  const lines: string[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  const app = await buildApp({
    dataDir: tempDir(),
    seedDir: FIXTURE_SEED,
    env: await testEnv({ CERT_SECRET: 'test-secret', ...env }),
    ...(logger ? { logger, logStream } : {}),
  });
  // Counts the requests that reach Fastify's lifecycle.
  const reached: string[] = [];
  app.addHook('onRequest', (request, _reply, done) => {
    reached.push(request.url);
    done();
  });
  await seedRaceCenterFixture(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, reached, lines };
}

const json = { 'content-type': 'application/json' };
const bib = (b: unknown, raceId: unknown = PAST_RACE_ID) => JSON.stringify({ raceId, bib: b });
const person = (name: string, certificateNumber: string) =>
  JSON.stringify({ raceId: PAST_RACE_ID, name, certificateNumber });

describe('hot path', () => {
  let app: FastifyInstance;
  let reached: string[];

  beforeAll(async () => {
    ({ app, reached } = await listeningApp({ RATE_LIMITS: 'off' }));
  });

  afterAll(async () => {
    await app.close();
    removeTempDirs();
  });

  const hot: [string, string][] = [
    [API_PATHS.searchScore, bib('A00001')],
    [API_PATHS.searchScore, bib('a00001')],
    [API_PATHS.searchScore, bib('100')],
    [API_PATHS.searchScore, bib('NOPE')],
    [API_PATHS.searchScore, person(ZHANG.name, ZHANG.certNo)],
    [API_PATHS.searchScore, person('无此人', ZHANG.certNo)],
    [API_PATHS.searchPhotos, bib('A00001')],
    [API_PATHS.searchPhotos, bib('ZZZ')],
  ];

  it.each(['identity', 'br', 'gzip, deflate'])(
    'answers the plain lookups before Fastify, exactly as the route does (accept-encoding %s)',
    async (encoding) => {
      for (const [url, body] of hot) {
        const headers = { ...json, 'accept-encoding': encoding };
        reached.length = 0;
        const direct = await post(app, url, body, headers);
        expect(reached, `${url} ${body}`).toEqual([]);
        expect(seen(direct), `${url} ${body}`).toEqual(seen(await viaRoute(app, url, body, headers)));
      }
    },
  );

  it('sends a real answer: the result of the bib, compressed as asked', async () => {
    const plain = await post(app, API_PATHS.searchScore, bib('A00001'), json);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const answer = JSON.parse(plain.body.toString('utf8'));
    expect(answer).toMatchObject({ code: 0, data: [{ bib: 'A00001', raceId: PAST_RACE_ID }] });
    const br = await post(app, API_PATHS.searchScore, bib('A00001'), { ...json, 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(answer);
    const gzip = await post(app, API_PATHS.searchScore, bib('A00001'), { ...json, 'accept-encoding': 'gzip' });
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(answer);
    // Exact bib match on the hot path too: "100" is not 1000–1009.
    const hundred = JSON.parse((await post(app, API_PATHS.searchScore, bib('100'), json)).body.toString('utf8'));
    expect(hundred.data.map((r: { bib: string }) => r.bib)).toEqual(['100']);
  });

  const notPlain: [string, string, Record<string, string>][] = [
    ['bad JSON', '{"raceId":', json],
    ['no raceId', JSON.stringify({ bib: 'A00001' }), json],
    ['no key', JSON.stringify({ raceId: PAST_RACE_ID }), json],
    ['an extra field', JSON.stringify({ raceId: PAST_RACE_ID, bib: 'A00001', lang: 'en' }), json],
    ['a bib over 20 characters', bib('A'.repeat(21)), json],
    ['an empty bib', bib(''), json],
    ['a number for a bib', bib(1), json],
    ['a bad race id', bib('A00001', '../x'), json],
    ['a name without a certificate number', JSON.stringify({ raceId: PAST_RACE_ID, name: ZHANG.name, bib: 1 }), json],
    ['an array', '[1,2]', json],
    ['a prototype key', `{"raceId":"${PAST_RACE_ID}","__proto__":{"x":1}}`, json],
    ['a null body', 'null', json],
    ['another content type', bib('A00001'), { 'content-type': 'text/plain' }],
    ['a JSON body with a charset', bib('A00001'), { 'content-type': 'application/json; charset=utf-16' }],
    ['a content-encoded body', bib('A00001'), { ...json, 'content-encoding': 'identity' }],
  ];

  it('reads the head whatever the case of its names (Content-Type, Accept-Encoding)', async () => {
    reached.length = 0;
    const headers = { 'Content-Type': 'Application/JSON', 'Accept-Encoding': 'br' };
    const direct = await post(app, API_PATHS.searchScore, bib('A00001'), headers);
    expect(reached).toEqual([]);
    expect(direct.headers['content-encoding']).toBe('br');
    expect(seen(direct)).toEqual(seen(await viaRoute(app, API_PATHS.searchScore, bib('A00001'), headers)));
  });

  it.each(notPlain)('leaves %s to the route, which answers it once, the same way', async (_what, body, headers) => {
    reached.length = 0;
    const direct = await post(app, API_PATHS.searchScore, body, headers);
    expect(reached).toEqual([API_PATHS.searchScore]);
    const route = await viaRoute(app, API_PATHS.searchScore, body, headers);
    expect(direct.status).toBe(route.status);
    expect(direct.status).toBeLessThan(500);
    expect(direct.body.toString('utf8')).toBe(route.body.toString('utf8'));
    expect(direct.headers['content-type']).toBe(route.headers['content-type']);
    expect(direct.headers['cache-control']).toBe(route.headers['cache-control']);
  });

  it('leaves a chunked body and other methods and paths to Fastify', async () => {
    reached.length = 0;
    const chunked = await post(app, API_PATHS.searchScore, bib('A00001'), json, true);
    expect(JSON.parse(chunked.body.toString('utf8'))).toMatchObject({ code: 0, data: [{ bib: 'A00001' }] });
    const pb = await post(
      app,
      API_PATHS.searchPb,
      JSON.stringify({ name: ZHANG.name, certificateNumber: ZHANG.certNo }),
    );
    expect(JSON.parse(pb.body.toString('utf8')).code).toBe(0);
    const query = await post(app, `${API_PATHS.searchScore}?x=1`, bib('A00001'));
    expect(JSON.parse(query.body.toString('utf8')).code).toBe(0);
    expect(reached).toEqual([API_PATHS.searchScore, API_PATHS.searchPb, `${API_PATHS.searchScore}?x=1`]);
  });
});

describe('hot path rate limit', () => {
  afterAll(removeTempDirs);

  it('counts every lookup once, hot or not: the 61st in a minute gets 429 and Retry-After', async () => {
    const { app, reached } = await listeningApp({});
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await post(app, API_PATHS.searchScore, bib(`B${i}`), json)).status);
      expect(reached).toEqual([]);
      // Not plain (an extra field): counted by the route's hook instead.
      const extra = JSON.stringify({ raceId: PAST_RACE_ID, bib: 'A00001', x: 1 });
      for (let i = 0; i < 30; i++) statuses.push((await post(app, API_PATHS.searchScore, extra, json)).status);
      expect(reached).toHaveLength(30);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const limited = await post(app, API_PATHS.searchPhotos, bib('A00001'), json);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['cache-control']).toBe('no-store');
      const seconds = Number(limited.headers['retry-after']);
      expect(JSON.parse(limited.body.toString('utf8'))).toEqual({
        code: 429,
        msg: `Too many requests, please try again in ${seconds} seconds`,
        data: null,
        msgCode: 'tooManyRequestsWait',
        msgParams: { seconds },
      });
      expect(reached).toHaveLength(30);
      // The hot 429 carries the route's headers, security headers included.
      const viaFastify = await viaRoute(app, API_PATHS.searchPhotos, bib('A00001'), json);
      expect(viaFastify.status).toBe(429);
      expect({ ...seen(limited), 'retry-after': '' }).toEqual({ ...seen(viaFastify), 'retry-after': '' });
      expect(limited.headers['content-security-policy']).toBe(API_CSP);
      expect(limited.headers['x-frame-options']).toBe('SAMEORIGIN');
    } finally {
      await app.close();
    }
  });
});

describe('hot path with request logs on', () => {
  afterAll(removeTempDirs);

  it('is off, so that every lookup goes through Fastify and is logged', async () => {
    const { app, reached, lines } = await listeningApp({ RATE_LIMITS: 'off' }, 'info');
    try {
      const res = await post(app, API_PATHS.searchScore, bib('A00001'), json);
      expect(JSON.parse(res.body.toString('utf8')).code).toBe(0);
      expect(reached).toEqual([API_PATHS.searchScore]);
      expect(lines.join('\n')).toContain('request completed');
    } finally {
      await app.close();
    }
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  afterAll(removeTempDirs);

  const from = (ip: string) => ({ ...json, 'x-forwarded-for': ip });
  const extra = JSON.stringify({ raceId: PAST_RACE_ID, bib: 'A00001', x: 1 });

  it('limits each forwarded visitor on its own, hot or not', async () => {
    const { app, reached } = await listeningApp({ TRUST_PROXY: 'loopback' });
    try {
      for (let i = 0; i < 59; i++)
        expect((await post(app, API_PATHS.searchScore, bib('A00001'), from('203.0.113.5'))).status).toBe(200);
      expect((await post(app, API_PATHS.searchScore, extra, from('203.0.113.5'))).status).toBe(200);
      expect(reached).toHaveLength(1);
      expect((await post(app, API_PATHS.searchScore, bib('A00001'), from('203.0.113.5'))).status).toBe(429);
      expect((await post(app, API_PATHS.searchScore, extra, from('203.0.113.5'))).status).toBe(429);
      // Another visitor behind the same proxy is not held back.
      expect((await post(app, API_PATHS.searchScore, bib('A00001'), from('203.0.113.6'))).status).toBe(200);
      expect((await post(app, API_PATHS.searchScore, extra, from('203.0.113.6'))).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('counts forwarded IPv6 visitors by their /64, hot or not', async () => {
    const { app } = await listeningApp({ TRUST_PROXY: 'loopback' });
    try {
      for (let i = 1; i <= 59; i++) {
        expect(
          (await post(app, API_PATHS.searchScore, bib('A00001'), from(`2001:db8:5:6::${i.toString(16)}`))).status,
        ).toBe(200);
      }
      expect((await post(app, API_PATHS.searchScore, extra, from('2001:db8:5:6:ffff::1'))).status).toBe(200);
      expect((await post(app, API_PATHS.searchScore, bib('A00001'), from('2001:db8:5:6:aaaa::2'))).status).toBe(429);
      expect((await post(app, API_PATHS.searchScore, extra, from('2001:db8:5:6:bbbb::3'))).status).toBe(429);
      expect((await post(app, API_PATHS.searchScore, bib('A00001'), from('2001:db8:5:7::1'))).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('sends HSTS exactly when Fastify does: over https as a trusted proxy forwards it', async () => {
    const overHttps = { ...from('203.0.113.9'), 'x-forwarded-proto': 'https' };
    const trusted = await listeningApp({ TRUST_PROXY: 'loopback', RATE_LIMITS: 'off' });
    const untrusted = await listeningApp({ RATE_LIMITS: 'off' });
    try {
      const hot = await post(trusted.app, API_PATHS.searchScore, bib('A00001'), overHttps);
      expect(trusted.reached).toEqual([]);
      expect(hot.headers['strict-transport-security']).toBe(HSTS);
      expect(seen(hot)).toEqual(seen(await viaRoute(trusted.app, API_PATHS.searchScore, bib('A00001'), overHttps)));
      const plainHttp = await post(trusted.app, API_PATHS.searchScore, bib('A00001'), from('203.0.113.9'));
      expect(plainHttp.headers['strict-transport-security']).toBeUndefined();
      // Anyone can send X-Forwarded-Proto: without a trusted proxy it means nothing.
      const forged = await post(untrusted.app, API_PATHS.searchScore, bib('A00001'), overHttps);
      expect(forged.headers['strict-transport-security']).toBeUndefined();
      expect(seen(forged)).toEqual(
        seen(await viaRoute(untrusted.app, API_PATHS.searchScore, bib('A00001'), overHttps)),
      );
    } finally {
      await trusted.app.close();
      await untrusted.app.close();
    }
  });

  it('ignores X-Forwarded-For when no proxy is trusted, so it cannot be used to dodge the limit', async () => {
    const { app } = await listeningApp({});
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) {
        statuses.push((await post(app, API_PATHS.searchScore, bib('A00001'), from(`198.51.100.${i}`))).status);
      }
      expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
      expect(statuses[60]).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('refuses to start with a list it cannot read', async () => {
    await expect(
      buildTestApp({ dataDir: tempDir(), seedDir: FIXTURE_SEED, env: { TRUST_PROXY: '10.0.0.1, nonsense' } }),
    ).rejects.toThrow(/^TRUST_PROXY must be .* \(invalid IP address: nonsense\)$/);
  });
});
