import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { sql } from '../src/db/engine.ts';
import { DEMO_RUNNERS } from '../src/db/seed-runners.ts';
import { DEFAULT_SEED_DIR } from '../src/lib/paths.ts';
import { buildTestApp, removeTempDirs } from './helpers.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ seedDir: DEFAULT_SEED_DIR, env: { RATE_LIMITS: 'off' } });
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const rows = <T>(text: string) => app.db.all<T>(sql.raw(text));
const count = async (text: string) => (await rows<{ n: number }>(text))[0]?.n;

describe('the demo event seed', () => {
  it('seeds about 30,000 runners, their results in the past race and photos', async () => {
    expect(await count('SELECT count(*) AS n FROM registrations')).toBe(30_000);
    expect(await count("SELECT count(*) AS n FROM results WHERE race_id = 'qc-marathon-2026'")).toBeGreaterThan(28_000);
    expect(await count('SELECT count(*) AS n FROM photos')).toBeGreaterThan(1_000);
    expect(
      await count("SELECT count(DISTINCT status) AS n FROM registrations WHERE race_id = 'qc-marathon-2027'"),
    ).toBe(6);
  });

  it('ranks every item 1..finishers by chip time', async () => {
    const ranks = await rows<{ lo: number; hi: number; n: number; f: number }>(
      "SELECT item, min(rank_overall) AS lo, max(rank_overall) AS hi, count(*) AS n, max(finishers) AS f FROM results WHERE race_id = 'qc-marathon-2026' GROUP BY item",
    );
    expect(ranks).toHaveLength(3);
    for (const r of ranks) expect([r.lo, r.hi, r.f]).toEqual([1, r.n, r.n]);
  });

  it('spreads the registrations over the channels: about 70% web, 20% app, 10% third-party on named platforms', async () => {
    const channels = await rows<{ channel: number; n: number; platforms: number; named: number }>(
      "SELECT channel, count(*) AS n, count(DISTINCT channel_name) AS platforms, count(channel_name_en) AS named FROM registrations WHERE race_id = 'qc-marathon-2027' GROUP BY channel ORDER BY channel",
    );
    expect(channels.map((r) => r.channel)).toEqual([2, 3, 5]);
    const share = (channel: number) => (channels.find((r) => r.channel === channel)?.n ?? 0) / 30_000;
    expect(share(3)).toBeCloseTo(0.7, 1);
    expect(share(5)).toBeCloseTo(0.2, 1);
    expect(share(2)).toBeCloseTo(0.1, 1);
    const third = channels.find((r) => r.channel === 2)!;
    expect(third.platforms).toBe(3);
    expect(third.named).toBe(third.n);
    expect(channels.filter((r) => r.channel !== 2).every((r) => r.named === 0)).toBe(true);
  });

  it('finds the documented demo runners', async () => {
    for (const runner of DEMO_RUNNERS) {
      const reg = await app.inject({
        method: 'POST',
        url: API_PATHS.searchRegistration,
        payload: { raceId: 'qc-marathon-2027', name: runner.name, certificateNumber: runner.certNo },
      });
      expect(reg.json().data).toMatchObject({ status: runner.status, channel: runner.channel?.channel });
      const history = await app.inject({
        method: 'POST',
        url: API_PATHS.searchHistory,
        payload: { name: runner.name, certificateNumber: runner.certNo },
      });
      expect(history.json().data[0]).toMatchObject({
        raceId: 'qc-marathon-2026',
        raceName: '2026 青川运河马拉松',
        item: runner.pastItem,
      });
    }
  });
});
