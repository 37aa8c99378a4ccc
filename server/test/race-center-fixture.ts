import type { FastifyInstance } from 'fastify';
import type { ResultRow } from '../src/db/race-center-repository.ts';
import { DEMO_RUNNERS, seedRunners } from '../src/db/seed-runners.ts';
import { FIXTURE_RACE_ID } from './helpers.ts';

export const PAST_RACE_ID = 'fixture-past-2024';
export const ZHANG = DEMO_RUNNERS[0]!;
export const LI = DEMO_RUNNERS[1]!;
export const WANG = DEMO_RUNNERS[2]!;

/** One 10 km finish, first of one: the smallest result row a test needs. */
export function oneFinisherResult(raceId: string, bib: string, name: string, certHash: string): ResultRow {
  return {
    race_id: raceId,
    bib,
    name,
    gender: 1,
    cert_hash: certHash,
    item: '10K',
    gun_ms: 3_000_000,
    chip_ms: 2_900_000,
    rank_overall: 1,
    rank_gender: 1,
    rank_age_group: 1,
    age_group: 'M30-34',
    finishers: 1,
    splits_json: '[]',
  };
}

/** 60 synthetic runners (the hand-picked ones first) plus bibs 100 and 1000–1009 for the exact-bib rule. */
export async function seedRaceCenterFixture(app: FastifyInstance) {
  await app.repos.races.save(
    { raceId: PAST_RACE_ID, raceName: '2024 测试马拉松', startTime: '2024-11-03 07:30:00' } as never,
    Date.now(),
  );
  await app.repos.transaction((repos) =>
    seedRunners(repos.raceCenter, {
      currentRaceId: FIXTURE_RACE_ID,
      currentRaceDate: '2025-11-02',
      pastRaceId: PAST_RACE_ID,
      pastRaceStart: '2024-11-03 07:30:00',
      count: 60,
    }),
  );
  const bibs = ['100', ...Array.from({ length: 10 }, (_, i) => `100${i}`)];
  for (const [i, bib] of bibs.entries()) {
    const certNo = `E9000000${i}`;
    await app.repos.raceCenter.upsertResult({
      race_id: PAST_RACE_ID,
      bib,
      name: `号码${bib}`,
      gender: 1,
      cert_hash: app.repos.raceCenter.certHash(certNo),
      item: '10K',
      gun_ms: 3_000_000 + i * 1000,
      chip_ms: 2_900_000 + i * 1000,
      rank_overall: 0,
      rank_gender: 0,
      rank_age_group: 0,
      age_group: 'M30-34',
      finishers: 0,
      splits_json: JSON.stringify([{ checkpoint: '5K', distanceKm: 5, chipMs: 1_400_000 }]),
    });
  }
  await app.repos.raceCenter.recomputeRanks(PAST_RACE_ID);
}
