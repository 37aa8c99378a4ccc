import type { FastifyInstance } from 'fastify';
import { sql } from '../src/db/engine.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { CountryItem } from '#contract/site-config/race-types';
import { hashToken } from '../src/db/tokens-repository.ts';
import { buildTestApp, fakeClock, removeTempDirs } from './helpers.ts';

const HOUR = 3_600_000;
const clock = fakeClock();
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now });
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const commonInfo = (token?: string) =>
  app.inject({
    method: 'POST',
    url: API_PATHS.commonInfo,
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { token }) },
    payload: '{}',
  });

const EXPIRED = { code: 401, msg: 'Your login has expired, please log in again', data: null, msgCode: 'loginExpired' };

describe('token check (common info)', () => {
  it('accepts a valid token and answers its user', async () => {
    const userId = await app.repos.users.create({ phone: '13800000000' }, clock.now());
    const { token } = await app.repos.tokens.issue(userId, HOUR, clock.now());
    const res = await commonInfo(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, msg: 'success', data: { userId } });
  });

  it('stores only the SHA-256 of a token', async () => {
    const userId = await app.repos.users.create({ email: 'hash@example.com' }, clock.now());
    const { token } = await app.repos.tokens.issue(userId, HOUR, clock.now());
    const rows = await app.db.all<{ token_hash: string }>(sql`SELECT token_hash FROM tokens`);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.some((r) => r.token_hash === hashToken(token))).toBe(true);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers login expired once the token has expired (injected clock)', async () => {
    const userId = await app.repos.users.create({ email: 'expiring@example.com' }, clock.now());
    const { token } = await app.repos.tokens.issue(userId, HOUR, clock.now());
    expect((await commonInfo(token)).json().code).toBe(0);
    clock.advance(HOUR);
    expect((await commonInfo(token)).json()).toEqual(EXPIRED);
  });

  it('answers login expired for a revoked token', async () => {
    const userId = await app.repos.users.create({ email: 'revoked@example.com' }, clock.now());
    const { token } = await app.repos.tokens.issue(userId, HOUR, clock.now());
    expect(await app.repos.tokens.revoke(token, clock.now())).toBe(true);
    expect((await commonInfo(token)).json()).toEqual(EXPIRED);
  });

  it('answers login expired for an unknown, empty, missing or oversized token', async () => {
    for (const token of ['not-a-token', '', '   ', undefined, 'x'.repeat(5000)]) {
      const res = await commonInfo(token);
      expect(res.statusCode).toBe(200);
      expect(res.json(), String(token).slice(0, 20)).toEqual(EXPIRED);
    }
  });

  it('accepts a post without a body', async () => {
    const res = await app.inject({
      method: 'POST',
      url: API_PATHS.commonInfo,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.json()).toEqual(EXPIRED);
  });
});

describe('country list', () => {
  let list: CountryItem[];

  beforeAll(async () => {
    const res = await app.inject({ method: 'GET', url: API_PATHS.countryList });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(0);
    list = body.data;
  });

  it('lists every ISO 3166-1 country', async () => {
    expect(list.length).toBeGreaterThan(240);
    expect(list.length).toBe(249);
    expect(new Set(list.map((c) => c.twoCode)).size).toBe(list.length);
  });

  it('puts the Chinese regions first with the names of the spec', async () => {
    expect(list.slice(0, 4).map((c) => [c.twoCode, c.itemSort, c.cnName, c.enName])).toEqual([
      ['CN', 1, '中国大陆', 'Chinese Mainland'],
      ['HK', 2, '中国香港', 'Hong Kong, China'],
      ['MO', 3, '中国澳门', 'Macao, China'],
      ['TW', 4, '中国台湾', 'Taiwan, China'],
    ]);
  });

  it('sorts all other countries at 100 by English name, with ids 1..n', async () => {
    const rest = list.slice(4);
    expect(rest.every((c) => c.itemSort === 100)).toBe(true);
    const names = rest.map((c) => c.enName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(list.map((c) => c.id)).toEqual(list.map((_, i) => i + 1));
  });

  it('fills every field of a country item', async () => {
    const fr = list.find((c) => c.twoCode === 'FR');
    expect(fr).toMatchObject({
      twoCode: 'FR',
      threeCode: 'FRA',
      numberCode: '250',
      cnName: '法国',
      enName: 'France',
      dictCode: 'country',
      itemName: '法国',
      itemCode: 'FR',
      itemSort: 100,
    });
    expect(list.find((c) => c.twoCode === 'AF')?.numberCode).toBe('004');
    for (const c of list) {
      expect(c.twoCode).toMatch(/^[A-Z]{2}$/);
      expect(c.threeCode).toMatch(/^[A-Z]{3}$/);
      expect(c.numberCode).toMatch(/^\d{3}$/);
      expect(c.cnName.length).toBeGreaterThan(0);
      expect(c.enName.length).toBeGreaterThan(0);
      expect(c.itemName).toBe(c.cnName);
      expect(c.itemCode).toBe(c.twoCode);
      expect(c.dictCode).toBe('country');
    }
  });
});
