/**
 * Pack pick-up appointments (issue 15 §2, migration 14): the places of each slot (pickup_slots), the bookings
 * with their pass codes (pickup_bookings), the check-in staff's keys (staff_keys) and the one question this
 * feature asks of the commitment letter (letter_signatures: has this entry signed this version?), and the
 * nonces of the console's hand-overs (pickup_handovers, migration 31). All SQL on these tables for pick-up
 * lives here.
 *
 * A slot's places are taken by one conditional UPDATE (`booked + 1 <= capacity`), never read then written, so
 * parallel bookings never overbook. `booked` counts the slot's booked and collected bookings; a cancellation
 * gives the place back. Every status change is guarded on the previous status (and a change of slot on the
 * booking's current slot), so a repeat changes nothing; a pass is collected once.
 */
import type { BookingStatus, PackPickupSettings } from '#contract/after-entry';
import { pickupSlotId } from '#contract/after-entry';
import { sql, type Db } from './engine.ts';

export interface PickupSlotRow {
  slotId: string;
  capacity: number;
  booked: number;
}

export interface PickupBookingRecord {
  id: number;
  raceId: string;
  entryId: number;
  slotId: string;
  passCode: string;
  status: BookingStatus;
  createdAt: number;
  updatedAt: number;
  collectedAt: number | null;
  collectedBy: string | null;
}

interface BookingRow {
  id: number;
  race_id: string;
  entry_id: number;
  slot_id: string;
  pass_code: string;
  status: BookingStatus;
  created_at: number;
  updated_at: number;
  collected_at: number | null;
  collected_by: string | null;
}

