/**
 * The races a request names (the one lookup most routes start with: a race that does not exist is their 404
 * raceNotFound), and races added and saved: by `site add-race` and by the console's races and race pages
 * (routes/admin/races.ts), with the same checks (validateRaceInfo, every problem with its JSON path) and the
 * same refusals of a change that would break entries already made.
 */
import type { ConsoleMessageCode } from '#contract/console-messages';
import type { MessageParams } from '#contract/messages';
import type { NewRaceRequest, RaceProblem, RaceSettingsView } from '#contract/race-admin';
import { NEW_RACE_ID_PATTERN, RACE_NAME_MAX, RACE_PLACE_MAX } from '#contract/race-admin';
import type { RaceInfo } from '#contract/site-config/race-types';
import { validateRaceInfo } from '../db/race-schema.ts';
import type { Repositories } from '../db/repositories.ts';
import { appendAudit, type AuditActor } from './staff/audit.ts';

/** The race `raceId`, or undefined when there is none. */
export const raceById = (repos: Repositories, raceId: string): Promise<RaceInfo | undefined> =>
  repos.races.findById(raceId);

/** Why a save is refused: the message (console-messages.ts) with its parameters, and the English for the CLI. */
export interface RaceRefusal {
  status: number;
  code: ConsoleMessageCode | 'raceNotFound';
  params?: MessageParams;
  /** The English words (what the CLI prints). */
  problem: string;
  /** The document's problems by JSON path (raceInvalid). */
  problems?: RaceProblem[];
}

/** A race refused inside saveRace's transaction (everything rolls back). */
class RaceRefused extends Error {
  constructor(readonly refusal: RaceRefusal) {
    super(refusal.problem);
  }
}

const refusal = (
  status: number,
  code: RaceRefusal['code'],
  problem: string,
  params?: MessageParams,
  problems?: RaceProblem[],
): RaceRefusal => ({ status, code, problem, ...(params ? { params } : {}), ...(problems ? { problems } : {}) });

/**
 * What of the entries already made the new settings would break, or undefined: an item code with entries that
 * is no longer in the race (removed, or its code changed), an item's charity places dropped while it has
 * charity entries, an item's entry model changed under its entries (ballot entries would never be drawn, paid
 * pay-then-draw entries never drawn or refunded). Entries of every status count: cancelled and refunded ones
 * still name their item in refunds, exports and the audit.
 */
async function brokenEntries(
  tx: Repositories,
  before: RaceInfo | undefined,
  race: RaceInfo,
): Promise<RaceRefusal | undefined> {
  const counts = await tx.raceFigures.entryCounts(race.raceId);
  if (counts.length === 0) return undefined;
  const items = new Map((race.entry?.items ?? []).map((item) => [item.code, item]));
  const oldItems = new Map((before?.entry?.items ?? []).map((item) => [item.code, item]));
  const byItem = new Map<string, { all: number; charity: number }>();
  for (const row of counts) {
    const seen = byItem.get(row.itemCode) ?? { all: 0, charity: 0 };
    seen.all += row.count;
    if (row.channel === 'charity') seen.charity += row.count;
    byItem.set(row.itemCode, seen);
  }
  for (const [itemCode, count] of [...byItem].sort(([a], [b]) => a.localeCompare(b))) {
    const item = items.get(itemCode);
    if (!item) {
      return refusal(
        409,
        'raceItemHasEntries',
        `entry item ${itemCode} has ${count.all} entries: it cannot be removed or its code changed`,
        { item: itemCode, count: count.all },
      );
    }
    if (count.charity > 0 && !item.charity) {
      return refusal(
        409,
        'raceCharityHasEntries',
        `entry item ${itemCode} has ${count.charity} charity entries: its charity places cannot be removed`,
        { item: itemCode, count: count.charity },
      );
    }
    const old = oldItems.get(itemCode);
    if (old && old.model !== item.model) {
      return refusal(
        409,
        'raceModelHasEntries',
        `entry item ${itemCode} has ${count.all} entries: its model cannot change from ${old.model} to ${item.model}`,
        { item: itemCode, count: count.all, from: old.model, to: item.model },
      );
    }
  }
  return undefined;
}

