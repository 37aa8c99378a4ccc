/**
 * The demo event, loaded on first start (empty races table) from the seed directory:
 *   race.json                      { "race": RaceInfo, "bindings": [{ "domainName", "raceId" }],
 *                                    "demoAccount"?: true, "demoRunners"?: { count, pastRace } }
 *   site-configs/<domainName>.json the site configuration published for each binding
 * Everything is validated before anything is written; an invalid seed stops start-up with every problem.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RaceInfo } from '#contract/site-config/race-types';
import { toBindableDomain } from '../lib/domain.ts';
import { parseJsonText } from '../lib/json-text.ts';
import { validateRaceInfo } from './race-schema.ts';
import type { Repositories } from './repositories.ts';
import { seedRunners } from './seed-runners.ts';
import type { FileStore } from '../lib/file-store.ts';
import { checkSiteConfigBytes, putSiteConfigBytes } from './site-config-publisher.ts';

export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

export type SeedOutcome =
  { seeded: false; reason: 'not-empty' | 'no-seed' } | { seeded: true; raceId: string; domains: string[] };

interface SeedPlan {
  race: RaceInfo;
  bindings: { domainName: string; bytes: Buffer }[];
}

function readSeed(seedDir: string): SeedPlan | undefined {
  const raceFile = path.join(seedDir, 'race.json');
  if (!existsSync(raceFile)) return undefined;

  const parsed = parseJsonText(readFileSync(raceFile, 'utf8'));
  if (!parsed.ok) throw new SeedError(`${raceFile}: ${parsed.message}`);
  const doc = parsed.value as { race?: unknown; bindings?: unknown } | null;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new SeedError(`${raceFile}: expected an object { "race": {...}, "bindings": [...] }`);
  }

  const errors: string[] = [];
  const race = validateRaceInfo(doc.race);
  if (!race.ok) errors.push(...race.problems.map((p) => `$.race${p.path.slice(1)}: ${p.message}`));
  if (!Array.isArray(doc.bindings)) errors.push('$.bindings: expected an array of { domainName, raceId }');
  if (errors.length > 0 || !race.ok || !Array.isArray(doc.bindings)) {
    throw new SeedError(`${raceFile} is invalid:\n${errors.map((e) => `  ${e}`).join('\n')}`);
  }

  const bindings: SeedPlan['bindings'] = [];
  (doc.bindings as unknown[]).forEach((entry, index) => {
    const b = entry as { domainName?: unknown; raceId?: unknown } | null;
    const domainName = typeof b?.domainName === 'string' ? toBindableDomain(b.domainName) : null;
    if (domainName === null) {
      errors.push(`$.bindings[${index}].domainName: must be a host name (not an IP address)`);
      return;
    }
    if (b?.raceId !== race.race.raceId) {
      errors.push(`$.bindings[${index}].raceId: must be the seed race "${race.race.raceId}"`);
      return;
    }
    const file = path.join(seedDir, 'site-configs', `${domainName}.json`);
    if (!existsSync(file)) {
      errors.push(`$.bindings[${index}]: no site configuration ${file}`);
      return;
    }
    const bytes = readFileSync(file);
    const problems = checkSiteConfigBytes(bytes);
    if (problems.length > 0) {
      errors.push(`${file} is not a valid site configuration:`, ...problems.map((p) => `  ${p.path}: ${p.message}`));
      return;
    }
    bindings.push({ domainName, bytes });
  });
  if (errors.length > 0)
    throw new SeedError(`The seed in ${seedDir} is invalid:\n${errors.map((e) => `  ${e}`).join('\n')}`);
  return { race: race.race, bindings };
}

/**
 * Seeds the demo event when the races table is empty. Idempotent; the records are written in one transaction
 * that holds the seed lock, so instances starting together on one database seed it once. The documents go
 * into the file store first, outside the transaction (the database store writes on its own connection, which
 * on SQLite would wait for the transaction's); putting the same content-addressed document twice is harmless.
 */