export interface StaffKeyRecord {
  id: number;
  raceId: string;
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

/** A row of the organiser's export: a booking with its entry. */
export interface PickupExportRow {
  slotId: string;
  status: BookingStatus;
  passCode: string;
  entryNo: string;
  name: string;
  itemCode: string;
  bib: string | null;
  bookedAt: number;
  collectedAt: number | null;
  collectedBy: string | null;
}

const BOOKING_COLUMNS = sql.raw(
  'id, race_id, entry_id, slot_id, pass_code, status, created_at, updated_at, collected_at, collected_by',
);

const toBooking = (row: BookingRow): PickupBookingRecord => ({
  id: Number(row.id),
  raceId: row.race_id,
  entryId: Number(row.entry_id),
  slotId: row.slot_id,
  passCode: row.pass_code,
  status: row.status,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
  collectedAt: row.collected_at === null ? null : Number(row.collected_at),
  collectedBy: row.collected_by,
});

/** The slots the settings define, with their capacities. */
export function slotsOf(settings: PackPickupSettings | undefined): { slotId: string; capacity: number }[] {
  return (settings?.days ?? []).flatMap((day) =>
    day.slots.map((slot) => ({ slotId: pickupSlotId(day.date, slot.start), capacity: slot.capacity })),
  );
}

export function createPickupRepository(db: Db) {
  const insertMissing = async (raceId: string, slots: { slotId: string; capacity: number }[]) => {
    for (const slot of slots) {
      await db.run(sql`
        INSERT INTO pickup_slots (race_id, slot_id, capacity, booked) VALUES (${raceId}, ${slot.slotId}, ${slot.capacity}, 0)
        ON CONFLICT (race_id, slot_id) DO NOTHING`);
    }
  };

  return {
    // ---- slots -------------------------------------------------------------------------------------------

    /**
     * Sets a race's slots from its settings (a race saved by the seed or `site add-race`): the capacity
     * follows the settings, booked is kept; a slot no longer in the settings is deleted when nobody holds a
     * place in it. Refused (call it inside the transaction that saves the race) when a capacity would fall
     * below the places already booked, or a removed slot still has bookings.
     */
    async syncSlots(
      raceId: string,
      settings: PackPickupSettings | undefined,
    ): Promise<{ ok: true } | { ok: false; problem: string; slotId: string; capacity: number | null; booked: number }> {
      const wanted = slotsOf(settings);
      await insertMissing(raceId, wanted);
      for (const slot of wanted) {
        const changed = await db.run(sql`
          UPDATE pickup_slots SET capacity = ${slot.capacity}
          WHERE race_id = ${raceId} AND slot_id = ${slot.slotId} AND booked <= ${slot.capacity}`);
        if (changed === 0) {
          const row = await db.get<{ booked: number }>(sql`
            SELECT booked FROM pickup_slots WHERE race_id = ${raceId} AND slot_id = ${slot.slotId}`);
          const booked = Number(row?.booked ?? 0);
          return {
            ok: false,
            problem: `pick-up slot ${slot.slotId}: capacity ${slot.capacity} is below the ${booked} places already booked`,
            slotId: slot.slotId,
            capacity: slot.capacity,
            booked,
          };
        }
      }
      const keep = new Set(wanted.map((s) => s.slotId));
      const rows = await db.all<{ slot_id: string; booked: number }>(sql`
        SELECT slot_id, booked FROM pickup_slots WHERE race_id = ${raceId} ORDER BY slot_id`);
      for (const row of rows) {
        if (keep.has(row.slot_id)) continue;
        const deleted = await db.run(sql`
          DELETE FROM pickup_slots WHERE race_id = ${raceId} AND slot_id = ${row.slot_id} AND booked = 0`);
        if (deleted === 0) {
          return {
            ok: false,
            problem: `pick-up slot ${row.slot_id} is no longer in packPickup but ${Number(row.booked)} places are booked in it`,
            slotId: row.slot_id,
            capacity: null,
            booked: Number(row.booked),
          };
        }
      }
      return { ok: true };
    },

    /** Adds the slots of the settings that have no row yet (a race saved without the sync); keeps the rest. */
    ensureSlots: (raceId: string, settings: PackPickupSettings | undefined) => insertMissing(raceId, slotsOf(settings)),

    /** The slots of a race. */
    async slots(raceId: string): Promise<PickupSlotRow[]> {
      const rows = await db.all<{ slot_id: string; capacity: number; booked: number }>(sql`
        SELECT slot_id, capacity, booked FROM pickup_slots WHERE race_id = ${raceId} ORDER BY slot_id`);
      return rows.map((r) => ({ slotId: r.slot_id, capacity: Number(r.capacity), booked: Number(r.booked) }));
    },

    /** Takes a place of a slot when one is left (one conditional UPDATE); false otherwise. */
    async takeSlot(raceId: string, slotId: string): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE pickup_slots SET booked = booked + 1
          WHERE race_id = ${raceId} AND slot_id = ${slotId} AND booked + 1 <= capacity`)) > 0
      );
    },

    /** Gives a place of a slot back. */
    async giveBackSlot(raceId: string, slotId: string): Promise<void> {
      await db.run(sql`
        UPDATE pickup_slots SET booked = booked - 1 WHERE race_id = ${raceId} AND slot_id = ${slotId} AND booked > 0`);
    },

    // ---- bookings ----------------------------------------------------------------------------------------

    /** The live (booked or collected) booking of each entry that has one. */
    async liveBookings(entryIds: number[]): Promise<Map<number, PickupBookingRecord>> {
      const map = new Map<number, PickupBookingRecord>();
      if (entryIds.length === 0) return map;
      const rows = await db.all<BookingRow>(sql`
        SELECT ${BOOKING_COLUMNS} FROM pickup_bookings
        WHERE entry_id IN (${sql.join(entryIds)}) AND status IN ('booked', 'collected')`);
      for (const row of rows) map.set(Number(row.entry_id), toBooking(row));
      return map;
    },

    /**
     * A new booking with its pass code; undefined (nothing written) when the pass code is taken or the entry
     * already has a live booking (the caller retries with another code under the entry's lock).
     */
    async insertBooking(input: {
      raceId: string;
      entryId: number;
      slotId: string;
      passCode: string;
      now: number;
    }): Promise<PickupBookingRecord | undefined> {
      const row = await db.get<BookingRow>(sql`
        INSERT INTO pickup_bookings (race_id, entry_id, slot_id, pass_code, status, created_at, updated_at)
        VALUES (${input.raceId}, ${input.entryId}, ${input.slotId}, ${input.passCode}, 'booked', ${input.now}, ${input.now})
        ON CONFLICT DO NOTHING
        RETURNING ${BOOKING_COLUMNS}`);
      return row ? toBooking(row) : undefined;
    },

    /** Moves a booked booking from one slot to another; false when it is no longer booked in `fromSlot`. */
    async moveBooking(id: number, fromSlot: string, toSlot: string, now: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE pickup_bookings SET slot_id = ${toSlot}, updated_at = ${now}
          WHERE id = ${id} AND status = 'booked' AND slot_id = ${fromSlot}`)) > 0
      );
    },

    /** booked → cancelled; false when it is not booked. */
    async cancelBooking(id: number, now: number): Promise<boolean> {
      return (
        (await db.run(sql`
          UPDATE pickup_bookings SET status = 'cancelled', updated_at = ${now} WHERE id = ${id} AND status = 'booked'`)) >
        0
      );
    },

    /**
     * When an entry gives its place back (cancelled, refunded, deferred): its booking, if booked, is cancelled
     * and the slot's place given back. True when there was one.
     */
    async releaseForEntry(entryId: number, now: number): Promise<boolean> {
      const row = await db.get<{ race_id: string; slot_id: string }>(sql`
        UPDATE pickup_bookings SET status = 'cancelled', updated_at = ${now}
        WHERE entry_id = ${entryId} AND status = 'booked'
        RETURNING race_id, slot_id`);
      if (!row) return false;
      await db.run(sql`
        UPDATE pickup_slots SET booked = booked - 1 WHERE race_id = ${row.race_id} AND slot_id = ${row.slot_id} AND booked > 0`);
      return true;
    },

    /**
     * booked → collected, once: only a booked pass of a race whose entry still holds its place (won, 1).
     * Returns the booking when this call collected it, undefined otherwise.
     */
    async collect(raceId: string, passCode: string, now: number, by: string): Promise<PickupBookingRecord | undefined> {
      const row = await db.get<BookingRow>(sql`
        UPDATE pickup_bookings SET status = 'collected', collected_at = ${now}, collected_by = ${by}, updated_at = ${now}
        WHERE race_id = ${raceId} AND pass_code = ${passCode} AND status = 'booked'
          AND entry_id IN (SELECT id FROM entries WHERE status = 1)
        RETURNING ${BOOKING_COLUMNS}`);
      return row ? toBooking(row) : undefined;
    },

    /** The booking of a pass code in a race, if any. */
    async findByPass(raceId: string, passCode: string): Promise<PickupBookingRecord | undefined> {
      const row = await db.get<BookingRow>(sql`
        SELECT ${BOOKING_COLUMNS} FROM pickup_bookings WHERE race_id = ${raceId} AND pass_code = ${passCode}`);
      return row ? toBooking(row) : undefined;
    },

    /** Per slot of a race: live bookings and those collected. */
    async counts(raceId: string): Promise<Map<string, { booked: number; collected: number }>> {
      const rows = await db.all<{ slot_id: string; status: BookingStatus; n: number }>(sql`
        SELECT slot_id, status, count(*) AS n FROM pickup_bookings
        WHERE race_id = ${raceId} AND status IN ('booked', 'collected') GROUP BY slot_id, status`);
      const map = new Map<string, { booked: number; collected: number }>();
      for (const row of rows) {
        const counts = map.get(row.slot_id) ?? { booked: 0, collected: 0 };
        if (row.status === 'collected') counts.collected += Number(row.n);
        else counts.booked += Number(row.n);
        map.set(row.slot_id, counts);
      }
      return map;
    },

    /** A race's live bookings with their entries, by slot then entry number. */
    async exportRows(raceId: string): Promise<PickupExportRow[]> {
      const rows = await db.all<{
        slot_id: string;
        status: BookingStatus;
        pass_code: string;
        entry_no: string;
        name: string;
        item_code: string;
        bib: string | null;
        created_at: number;
        collected_at: number | null;
        collected_by: string | null;
      }>(sql`
        SELECT b.slot_id, b.status, b.pass_code, e.entry_no, e.name, e.item_code, e.bib, b.created_at, b.collected_at,
          b.collected_by
        FROM pickup_bookings b JOIN entries e ON e.id = b.entry_id
        WHERE b.race_id = ${raceId} AND b.status IN ('booked', 'collected')
        ORDER BY b.slot_id, e.entry_no`);
      return rows.map((r) => ({
        slotId: r.slot_id,
        status: r.status,
        passCode: r.pass_code,
        entryNo: r.entry_no,
        name: r.name,
        itemCode: r.item_code,
        bib: r.bib,
        bookedAt: Number(r.created_at),
        collectedAt: r.collected_at === null ? null : Number(r.collected_at),
        collectedBy: r.collected_by,
      }));
    },

    // ---- the letter ----------------------------------------------------------------------------------------

    /** Whether the entry has a signature of this letter version (letter_signatures, written by the letter feature). */
    async letterSigned(entryId: number, versionHash: string): Promise<boolean> {
      const row = await db.get<{ one: number }>(sql`
        SELECT 1 AS one FROM letter_signatures WHERE entry_id = ${entryId} AND version_hash = ${versionHash} LIMIT 1`);
      return row !== undefined;
    },

    // ---- staff keys ------------------------------------------------------------------------------------------

    /** Stores a staff key's hash under a label; false when the race already has an active key of that label. */
    async issueStaffKey(raceId: string, label: string, keyHash: string, now: number): Promise<boolean> {
      const active = await db.get<{ id: number }>(sql`
        SELECT id FROM staff_keys WHERE race_id = ${raceId} AND label = ${label} AND revoked_at IS NULL`);
      if (active) return false;
      await db.run(sql`
        INSERT INTO staff_keys (race_id, key_hash, label, created_at) VALUES (${raceId}, ${keyHash}, ${label}, ${now})`);
      return true;
    },

    /** Revokes the race's active keys of a label; how many. */
    revokeStaffKey: (raceId: string, label: string, now: number) =>
      db.run(sql`
        UPDATE staff_keys SET revoked_at = ${now} WHERE race_id = ${raceId} AND label = ${label} AND revoked_at IS NULL`),

    /** The race's keys (active and revoked), newest first: labels and times, never a key or its hash. */
    async listStaffKeys(raceId: string): Promise<StaffKeyRecord[]> {
      const rows = await db.all<{
        id: number;
        race_id: string;
        label: string;
        created_at: number;
        revoked_at: number | null;
      }>(sql`
        SELECT id, race_id, label, created_at, revoked_at FROM staff_keys WHERE race_id = ${raceId}
        ORDER BY created_at DESC, id DESC`);
      return rows.map((row) => ({
        id: Number(row.id),
        raceId: row.race_id,
        label: row.label,
        createdAt: Number(row.created_at),
        revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
      }));
    },

    // ---- the console's hand-overs (migration 31) -------------------------------------------------------------

    /** The pass a hand-over nonce of the race was recorded for, if it was. */
    async handoverOf(raceId: string, nonce: string): Promise<{ passCode: string } | undefined> {
      const row = await db.get<{ pass_code: string }>(sql`
        SELECT pass_code FROM pickup_handovers WHERE race_id = ${raceId} AND nonce = ${nonce}`);
      return row ? { passCode: row.pass_code } : undefined;
    },

    /** Records a hand-over's nonce (in the transaction that collected its pass). */
    async recordHandover(input: {
      raceId: string;
      nonce: string;
      passCode: string;
      staffId: number | null;
      now: number;
    }): Promise<void> {
      await db.run(sql`
        INSERT INTO pickup_handovers (race_id, nonce, pass_code, staff_id, created_at)
        VALUES (${input.raceId}, ${input.nonce}, ${input.passCode}, ${input.staffId}, ${input.now})`);
    },

    /** The key of a hash, if any (revoked ones too). */
    async findStaffKey(keyHash: string): Promise<StaffKeyRecord | undefined> {
      const row = await db.get<{
        id: number;
        race_id: string;
        label: string;
        created_at: number;
        revoked_at: number | null;
      }>(sql`SELECT id, race_id, label, created_at, revoked_at FROM staff_keys WHERE key_hash = ${keyHash}`);
      return row
        ? {
            id: Number(row.id),
            raceId: row.race_id,
            label: row.label,
            createdAt: Number(row.created_at),
            revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
          }
        : undefined;
    },
  };
}

export type PickupRepository = ReturnType<typeof createPickupRepository>;