/**
 * Saves the race with the places of its sign-up items and its pick-up slots, in one transaction (call it
 * inside the caller's when there is one): a change that would break entries already made (brokenEntries), a
 * capacity below the places taken or booked, a removed pool or slot somebody holds refuses all of it.
 */
export async function saveRace(
  repos: Repositories,
  race: RaceInfo,
  now: number,
): Promise<{ ok: true; saved: 'inserted' | 'updated' } | { ok: false; problem: string; refusal: RaceRefusal }> {
  try {
    const saved = await repos.transaction(async (tx) => {
      const before = await tx.races.findById(race.raceId);
      const broken = await brokenEntries(tx, before, race);
      if (broken) throw new RaceRefused(broken);
      const outcome = await tx.races.save(race, now);
      const places = await tx.entries.syncPlaces(race.raceId, race.entry);
      if (!places.ok) {
        const charity = places.pool === 'charity';
        throw new RaceRefused(
          places.capacity === null
            ? refusal(409, charity ? 'raceCharityHasEntries' : 'raceItemHasEntries', places.problem, {
                item: places.itemCode,
                count: places.taken,
              })
            : refusal(409, charity ? 'raceCharityBelowTaken' : 'raceCapacityBelowTaken', places.problem, {
                item: places.itemCode,
                capacity: places.capacity,
                taken: places.taken,
              }),
        );
      }
      const slots = await tx.pickup.syncSlots(race.raceId, race.packPickup);
      if (!slots.ok) {
        throw new RaceRefused(
          slots.capacity === null
            ? refusal(409, 'raceSlotRemovedBooked', slots.problem, { slot: slots.slotId, booked: slots.booked })
            : refusal(409, 'pickupCapacityBelowBooked', slots.problem, { slot: slots.slotId, booked: slots.booked }),
        );
      }
      // The public answers cached from the race's data (sign-up information) follow at once.
      await tx.entryAdmin.bumpRaceVersion(race.raceId);
      return outcome;
    });
    return { ok: true, saved };
  } catch (error) {
    if (error instanceof RaceRefused) return { ok: false, problem: error.refusal.problem, refusal: error.refusal };
    throw error;
  }
}

/** The top-level keys whose values differ, before and after (the audit record of a save). */
function changedKeys(before: RaceInfo | undefined, after: RaceInfo) {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  const old = (before ?? {}) as Record<string, unknown>;
  const next = after as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(old), ...Object.keys(next)])) {
    if (JSON.stringify(old[key]) === JSON.stringify(next[key])) continue;
    was[key] = old[key] ?? null;
    now[key] = next[key] ?? null;
  }
  return { before: was, after: now };
}

export type RaceSaveOutcome =
  { ok: true; saved: 'inserted' | 'updated'; race: RaceInfo; version: number } | { ok: false; refusal: RaceRefusal };

export interface RaceSaveInput {
  /** The race.json document as given (validated here). */
  document: unknown;
  /** The race the console's page is on: the document must be that race. */
  raceId?: string;
  /** The version the editor read (races.version): a save over a newer one is refused. */
  version?: number;
  /** Only a new race (race.add): refused when its id is taken. */
  create?: boolean;
  actor: AuditActor;
  now: number;
}

/**
 * Checks a race.json document as `site add-race` does and saves it (saveRace), with its audit record (race.add
 * for a new race, race.save for a change, with the top-level keys before and after) in the same transaction.
 */