export async function seedIfEmpty(input: {
  repos: Repositories;
  files: FileStore;
  seedDir: string;
  now: number;
}): Promise<SeedOutcome> {
  if ((await input.repos.races.count()) > 0) return { seeded: false, reason: 'not-empty' };
  const plan = readSeed(input.seedDir);
  if (plan === undefined) return { seeded: false, reason: 'no-seed' };
  const documents: { domainName: string; md5: string; byteLength: number }[] = [];
  for (const { domainName, bytes } of plan.bindings) {
    documents.push({ domainName, ...(await putSiteConfigBytes(input.files, bytes)) });
  }

  return input.repos.transaction(async (repos): Promise<SeedOutcome> => {
    await repos.db.lock('seed');
    if ((await repos.races.count()) > 0) return { seeded: false, reason: 'not-empty' };
    await repos.races.save(plan.race, input.now);
    const places = await repos.entries.syncPlaces(plan.race.raceId, plan.race.entry);
    if (!places.ok) throw new SeedError(`${plan.race.raceId}: ${places.problem}`);
    const slots = await repos.pickup.syncSlots(plan.race.raceId, plan.race.packPickup);
    if (!slots.ok) throw new SeedError(`${plan.race.raceId}: ${slots.problem}`);
    for (const { domainName, md5, byteLength } of documents) {
      await repos.bindings.bind(domainName, plan.race.raceId, input.now);
      await repos.siteConfigs.record({ domainName, md5, byteLength, publishedAt: input.now });
    }
    return { seeded: true, raceId: plan.race.raceId, domains: plan.bindings.map((b) => b.domainName) };
  });
}

/**
 * The demo event's synthetic runners (race.json `demoRunners: { count, pastRace }`): the past race is added,
 * then registrations for the seed race and results, splits and photos for the past race. Runs when the
 * results table is empty, so an existing data directory gains them on its next start.
 */
export async function seedRunnersIfEmpty(input: { repos: Repositories; seedDir: string; now: number }) {
  const raceFile = path.join(input.seedDir, 'race.json');
  if (!existsSync(raceFile) || (await input.repos.raceCenter.resultCount()) > 0) return undefined;
  const parsed = parseJsonText(readFileSync(raceFile, 'utf8'));
  if (!parsed.ok) return undefined;
  const doc = parsed.value as { race?: { raceId?: unknown; startTime?: unknown }; demoRunners?: unknown } | null;
  const demo = doc?.demoRunners as { count?: unknown; pastRace?: unknown } | undefined;
  if (demo === undefined || typeof demo !== 'object' || demo === null) return undefined;
  const past = validateRaceInfo(demo.pastRace);
  if (!past.ok) throw new SeedError(`${raceFile}: $.demoRunners.pastRace is not a valid race`);
  const count = typeof demo.count === 'number' && demo.count > 0 ? Math.floor(demo.count) : 0;
  const currentRaceId = typeof doc?.race?.raceId === 'string' ? doc.race.raceId : '';
  const currentStart = typeof doc?.race?.startTime === 'string' ? doc.race.startTime : '';
  if (count === 0 || currentRaceId === '' || (await input.repos.races.findById(currentRaceId)) === undefined) {
    return undefined;
  }
  return input.repos.transaction(async (repos) => {
    await repos.db.lock('seed');
    if ((await repos.raceCenter.resultCount()) > 0) return undefined;
    await repos.races.save(past.race, input.now);
    return seedRunners(repos.raceCenter, {
      currentRaceId,
      currentRaceDate: currentStart.slice(0, 10),
      pastRaceId: past.race.raceId,
      pastRaceStart: past.race.startTime ?? `${currentStart.slice(0, 10)} 07:30:00`,
      count,
    });
  });
}

/**
 * The race of a demo seed that asks for the demo runner account (race.json `"demoAccount": true`), when that
 * race is in the database: the account (a password printed in the README) belongs to the demo event only,
 * never to a server started with the organiser's own seed or none.
 */
export async function demoAccountRace(input: { repos: Repositories; seedDir: string }): Promise<string | undefined> {
  const raceFile = path.join(input.seedDir, 'race.json');
  if (!existsSync(raceFile)) return undefined;
  const parsed = parseJsonText(readFileSync(raceFile, 'utf8'));
  if (!parsed.ok) return undefined;
  const doc = parsed.value as { race?: { raceId?: unknown }; demoAccount?: unknown } | null;
  const raceId = doc?.race?.raceId;
  if (doc?.demoAccount !== true || typeof raceId !== 'string') return undefined;
  return (await input.repos.races.findById(raceId)) === undefined ? undefined : raceId;
}
