/**
 * The console's pick-up pages (issue 32): the organiser's view of a race's pick-up (slots with their places,
 * live booked and collected figures, staff check-in keys), changing a slot's capacity, and the volunteer's
 * look-up of a pass before handing its pack over. The race info is the one store of the slots: a capacity is
 * changed by saving the race as `site add-race` does (validateRaceInfo, saveRace), refused below the places
 * already booked. Collecting, keys and the export are the CLI's own services (after-entry/pickup.ts).
 */
import { MAX_SLOT_CAPACITY, PASS_CODE_PATTERN, pickupSlotId, pickupSlotTimes } from '#contract/after-entry';
import type { ConsolePassLookup, ConsolePickupView } from '#contract/console-pickup';
import { ENTRY_STATUSES } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import { validateRaceInfo } from '../../db/race-schema.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskCertNo } from '../../lib/race-center.ts';
import { insideSlot, pickupSlotFigures, pickupState, slotText, type PickupOutcome } from '../after-entry/pickup.ts';
import { formChannelOf, itemOf } from '../entry/views.ts';
import { saveRace } from '../races.ts';
import { publishedForm } from '../registration/published-forms.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { answersOf } from './entry-detail.ts';

type Refusal = Extract<PickupOutcome<never>, { ok: false }>;
const refuse = (
  status: number,
  code: Refusal['refusal']['code'],
  params?: Record<string, string | number>,
): Refusal => ({
  ok: false,
  refusal: params ? { status, code, params } : { status, code },
});

/** The race's pick-up as the admin page shows it: state, slots with figures, keys (labels and times). */
export async function pickupAdminView(
  repos: Repositories,
  raceId: string,
  now: number,
): Promise<PickupOutcome<ConsolePickupView>> {
  const race = await repos.races.findById(raceId);
  if (!race) return refuse(404, 'raceNotFound');
  const slots = await pickupSlotFigures(repos, race);
  const keys = await repos.pickup.listStaffKeys(raceId);
  return {
    ok: true,
    value: {
      raceId,
      state: pickupState(race, now),
      deadline: race.packPickup?.deadline ?? '',
      timeZone: raceTimeZone(race),
      slots: slots.map((slot) => ({
        slotId: slot.slotId,
        date: slot.date,
        start: slot.start,
        end: slot.end,
        capacity: slot.capacity,
        left: slot.left,
        booked: slot.booked,
        collected: slot.collected,
      })),
      keys: keys.map((key) => ({ label: key.label, createdAt: key.createdAt, revokedAt: key.revokedAt })),
    },
  };
}

/** A refusal inside the save's transaction (rolls the race back). */
class CapacityRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.refusal.code);
  }
}

/**
 * Sets a slot's capacity: the race info with that one number changed, checked as add-race checks it and
 * saved with its slots (saveRace), in one transaction with its audit record (pickup.capacity, before and
 * after). Refused below the places already booked in the slot (booked and collected), also when a booking
 * lands between the check and the save (saveRace's conditional update refuses it then).
 */
