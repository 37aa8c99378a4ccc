/**
 * The registration lookup and the confirmation answer the item's entry model beside the status (#27), so the
 * runner reads a first-come place as "registered" and a ballot place as "won the lottery" (contract
 * entryStatusLabel); an item the race's sign-up does not list answers no model (the spec's wording).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntrySettings } from '#contract/entry';
import { RACE_MEMO_MS } from '../src/services/race-center/race-center-service.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs } from './helpers.ts';
import { seedRaceCenterFixture, WANG, ZHANG } from './race-center-fixture.ts';

const clock = fakeClock();
let app: FastifyInstance;

const entryWith = (model: 'firstCome' | 'ballot'): EntrySettings => ({
  allowMultiple: false,
  items: [
    { code: 'M', name: { zh: '马拉松', en: 'Marathon' }, capacity: 10, feeFen: 10000, model },
    { code: '10K', name: { zh: '10公里', en: '10 km' }, capacity: 10, feeFen: 5000, model: 'firstCome' },
  ],
});

async function saveEntry(entry: EntrySettings) {
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save({ ...race, entry }, clock.now());
}

const lookUp = async (runner: { name: string; certNo: string }) => {
  const res = await app.inject({
    method: 'POST',
    url: API_PATHS.searchRegistration,
    payload: { raceId: FIXTURE_RACE_ID, name: runner.name, certificateNumber: runner.certNo, queryType: 1 },
  });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { status: number; item: string; model?: string };
};

beforeAll(async () => {
  app = await buildTestApp({ env: { RATE_LIMITS: 'off', JOBS: 'off' }, now: clock.now });
  await seedRaceCenterFixture(app);
  await saveEntry(entryWith('firstCome'));
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('the entry model in the registration lookup', () => {
  it("answers the item's model from the race's sign-up, and none for an item it does not list", async () => {
    expect(await lookUp(ZHANG)).toMatchObject({ status: 1, item: 'M', model: 'firstCome' });
    const wang = await lookUp(WANG);
    expect(wang.item).toBe('H');
    expect(wang).not.toHaveProperty('model');

    // The organiser makes the marathon a ballot: answered once the race's memo has run out.
    await saveEntry(entryWith('ballot'));
    clock.advance(RACE_MEMO_MS);
    expect(await lookUp(ZHANG)).toMatchObject({ status: 1, item: 'M', model: 'ballot' });
  });
});
