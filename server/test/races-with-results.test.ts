import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { buildTestApp, FIXTURE_RACE_ID, removeTempDirs } from './helpers.ts';
import { oneFinisherResult, PAST_RACE_ID, seedRaceCenterFixture } from './race-center-fixture.ts';

let app: FastifyInstance;

const ORG = 'org-fixture';

beforeAll(async () => {
  app = await buildTestApp({ env: { RATE_LIMITS: 'off', CERT_SECRET: 'test-secret' } });
  await seedRaceCenterFixture(app);
  const now = Date.now();
  const race = async (raceId: string, raceName: string, startTime: string, organizationId: string) =>
    await app.repos.races.save(
      { raceId, raceName, raceNameEn: `${raceName} (en)`, startTime, organizationId } as never,
      now,
    );
  await race(FIXTURE_RACE_ID, '2025 测试马拉松', '2025-11-02 07:30:00', ORG);
  await race(PAST_RACE_ID, '2024 测试马拉松', '2024-11-03 07:30:00', ORG);
  await race('fixture-older-2023', '2023 测试马拉松', '2023-11-05 07:30:00', ORG);
  await race('other-org-2024', '2024 别家马拉松', '2024-10-01 07:30:00', 'org-other');
  const result = async (raceId: string, bib: string) =>
    await app.repos.raceCenter.upsertResult(
      oneFinisherResult(raceId, bib, '跑者', app.repos.raceCenter.certHash(`E7${bib}0000`)),
    );
  await result('fixture-older-2023', '1');
  await result('other-org-2024', '1');
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const ask = (raceId: string) => app.inject({ method: 'GET', url: API_PATHS.racesWithResults, query: { raceId } });

describe('races with results', () => {
  it("lists the organiser's races that have results, latest first, from a race that has none yet", async () => {
    const res = await ask(FIXTURE_RACE_ID);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data.map((r: { raceId: string }) => r.raceId)).toEqual([PAST_RACE_ID, 'fixture-older-2023']);
    expect(body.data[0]).toEqual({
      raceId: PAST_RACE_ID,
      raceName: '2024 测试马拉松',
      raceNameEn: '2024 测试马拉松 (en)',
      raceDate: '2024-11-03',
      results: expect.any(Number),
    });
    expect(body.data[0].results).toBeGreaterThan(10);
    expect(body.data[1].results).toBe(1);
  });

  it('answers an unknown race with the envelope and a race-not-found message', async () => {
    const res = await ask('no-such-race');
    expect(res.json()).toEqual({ code: 404, msg: 'Race not found', data: null, msgCode: 'raceNotFound' });
  });

  it('rejects a race id that is not one', async () => {
    const res = await ask('../etc');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
  });
});

describe('splits of a result', () => {
  it('gives each segment its own split time next to the cumulative time', async () => {
    const res = await app.inject({
      method: 'POST',
      url: API_PATHS.searchScore,
      payload: { raceId: PAST_RACE_ID, bib: 'A00001' },
    });
    const [result] = res.json().data as { splits: { time: string; split: string; distanceKm: number }[] }[];
    const seconds = (t: string) => t.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
    let previous = 0;
    for (const s of result!.splits) {
      expect(seconds(s.split)).toBe(seconds(s.time) - previous);
      previous = seconds(s.time);
    }
    expect(seconds(result!.splits[1]!.split)).toBeLessThan(seconds(result!.splits[1]!.time));
  });
});
