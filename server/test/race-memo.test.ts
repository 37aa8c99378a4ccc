import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS } from '#contract/api';
import { RACE_MEMO_MS } from '../src/services/race-center/race-center-service.ts';
import { buildTestApp, fakeClock, removeTempDirs } from './helpers.ts';
import { PAST_RACE_ID, seedRaceCenterFixture } from './race-center-fixture.ts';

const clock = fakeClock();
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now, env: { RATE_LIMITS: 'off', CERT_SECRET: 'test-secret' } });
  await seedRaceCenterFixture(app);
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

/** The race name a private (never cached) lookup answers for bib 100's runner of the fixture. */
async function raceNameInHistory(): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: API_PATHS.searchHistory,
    payload: { name: '号码100', certificateNumber: 'E90000000' },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { raceName: string }[] }).data[0]!.raceName;
}

const rename = async (raceName: string) =>
  await app.repos.races.save(
    { raceId: PAST_RACE_ID, raceName, startTime: '2024-11-03 07:30:00' } as never,
    clock.now(),
  );

describe('the race memo of the race-center lookups', () => {
  it("keeps a race's name for a minute of the app's clock, whatever the wall clock says", async () => {
    expect(await raceNameInHistory()).toBe('2024 测试马拉松');
    await rename('2024 改名马拉松');

    // The wall clock runs ten minutes ahead; the app's clock has not moved: still the remembered name.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 });
    try {
      expect(await raceNameInHistory()).toBe('2024 测试马拉松');
    } finally {
      // The next file of this worker runs on the real clock (vitest.config.ts: server files share a worker).
      vi.useRealTimers();
    }

    // Just short of a minute on the app's clock: still remembered; past it: the new name.
    clock.advance(RACE_MEMO_MS - 1);
    expect(await raceNameInHistory()).toBe('2024 测试马拉松');
    clock.advance(1);
    expect(await raceNameInHistory()).toBe('2024 改名马拉松');
  });
});