export async function setSlotCapacity(
  repos: Repositories,
  input: { raceId: string; slotId: string; capacity: number; actor: AuditActor; now: number },
): Promise<PickupOutcome<{ slotId: string; capacity: number }>> {
  const { raceId, slotId, capacity, actor, now } = input;
  if (!Number.isInteger(capacity) || capacity < 0 || capacity > MAX_SLOT_CAPACITY) {
    return refuse(400, 'pickupCapacityInvalid', { max: MAX_SLOT_CAPACITY });
  }
  try {
    return await repos.transaction(async (tx) => {
      await tx.db.lock(`race-save:${raceId}`);
      const race = await tx.races.findById(raceId);
      if (!race) throw new CapacityRefused(refuse(404, 'raceNotFound'));
      const changed: RaceInfo = structuredClone(race);
      let before: number | undefined;
      for (const day of changed.packPickup?.days ?? []) {
        for (const slot of day.slots) {
          if (pickupSlotId(day.date, slot.start) !== slotId) continue;
          before = slot.capacity;
          slot.capacity = capacity;
        }
      }
      if (before === undefined) throw new CapacityRefused(refuse(404, 'pickupSlotMissing'));
      if (before === capacity) return { ok: true as const, value: { slotId, capacity } };
      const times = pickupSlotTimes(race.packPickup, slotId);
      const label = times ? slotText(times) : slotId;
      const booked = async () => (await tx.pickup.slots(raceId)).find((row) => row.slotId === slotId)?.booked ?? 0;
      const taken = await booked();
      if (capacity < taken) {
        throw new CapacityRefused(refuse(409, 'pickupCapacityBelowBooked', { slot: label, booked: taken }));
      }
      const checked = validateRaceInfo(changed);
      if (!checked.ok) {
        const problem = checked.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
        throw new CapacityRefused(refuse(400, 'pickupRaceInvalid', { problem }));
      }
      const saved = await saveRace(tx, checked.race, now);
      if (!saved.ok) {
        throw new CapacityRefused(refuse(409, 'pickupCapacityBelowBooked', { slot: label, booked: await booked() }));
      }
      await appendAudit(
        tx,
        actor,
        { action: 'pickup.capacity', raceId, target: slotId, before: { capacity: before }, after: { capacity } },
        now,
      );
      return { ok: true as const, value: { slotId, capacity } };
    });
  } catch (error) {
    if (error instanceof CapacityRefused) return error.refusal;
    throw error;
  }
}

/**
 * A pass and its holder, looked up without collecting it (the check-in screen shows it before "Hand over"):
 * name, masked certificate, item, bib, the sizes the runner chose, the booked slot and whether now is inside
 * it, and when and by whom it was collected. A pass that is unknown, cancelled or whose entry no longer holds
 * its place is pickupPassMissing, as the check-in itself answers it.
 */
export async function lookUpPass(
  repos: Repositories,
  input: { raceId: string; passCode: string; now: number },
): Promise<PickupOutcome<ConsolePassLookup>> {
  const race = await repos.races.findById(input.raceId);
  if (!race) return refuse(404, 'raceNotFound');
  if (!PASS_CODE_PATTERN.test(input.passCode)) return refuse(404, 'pickupPassMissing');
  const booking = await repos.pickup.findByPass(race.raceId, input.passCode);
  if (!booking || booking.status === 'cancelled') return refuse(404, 'pickupPassMissing');
  const entry = await repos.entries.findById(booking.entryId);
  if (!entry || (booking.status === 'booked' && entry.status !== ENTRY_STATUSES.won)) {
    return refuse(404, 'pickupPassMissing');
  }
  const form = await publishedForm(repos, race.raceId, formChannelOf(race.entry));
  const sizeFields = (form?.form.fields ?? []).filter((field) => field.type === 'clothingSize');
  const sizes =
    sizeFields.length === 0
      ? []
      : answersOf(sizeFields, await repos.entries.valuesOf(entry.id)).flatMap((answer) =>
          answer.value === null || answer.value === ''
            ? []
            : [
                {
                  label: answer.label,
                  shown: (answer.shown as { zh: string; en: string } | undefined) ?? String(answer.value),
                },
              ],
        );
  const slot = pickupSlotTimes(race.packPickup, booking.slotId);
  return {
    ok: true,
    value: {
      passCode: booking.passCode,
      status: booking.status,
      entryNo: entry.entryNo,
      name: entry.name,
      certificateType: entry.certType,
      certificateNumber: maskCertNo(entry.certNumber),
      itemName: itemOf(race.entry, entry.itemCode)?.name ?? { zh: entry.itemCode, en: entry.itemCode },
      bib: entry.bib,
      sizes,
      slotId: booking.slotId,
      slot,
      outsideSlot: booking.status === 'booked' && !insideSlot(race, slot, input.now),
      collectedAt: booking.collectedAt,
      collectedBy: booking.collectedBy,
    },
  };
}
