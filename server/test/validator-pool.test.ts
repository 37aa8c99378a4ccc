/** Route validators compiled once per process (lib/validator-pool.ts), and checking requests as Fastify's own do. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { pooledValidators } from '../src/lib/validator-pool.ts';

const body = {
  type: 'object',
  required: ['count'],
  properties: {
    count: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
    note: { type: 'string', default: '-' },
  },
  additionalProperties: false,
} as const;
const querystring = { type: 'object', properties: { page: { type: 'integer', minimum: 1 } } } as const;

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** An app with one route echoing what validation made of the body and query, pooled or with Fastify's own compiler. */
async function echoApp(pooled: boolean) {
  const app = Fastify(pooled ? { schemaController: { compilersFactory: { buildValidator: pooledValidators } } } : {});
  apps.push(app);
  app.post('/echo', { schema: { body, querystring } }, async (request) => ({
    body: request.body,
    query: request.query,
  }));
  await app.ready();
  return app;
}

describe('pooled route validators', () => {
  it('compile a schema once for every app of the process', () => {
    const route = { schema: body, method: 'POST', url: '/echo', httpPart: 'body' } as const;
    const first = pooledValidators({}, { customOptions: {} } as never)(route);
    const second = pooledValidators({}, { customOptions: {} } as never)(route);
    expect(second).toBe(first);
  });

  it.each([
    ['coerced, defaulted, extra keys dropped', '?page=2', { count: '3', tags: 'a', extra: 1 }],
    ['a wrong type refused', '', { count: 'three' }],
    ['a missing key refused', '', {}],
    ['a query below its minimum refused', '?page=0', { count: 1 }],
  ])('check a request as Fastify’s own compiler does: %s', async (_name, query, payload) => {
    const answers = await Promise.all(
      [true, false].map(async (pooled) => {
        const reply = await (await echoApp(pooled)).inject({ method: 'POST', url: `/echo${query}`, payload });
        return { status: reply.statusCode, body: reply.json() as unknown };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
  });

  it('refuse a headers schema when the app starts (Fastify lower-cases its keys only with its own compiler)', async () => {
    const app = Fastify({ schemaController: { compilersFactory: { buildValidator: pooledValidators } } });
    apps.push(app);
    app.get('/h', { schema: { headers: { type: 'object', required: ['X-Token'] } } }, async () => 'ok');
    await expect(app.ready()).rejects.toThrow(/GET \/h: a headers schema needs Fastify's own compiler/);
  });
});
