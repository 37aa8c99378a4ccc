/**
 * The places of a race's sign-up items are synced when the race is saved (issue 14 §1): the seed's demo race
 * has its pools, and `site add-race` sets capacities from the file, keeps what is taken and refuses a capacity
 * below it with a clear message, saving nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RaceInfo } from '#contract/site-config/race-types';
import { validateRaceInfo } from '../src/db/race-schema.ts';
import { FIXTURE_SEED, openTestDatabase, removeTempDirs, siteCli, tempDir } from './helpers.ts';

afterAll(() => removeTempDirs());

const race = (capacity: number, charity = 2): RaceInfo => ({
  raceId: 'places-race-2026',
  raceName: '名额测试赛',
  entry: {
    allowMultiple: false,
    items: [
      {
        code: '10K',
        name: { zh: '10公里', en: '10 km' },
        capacity,
        feeFen: 8000,
        model: 'firstCome',
        charity: { capacity: charity, feeFen: 100000 },
      },
    ],
  },
});

describe('entry places', () => {
  it('are synced by site add-race: capacity set, taken kept, a capacity below taken refused', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'race.json');
    const run = siteCli(dir);
    const places = async () => {
      const opened = await openTestDatabase({ dataDir: dir, seedDir: FIXTURE_SEED, now: Date.now() });
      try {
        return await opened.repos.entries.places('places-race-2026');
      } finally {
        await opened.db.close();
      }
    };
    writeFileSync(file, JSON.stringify(race(5)));
    expect(await run('add-race', file)).toMatchObject({ code: 0 });
    expect(await places()).toEqual([
      { itemCode: '10K', pool: 'charity', capacity: 2, taken: 0 },
      { itemCode: '10K', pool: 'main', capacity: 5, taken: 0 },
    ]);
    const opened = await openTestDatabase({ dataDir: dir, seedDir: FIXTURE_SEED, now: Date.now() });
    expect(await opened.repos.entries.takePlace('places-race-2026', '10K', 'main', 4)).toBe(true);
    expect(await opened.repos.entries.takePlace('places-race-2026', '10K', 'main', 2)).toBe(false);
    await opened.db.close();

    writeFileSync(file, JSON.stringify(race(3)));
    const refused = await run('add-race', file);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('entry item 10K: capacity 3 is below the 4 places already taken');
    expect(await places()).toContainEqual({ itemCode: '10K', pool: 'main', capacity: 5, taken: 4 });

    writeFileSync(file, JSON.stringify({ ...race(9, 4), raceName: '改名' }));
    expect(await run('add-race', file)).toMatchObject({ code: 0 });
    expect(await places()).toEqual([
      { itemCode: '10K', pool: 'charity', capacity: 4, taken: 0 },
      { itemCode: '10K', pool: 'main', capacity: 9, taken: 4 },
    ]);
  });

  it('the demo race is open for sign-up, and its public form offers exactly its item codes', () => {
    const seed = path.resolve(import.meta.dirname, '../seed');
    const doc = JSON.parse(readFileSync(path.join(seed, 'race.json'), 'utf8')) as { race: unknown };
    const parsed = validateRaceInfo(doc.race);
    expect(parsed.ok).toBe(true);
    const demo = (parsed as { race: RaceInfo }).race;
    expect(demo).toMatchObject({ signUpOpenStatus: 1, signUpStartTime: '2026-11-16 10:00:00' });
    expect(demo.entry!.items.map((i) => [i.code, i.model])).toEqual([
      ['M', 'ballot'],
      ['HM', 'payThenDraw'],
      ['10K', 'firstCome'],
    ]);
    const form = JSON.parse(readFileSync(path.join(seed, 'registration-forms/qc-marathon-2027.json'), 'utf8')) as {
      fields: { key: string; options?: { value: string }[] }[];
    };
    const item = form.fields.find((f) => f.key === 'item')!;
    expect(item.options!.map((o) => o.value)).toEqual(['M', 'HM', '10K']);
  });
});