export async function saveRaceDocument(repos: Repositories, input: RaceSaveInput): Promise<RaceSaveOutcome> {
  const checked = validateRaceInfo(input.document);
  if (!checked.ok) {
    const lines = checked.problems.map((p) => `${p.path}: ${p.message}`);
    return {
      ok: false,
      refusal: refusal(400, 'raceInvalid', lines.join('\n'), { count: checked.problems.length }, checked.problems),
    };
  }
  const race = checked.race;
  if (input.raceId !== undefined && race.raceId !== input.raceId) {
    return {
      ok: false,
      refusal: refusal(400, 'raceIdMismatch', `raceId ${race.raceId} is not ${input.raceId}`, {
        got: race.raceId,
        race: input.raceId,
      }),
    };
  }
  try {
    return await repos.transaction(async (tx) => {
      // One save of a race at a time (the pick-up page's capacity saves take the same lock).
      await tx.db.lock(`race-save:${race.raceId}`);
      const before = await tx.races.findById(race.raceId);
      if (input.create) {
        if (before || !(await tx.races.insertNew(race, input.now))) {
          throw new RaceRefused(
            refusal(409, 'raceIdTaken', `race ${race.raceId} already exists`, { race: race.raceId }),
          );
        }
      } else if (input.raceId !== undefined && !before) {
        throw new RaceRefused(refusal(404, 'raceNotFound', `no race ${race.raceId}`));
      }
      if (input.version !== undefined && before && (await tx.races.version(race.raceId)) !== input.version) {
        throw new RaceRefused(
          refusal(409, 'raceChangedMeanwhile', `race ${race.raceId} was changed meanwhile: reload it`),
        );
      }
      const saved = await saveRace(tx, race, input.now);
      if (!saved.ok) throw new RaceRefused(saved.refusal);
      const inserted = input.create === true || saved.saved === 'inserted';
      const diff = changedKeys(input.create ? undefined : before, race);
      await appendAudit(
        tx,
        input.actor,
        {
          action: inserted ? 'race.add' : 'race.save',
          raceId: race.raceId,
          target: race.raceId,
          before: inserted ? null : diff.before,
          after: diff.after,
        },
        input.now,
      );
      return {
        ok: true as const,
        saved: inserted ? ('inserted' as const) : ('updated' as const),
        race,
        version: (await tx.races.version(race.raceId)) ?? 1,
      };
    });
  } catch (error) {
    if (error instanceof RaceRefused) return { ok: false, refusal: error.refusal };
    throw error;
  }
}

/** A new race's race.json from the console's few fields, or not ok when the race id is not one (the rest is checked as add-race checks it). */
export function newRaceDocument(request: NewRaceRequest): { ok: true; race: RaceInfo } | { ok: false } {
  const raceId = request.raceId.trim();
  if (!NEW_RACE_ID_PATTERN.test(raceId)) return { ok: false };
  const zh = request.raceName.zh.trim().slice(0, RACE_NAME_MAX);
  const en = request.raceName.en.trim().slice(0, RACE_NAME_MAX);
  const place = request.place?.trim().slice(0, RACE_PLACE_MAX);
  const race: RaceInfo = {
    raceId,
    raceName: zh,
    ...(en ? { raceNameEn: en } : {}),
    startTime: request.startTime.trim(),
    ...(request.endTime?.trim() ? { endTime: request.endTime.trim() } : {}),
    ...(request.timeZone?.trim() ? { timeZone: request.timeZone.trim() } : {}),
    ...(place ? { detailAddress: place } : {}),
    // Closed until the organiser has items, a form and a window (the race page; entry-open).
    signUpOpenStatus: 0,
  };
  return { ok: true, race };
}

/** Creates a race from the console's few fields (race.add): closed to sign-up, no items, no demo data. */
export async function createRace(
  repos: Repositories,
  request: NewRaceRequest,
  actor: AuditActor,
  now: number,
): Promise<RaceSaveOutcome> {
  const made = newRaceDocument(request);
  if (!made.ok) {
    return { ok: false, refusal: refusal(400, 'raceIdInvalid', `"${request.raceId}" is not a race id`) };
  }
  return saveRaceDocument(repos, { document: made.race, create: true, actor, now });
}

/** Checks a race.json document without saving it (the console's JSON editor, as it is typed). */
export function checkRaceDocument(document: unknown): RaceProblem[] {
  const checked = validateRaceInfo(document);
  return checked.ok ? [] : checked.problems;
}

/** A race's settings as the race page edits them: the document, its version and what entries already hold. */
export async function raceSettings(repos: Repositories, raceId: string): Promise<RaceSettingsView | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  const entriesByItem: Record<string, number> = {};
  for (const row of await repos.raceFigures.entryCounts(raceId)) {
    entriesByItem[row.itemCode] = (entriesByItem[row.itemCode] ?? 0) + row.count;
  }
  return {
    race,
    version: (await repos.races.version(raceId)) ?? 1,
    places: await repos.entries.places(raceId),
    entriesByItem,
    slots: await repos.pickup.slots(raceId),
  };
}
